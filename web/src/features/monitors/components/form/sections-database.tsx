import type { ComponentType } from 'react';
import { Notice } from '../../../../components/ui/Notice';
import { CheckboxField, HostPortFields, TextInputField } from './controls';
import type { SectionProps } from './section-props';
import { DegradedField } from './sections-general';

/**
 * The form of the database types (PostgreSQL, MySQL/MariaDB, Redis, MongoDB): one shape, told
 * apart by what each type says here, so the form never asks which type it is showing.
 */
export interface DatabaseFormText {
  product: string;
  defaultPort: number;
  /** The database field: its label, hint and placeholder; null when the type has none to type. */
  database: { label: string; hint: string; placeholder: string };
  /** Placeholder of the user name; `optional` when the type can connect without one. */
  user: { placeholder: string; optional: boolean; hint: string };
  /** What the one query or command is; null for a type that only pings. */
  query: {
    label: string;
    hint: string;
    placeholder: string;
    /** The value key and the contract field the errors come under. */
    field: 'query' | 'command';
  } | null;
  /** What the read-only, time-bounded session means for this type, in a sentence. */
  session: string;
}

function TargetFields(text: DatabaseFormText) {
  return function DatabaseTargetFields({ errorFor, text: bind }: SectionProps) {
    return (
      <HostPortFields
        errorFor={errorFor}
        host={bind('host')}
        port={{ ...bind('port'), placeholder: String(text.defaultPort) }}
        hostHint="A host name or IP address, e.g. db.internal or 10.0.0.5"
        portHint={`${text.defaultPort} if empty`}
      />
    );
  };
}

function LoginSection(text: DatabaseFormText) {
  return function DatabaseLoginSection({ v, set, errorFor }: SectionProps) {
    return (
      <fieldset className="form__section">
        <legend className="form__legend">Login</legend>
        <div className="form__grid">
          <TextInputField
            name="database"
            label={text.database.label}
            optional
            error={errorFor('database')}
            hint={text.database.hint}
            kind="code"
            input={{
              placeholder: text.database.placeholder,
              value: v.dbDatabase,
              onChange: (e) => set('dbDatabase', e.target.value, 'database'),
            }}
          />
          <TextInputField
            name="username"
            label="User name"
            optional={text.user.optional}
            error={errorFor('username')}
            hint={text.user.hint}
            kind="code"
            input={{
              placeholder: text.user.placeholder,
              autoComplete: 'off',
              value: v.dbUsername,
              onChange: (e) => set('dbUsername', e.target.value, 'username'),
            }}
          />
          <TextInputField
            name="password"
            label="Password"
            optional={!v.dbPasswordSaved}
            error={errorFor('password')}
            hint={
              v.dbPasswordSaved
                ? 'Saved — leave empty to keep the saved password.'
                : 'Stored encrypted and never shown again.'
            }
            kind="password"
            input={{
              placeholder: v.dbPasswordSaved ? '••••••••' : '',
              autoComplete: 'new-password',
              value: v.dbPassword,
              onChange: (e) => set('dbPassword', e.target.value, 'password'),
            }}
          />
        </div>
        <CheckboxField
          name="tls"
          label="Connect over TLS"
          hint={`The certificate is checked like a TLS monitor's before the password is sent: expired, for another name or untrusted is down.`}
          error={errorFor('tls')}
          checked={v.dbTls}
          onChange={(checked) => set('dbTls', checked, 'tls')}
        />
        {v.dbTls && (
          <div className="form__nested">
            <div className="form__grid form__grid--narrow">
              <TextInputField
                name="warnDays"
                label="Warn days before expiry"
                error={errorFor('warnDays')}
                hint="1 to 365; 14 by default."
                kind="number"
                input={{
                  value: v.warnDays,
                  onChange: (e) => set('warnDays', e.target.value, 'warnDays'),
                }}
              />
            </div>
            <CheckboxField
              name="ignoreTrust"
              label="Accept certificates from any issuer (self-signed, private CA)"
              error={errorFor('ignoreTrust')}
              checked={v.ignoreTrust}
              onChange={(checked) => set('ignoreTrust', checked)}
            />
            {v.ignoreTrust && (
              <Notice tone="warning" title="Who issued the certificate will not be checked">
                Expiry and the name are still checked. The password is sent to whoever holds the
                certificate.
              </Notice>
            )}
          </div>
        )}
      </fieldset>
    );
  };
}

