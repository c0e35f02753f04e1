import '../../../../styles/oidc.css';
import type { OidcProvider, SignInPolicy } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { ConfirmDialog } from '../../../../components/ui/ConfirmDialog';
import { CopyButton } from '../../../../components/ui/CopyButton';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { useMe } from '../../../auth/api/session';
import {
  policyQuery,
  providersQuery,
  useDeleteProvider,
  useSavePolicy,
} from '../../../auth/components/oidc/api';
import { ProviderForm } from './ProviderForm';

function ProviderRow({ p, onEdit }: { p: OidcProvider; onEdit: () => void }) {
  const remove = useDeleteProvider();
  const [confirm, setConfirm] = useState(false);
  const mapped = p.roleMappings.map((m) => `${m.value} → ${m.role}`).join(', ');
  return (
    <li className="oidc-provider-row">
      <div>
        <div className="oidc-provider-row__name">
          {p.name}
          {p.enabled ? '' : ' (disabled)'}
        </div>
        <div className="oidc-provider-row__meta">
          {p.issuer} · {p.signUp === 'create' ? 'creates accounts' : 'invited only'} · default{' '}
          {p.defaultRole}
          {mapped && ` · ${mapped}`}
          {p.allowedDomains.length > 0 && ` · ${p.allowedDomains.join(', ')}`}
        </div>
      </div>
      <div className="button-row">
        <Button size="sm" onClick={onEdit}>
          Edit
        </Button>
        <Button size="sm" variant="danger" onClick={() => setConfirm(true)}>
          Remove
        </Button>
      </div>
      <ConfirmDialog
        open={confirm}
        title={`Remove ${p.name}?`}
        confirmLabel="Remove provider"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onConfirm={() => remove.mutate(p.id, { onSuccess: () => setConfirm(false) })}
        onCancel={() => setConfirm(false)}
      >
        People who signed in with it keep their accounts; they sign in another way.
      </ConfirmDialog>
    </li>
  );
}

function PasswordPolicy({ policy, providers }: { policy: SignInPolicy; providers: number }) {
  const me = useMe();
  const save = useSavePolicy();
  const ownerOnly = policy.passwordSignIn === 'owner_only';
  return (
    <section className="panel stack-form" aria-labelledby="password-policy-title">
      <h3 id="password-policy-title" className="panel__title">
        Password sign-in
      </h3>
      <p className="setting-note">
        {ownerOnly
          ? 'Only the owner may sign in with a password (the break-glass account); everyone else uses a provider.'
          : 'Everyone may sign in with a password.'}
      </p>
      {me.role !== 'owner' ? (
        <p className="setting-note">Only the owner can change this.</p>
      ) : (
        <div className="button-row">
          <Button
            busy={save.isPending}
            disabled={!ownerOnly && providers === 0}
            onClick={() => save.mutate({ passwordSignIn: ownerOnly ? 'everyone' : 'owner_only' })}
          >
            {ownerOnly ? 'Allow passwords for everyone' : 'Passwords for the owner only'}
          </Button>
        </div>
      )}
      {save.error && <ErrorNotice error={save.error} />}
    </section>
  );
}

/** Settings → Sign-in: OIDC providers and who may use a password (ADR 48). */
export function SignInScreen() {
  const providers = useQuery(providersQuery());
  const policy = useQuery(policyQuery());
  const [editing, setEditing] = useState<OidcProvider | 'new' | null>(null);
  const [saved, setSaved] = useState(false);
  const redirectUri = `${window.location.origin}/api/v1/auth/oidc/callback`;
  const list = providers.data ?? [];
  return (
    <>
      <h2 className="settings-title">Sign-in</h2>
      <section className="panel stack-form" aria-labelledby="oidc-title">
        <h3 id="oidc-title" className="panel__title">
          Single sign-on (OpenID Connect)
        </h3>
        <p className="setting-note">
          Register this redirect URI with your identity provider, then add it here:
        </p>
        <div className="oidc-redirect">
          <code>{list[0]?.redirectUri ?? redirectUri}</code>
          <CopyButton text={list[0]?.redirectUri ?? redirectUri} size="sm" />
        </div>
        {providers.error && <ErrorNotice error={providers.error} />}
        {providers.isPending && <LoadingBlock />}
        {list.length > 0 && (
          <ul className="oidc-providers">
            {list.map((p) => (
              <ProviderRow key={p.id} p={p} onEdit={() => setEditing(p)} />
            ))}
          </ul>
        )}
        {providers.data && list.length === 0 && (
          <p className="setting-note">No provider yet: people sign in with a password.</p>
        )}
        {saved && <Notice live title="Provider saved" />}
        {editing === null && (
          <div className="button-row">
            <Button
              variant="primary"
              icon="plus"
              onClick={() => {
                setSaved(false);
                setEditing('new');
              }}
            >
              Add a provider
            </Button>
          </div>
        )}
      </section>
      {editing !== null && (
        <ProviderForm
          key={editing === 'new' ? 'new' : editing.id}
          provider={editing === 'new' ? null : editing}
          onSaved={() => {
            setEditing(null);
            setSaved(true);
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      {policy.data && (
        <PasswordPolicy policy={policy.data} providers={list.filter((p) => p.enabled).length} />
      )}
    </>
  );
}
