import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { formatDateTime } from '../../../../lib/format';
import { rdapBootstrapQuery, useRefreshRdapBootstrap } from '../../api/rdap-bootstrap';

/**
 * Settings → General → Domain expiry (ADR 64): which RDAP bootstrap file finds each TLD's
 * registry, its date and source, and a refresh from IANA (or another copy).
 */
export function RdapBootstrapPanel() {
  const { data, error } = useQuery(rdapBootstrapQuery());
  const refresh = useRefreshRdapBootstrap();
  const [from, setFrom] = useState<string | null>(null);
  const source = from ?? data?.defaultSource ?? '';
  return (
    <form
      className="panel stack-form"
      aria-labelledby="rdap-bootstrap-title"
      onSubmit={(e) => {
        e.preventDefault();
        refresh.mutate({ from: source });
      }}
    >
      <h3 id="rdap-bootstrap-title" className="panel__title">
        Domain expiry: registry directory
      </h3>
      <p className="panel__intro setting-note">
        Domain expiry monitors find each TLD’s registry in IANA’s RDAP bootstrap file. Pagewatch
        ships a partial copy; refresh it now and then (monthly is plenty) for every TLD with RDAP.
      </p>
      {error && <ErrorNotice error={error} />}
      {data && (
        <dl className="storage-breakdown rdap-bootstrap">
          <dt>In use</dt>
          <dd>
            {data.source === 'shipped' ? 'The copy shipped with Pagewatch' : 'Refreshed copy'}
          </dd>
          <dt>Published</dt>
          <dd>{data.publication ? formatDateTime(data.publication) : 'Not stated in the file'}</dd>
          <dt>TLDs with RDAP</dt>
          <dd>{data.tlds.toLocaleString()}</dd>
          {data.source === 'refreshed' && (
            <>
              <dt>Downloaded</dt>
              <dd>{formatDateTime(data.refreshedAt)}</dd>
              <dt>From</dt>
              <dd className="rdap-bootstrap__source">
                {data.refreshedFrom ?? 'Not recorded (the command line before this version)'}
              </dd>
            </>
          )}
        </dl>
      )}
      <Field
        name="from"
        label="Download from"
        hint="IANA’s address unless you keep a copy of your own. The file is checked before it replaces the one in use; every process uses it within 5 minutes."
      >
        {(p) => (
          <input
            {...p}
            className="input mono"
            type="url"
            value={source}
            spellCheck={false}
            onChange={(e) => setFrom(e.target.value)}
          />
        )}
      </Field>
      {refresh.error && <ErrorNotice error={refresh.error} />}
      {refresh.isSuccess && (
        <Notice live title="Bootstrap file refreshed">
          {refresh.data.tlds.toLocaleString()} TLDs with RDAP.
        </Notice>
      )}
      <div className="stack-form__buttons">
        <Button type="submit" variant="primary" busy={refresh.isPending} disabled={!data}>
          Refresh now
        </Button>
      </div>
    </form>
  );
}