function QuerySection(text: DatabaseFormText) {
  const query = text.query;
  return function DatabaseQuerySection(props: SectionProps) {
    const { v, set, errorFor } = props;
    return (
      <fieldset className="form__section">
        <legend className="form__legend">{query ? 'Query' : 'Answer'}</legend>
        <p className="form__note">{text.session}</p>
        {query && (
          <>
            <TextInputField
              name={query.field}
              label={query.label}
              optional
              error={errorFor(query.field)}
              hint={query.hint}
              kind="code"
              input={{
                placeholder: query.placeholder,
                value: v.dbQuery,
                onChange: (e) => set('dbQuery', e.target.value, query.field),
              }}
            />
            <TextInputField
              name="expected"
              label="Expected first value"
              optional
              error={errorFor('expected')}
              hint="Compared as text with the first column of the first row (or the reply). Empty: any answer is up."
              kind="code"
              input={{
                value: v.dbExpected,
                onChange: (e) => set('dbExpected', e.target.value, 'expected'),
              }}
            />
          </>
        )}
        <div className="form__grid">
          <DegradedField {...props} hint="Answers slower than this count as degraded." />
        </div>
      </fieldset>
    );
  };
}

/** The form parts of one database type. */
export function databaseSections(text: DatabaseFormText): {
  Target: ComponentType<SectionProps>;
  sections: ComponentType<SectionProps>[];
} {
  return { Target: TargetFields(text), sections: [LoginSection(text), QuerySection(text)] };
}

const SQL_SESSION =
  'Runs in a read-only session; statements are stopped at the timeout. Writes are refused by the server.';

export const postgresForm = databaseSections({
  product: 'PostgreSQL',
  defaultPort: 5432,
  database: {
    label: 'Database',
    hint: "Empty: the database named like the user (PostgreSQL's default).",
    placeholder: 'app',
  },
  user: {
    placeholder: 'monitor',
    optional: false,
    hint: 'A role with LOGIN; it needs no rights to write.',
  },
  query: {
    label: 'Query',
    hint: 'One statement. Empty: SELECT 1.',
    placeholder: 'SELECT 1',
    field: 'query',
  },
  session: SQL_SESSION,
});

export const mysqlForm = databaseSections({
  product: 'MySQL/MariaDB',
  defaultPort: 3306,
  database: { label: 'Database', hint: 'Empty: none selected.', placeholder: 'app' },
  user: {
    placeholder: 'monitor',
    optional: false,
    hint: 'A user allowed to connect from Pagewatch.',
  },
  query: {
    label: 'Query',
    hint: 'One statement. Empty: SELECT 1.',
    placeholder: 'SELECT 1',
    field: 'query',
  },
  session: SQL_SESSION,
});

export const redisForm = databaseSections({
  product: 'Redis',
  defaultPort: 6379,
  database: { label: 'Database number', hint: '0 to 255; 0 if empty.', placeholder: '0' },
  user: {
    placeholder: 'default',
    optional: true,
    hint: 'For ACL users (Redis 6 and later); empty: the default user.',
  },
  query: {
    label: 'Command',
    hint: 'A read command: PING, ECHO, GET, EXISTS, STRLEN, TYPE, TTL, HGET, HLEN, LLEN, SCARD, ZCARD, XLEN, DBSIZE, INFO, ROLE… Empty: PING. Quote arguments with spaces.',
    placeholder: 'PING',
    field: 'command',
  },
  session:
    'Redis has no read-only session for a client, so only read commands can be entered; the connection is closed at the timeout.',
});

export const mongodbForm = databaseSections({
  product: 'MongoDB',
  defaultPort: 27017,
  database: {
    label: 'Database',
    hint: 'Pinged, and the user is authenticated against it. Empty: admin.',
    placeholder: 'admin',
  },
  user: { placeholder: 'monitor', optional: true, hint: 'Empty: connect without logging in.' },
  query: null,
  session:
    'Runs the ping command on one server (no replica-set discovery); the whole check is bounded by the timeout.',
});
