import type { ApiKey } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { ConfirmDialog } from '../../../../components/ui/ConfirmDialog';
import { EmptyState } from '../../../../components/ui/EmptyState';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { useMe } from '../../../auth/api/session';
import { atLeast, rolesUpTo } from '../../../auth/roles';
import { apiKeysQuery, useRevokeApiKey } from '../../api/api-keys';
import { ApiKeyRow } from './ApiKeyRow';
import { CreateApiKeyForm } from './CreateApiKeyForm';
import { NewKeyNotice } from './NewKeyNotice';

/** Keys for scripts: create (shown once), see when each was last used, revoke. */
export function ApiKeysScreen() {
  const me = useMe();
  const { data, error, isPending, refetch, isRefetching } = useQuery(apiKeysQuery());
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ apiKey: ApiKey; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const keys = data?.items;
  const admin = atLeast(me.role, 'admin');

  return (
    <>
      <div className="settings-head">
        <div>
          <h2 className="settings-title">API keys</h2>
          <p className="page-sub">
            For scripts and CI calling the API. {admin ? 'You see every key.' : 'Your own keys.'}{' '}
            {/* Served by the server, outside the app's routes: a plain link, in a new tab. */}
            <a href="/api/docs" target="_blank" rel="noopener">
              API reference
            </a>
          </p>
        </div>
        {!creating && !created && (
          <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
            Create key
          </Button>
        )}
      </div>
      <p className="visually-hidden" role="status">
        {revoked ?? ''}
      </p>
      {created && <NewKeyNotice created={created} onDone={() => setCreated(null)} />}
      {creating && (
        <CreateApiKeyForm
          roles={rolesUpTo(me.role)}
          myRole={me.role}
          onCancel={() => setCreating(false)}
          onCreated={(c) => {
            setCreating(false);
            setRevoked(null);
            setCreated(c);
          }}
        />
      )}
      {revoked && <Notice title={revoked} className="section-gap" />}
      {isPending && <LoadingBlock label="Loading API keys…" rows={3} />}
      {error && (
        <ErrorNotice
          error={error}
          action={
            <Button size="sm" busy={isRefetching} onClick={() => void refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {keys && keys.length === 0 && !creating && (
        <EmptyState icon="key" title="No API keys yet">
          Scripts send a key as <code>Authorization: Bearer pw_…</code>. Each key has its own role,
          never above yours, and can expire.
        </EmptyState>
      )}
      {keys && keys.length > 0 && (
        <div className="dtable-wrap">
          <table className="dtable ktable">
            <caption className="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Role</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <ApiKeyRow
                  key={k.id}
                  apiKey={k}
                  onRevoke={(key) => {
                    revoke.reset();
                    setRevoking(key);
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        tone="danger"
        busy={revoke.isPending}
        error={revoke.error ? <ErrorNotice error={revoke.error} /> : undefined}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (!revoking) return;
          const { id, name } = revoking;
          revoke.mutate(id, {
            onSuccess: () => {
              setRevoking(null);
              setRevoked(`Revoked “${name}”. Requests with it are refused from now on.`);
            },
          });
        }}
      >
        Anything using {revoking?.prefix}… is refused from now on. This cannot be undone; create a
        new key if you need one.
      </ConfirmDialog>
    </>
  );
}
