import { OidcProviderInput, type OidcProvider } from '@pagewatch/contract';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { useLeaveGuard } from '../../../../lib/leave-guard';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { useSaveProvider } from '../../../auth/components/oidc/api';

type Values = {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  emailClaim: string;
  nameClaim: string;
  groupsClaim: string;
  defaultRole: string;
  signUp: string;
  roleMappings: string;
  allowedDomains: string;
  enabled: string;
};

const valuesOf = (p: OidcProvider | null): Values => ({
  name: p?.name ?? '',
  issuer: p?.issuer ?? '',
  clientId: p?.clientId ?? '',
  clientSecret: '',
  scopes: p?.scopes ?? 'openid email profile',
  emailClaim: p?.emailClaim ?? 'email',
  nameClaim: p?.nameClaim ?? 'name',
  groupsClaim: p?.groupsClaim ?? 'groups',
  defaultRole: p?.defaultRole ?? 'viewer',
  signUp: p?.signUp ?? 'invited',
  roleMappings: (p?.roleMappings ?? []).map((m) => `${m.value} = ${m.role}`).join('\n'),
  allowedDomains: (p?.allowedDomains ?? []).join(', '),
  enabled: p === null || p.enabled ? 'yes' : 'no',
});

/** "ops = admin" per line → mappings; a line without "=" is kept whole so the schema names it. */
const mappingsOf = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const at = l.lastIndexOf('=');
      return at < 0
        ? { value: l, role: '' }
        : {
            value: l.slice(0, at).trim(),
            role: l
              .slice(at + 1)
              .trim()
              .toLowerCase(),
          };
    });

const toInput = (v: Values) => ({
  name: v.name,
  issuer: v.issuer.trim(),
  clientId: v.clientId,
  ...(v.clientSecret === '' ? {} : { clientSecret: v.clientSecret }),
  scopes: v.scopes,
  emailClaim: v.emailClaim,
  nameClaim: v.nameClaim,
  groupsClaim: v.groupsClaim.trim() === '' ? null : v.groupsClaim,
  defaultRole: v.defaultRole,
  signUp: v.signUp,
  roleMappings: mappingsOf(v.roleMappings),
  allowedDomains: v.allowedDomains.split(/[\s,]+/).filter(Boolean),
  enabled: v.enabled === 'yes',
});

/** Adding or editing one OIDC provider; the client secret is write-only. */
export function ProviderForm({
  provider,
  onSaved,
  onCancel,
}: {
  provider: OidcProvider | null;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const save = useSaveProvider();
  const form = useSchemaForm({ initial: valuesOf(provider), schema: OidcProviderInput, toInput });
  const leave = useLeaveGuard(form.dirty);
  const text = (key: keyof Values, label: string, hint?: string, type = 'text') => (
    <Field name={key} label={label} hint={hint} error={form.errorFor(key)}>
      {(p) => <input {...p} className="input" type={type} spellCheck={false} {...form.bind(key)} />}
    </Field>
  );
  return (
    <form
      ref={form.formRef}
      className="panel stack-form"
      aria-labelledby="oidc-form-title"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        save.mutate(
          { id: provider?.id ?? null, input },
          { onSuccess: onSaved, onError: (e) => form.showServerErrors(e) },
        ),
      )}
    >
      {leave.guard}
      <h3 id="oidc-form-title" className="panel__title">
        {provider ? `Edit ${provider.name}` : 'Add a provider'}
      </h3>
      <div className="oidc-form__grid">
        {text('name', 'Button name', 'Shown as “Sign in with …”')}
        {text('issuer', 'Issuer URL', 'Its /.well-known/openid-configuration is read', 'url')}
        {text('clientId', 'Client ID')}
        <Field
          name="clientSecret"
          label="Client secret"
          optional
          hint={
            provider?.clientSecretSet
              ? 'Stored; leave empty to keep it'
              : 'Leave empty for a public client'
          }
          error={form.errorFor('clientSecret')}
        >
          {(p) => (
            <input
              {...p}
              className="input"
              type="password"
              autoComplete="off"
              {...form.bind('clientSecret')}
            />
          )}
        </Field>
        {text('scopes', 'Scopes')}
        {text('emailClaim', 'Email claim')}
        {text('nameClaim', 'Name claim')}
        {text('groupsClaim', 'Groups claim', 'Empty: no group mapping')}
        <Field name="defaultRole" label="Default role" error={form.errorFor('defaultRole')}>
          {(p) => (
            <select {...p} className="input select" {...form.bind('defaultRole')}>
              <option value="viewer">Viewer</option>
              <option value="editor">Editor</option>
              <option value="admin">Admin</option>
            </select>
          )}
        </Field>
        <Field name="signUp" label="New people" error={form.errorFor('signUp')}>
          {(p) => (
            <select {...p} className="input select" {...form.bind('signUp')}>
              <option value="invited">Only those invited or with an account</option>
              <option value="create">Create an account at the first sign-in</option>
            </select>
          )}
        </Field>
      </div>
      <Field
        name="roleMappings"
        label="Group → role"
        optional
        hint="One per line, e.g. ops = admin. Applied at every sign-in; the highest match wins, no match gets the default role."
        error={form.errorFor('roleMappings')}
      >
        {(p) => (
          <textarea
            {...p}
            className="input"
            rows={3}
            spellCheck={false}
            {...form.bind('roleMappings')}
          />
        )}
      </Field>
      <Field
        name="allowedDomains"
        label="Allowed email domains"
        optional
        hint="Separated by commas; empty allows any domain"
        error={form.errorFor('allowedDomains')}
      >
        {(p) => (
          <input {...p} className="input" spellCheck={false} {...form.bind('allowedDomains')} />
        )}
      </Field>
      <Field name="enabled" label="Show on the login page" error={form.errorFor('enabled')}>
        {(p) => (
          <select {...p} className="input select" {...form.bind('enabled')}>
            <option value="yes">Yes</option>
            <option value="no">No (disabled)</option>
          </select>
        )}
      </Field>
      {form.serverOther.length > 0 && <ErrorNotice error={save.error} />}
      <div className="button-row">
        <Button type="submit" variant="primary" busy={save.isPending}>
          {provider ? 'Save provider' : 'Add provider'}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
