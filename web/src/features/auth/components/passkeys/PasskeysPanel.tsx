import '../../../../styles/passkeys.css';
import type { Passkey } from '@pagewatch/contract';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { ConfirmDialog } from '../../../../components/ui/ConfirmDialog';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { formatDate, formatRelative } from '../../../../lib/format';
import { useMe } from '../../api/session';
import { RecoveryCodes } from '../RecoveryCodes';
import {
  describePasskeyError,
  passkeysQuery,
  useAddPasskey,
  useRemovePasskey,
  useRenamePasskey,
} from './api';

/** A name to start from: the kind of device this browser runs on. */
function suggestedName(): string {
  const ua = navigator.userAgent;
  if (/iPhone|Android.*Mobile/.test(ua)) return 'Phone';
  if (/iPad|Android/.test(ua)) return 'Tablet';
  if (/Mac/.test(ua)) return 'Mac';
  if (/Windows/.test(ua)) return 'Windows PC';
  return 'This device';
}

function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  const rename = useRenamePasskey();
  const [name, setName] = useState(passkey.name);
  return (
    <form
      className="passkey-rename"
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate({ id: passkey.id, name: name.trim() }, { onSuccess: onDone });
      }}
    >
      <label className="visually-hidden" htmlFor={`passkey-name-${passkey.id}`}>
        New name for {passkey.name}
      </label>
      <input
        id={`passkey-name-${passkey.id}`}
        className="input"
        value={name}
        maxLength={64}
        autoFocus
        onChange={(e) => setName(e.target.value)}
      />
      <Button type="submit" size="sm" variant="primary" busy={rename.isPending}>
        Save
      </Button>
      <Button size="sm" variant="ghost" onClick={onDone}>
        Cancel
      </Button>
      {rename.error && <ErrorNotice error={rename.error} />}
    </form>
  );
}

function PasskeyRow({ passkey, onRemove }: { passkey: Passkey; onRemove: () => void }) {
  const [renaming, setRenaming] = useState(false);
  return (
    <li className="passkey-row" data-testid="passkey-row">
      {renaming ? (
        <RenameForm passkey={passkey} onDone={() => setRenaming(false)} />
      ) : (
        <>
          <div className="passkey-row__main">
            <p className="passkey-row__name">{passkey.name}</p>
            <p className="passkey-row__meta">
              Added {formatDate(passkey.createdAt)} ·{' '}
              {passkey.lastUsedAt
                ? `last used ${formatRelative(passkey.lastUsedAt)}`
                : 'never used'}
              {passkey.backedUp ? ' · synced' : ''}
            </p>
          </div>
          <div className="button-row passkey-row__actions">
            <Button size="sm" variant="ghost" icon="edit" onClick={() => setRenaming(true)}>
              Rename<span className="visually-hidden"> {passkey.name}</span>
            </Button>
            <Button size="sm" variant="ghost" icon="trash" onClick={onRemove}>
              Remove<span className="visually-hidden"> {passkey.name}</span>
            </Button>
          </div>
        </>
      )}
    </li>
  );
}

/** My account → Passkeys: sign in without a password, or use one as the second factor. */
export function PasskeysPanel() {
  const me = useMe();
  const list = useQuery(passkeysQuery());
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState(suggestedName);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const supported = browserSupportsWebAuthn();
  const passkeys = list.data?.passkeys ?? [];
  const browserError = describePasskeyError(add.error);

  if (codes)
    return (
      <section className="panel" aria-labelledby="passkeys-title">
        <h3 id="passkeys-title" className="panel__title">
          Passkeys
        </h3>
        <Notice live title="Passkey added">
          Your account had no recovery codes: here are ten. Each signs you in once, instead of a
          passkey, should you lose it.
        </Notice>
        <RecoveryCodes codes={codes} email={me.email} onDone={() => setCodes(null)} />
      </section>
    );

  return (
    <section className="panel" aria-labelledby="passkeys-title">
      <div className="panel__head">
        <h3 id="passkeys-title" className="panel__title">
          Passkeys
        </h3>
      </div>
      <p className="panel__intro setting-note">
        A passkey signs you in with your fingerprint, face or device PIN instead of a password.
        After a password it also serves as the second factor.
      </p>
      {list.error && <ErrorNotice error={list.error} />}
      {passkeys.length > 0 && (
        <ul className="passkey-list" aria-label="Your passkeys">
          {passkeys.map((p) => (
            <PasskeyRow key={p.id} passkey={p} onRemove={() => setRemoving(p)} />
          ))}
        </ul>
      )}
      {list.data && passkeys.length === 0 && (
        <p className="setting-note passkey-none">No passkeys yet.</p>
      )}
      {note && <Notice live title={note} />}
      {!supported ? (
        <Notice tone="warning" title="This browser cannot create passkeys" />
      ) : (
        <form
          className="passkey-add"
          onSubmit={(e) => {
            e.preventDefault();
            setNote(null);
            add.mutate(name.trim() || suggestedName(), {
              onSuccess: (out) => {
                setName(suggestedName());
                if (out.recoveryCodes.length > 0) setCodes(out.recoveryCodes);
                else setNote(`Added “${out.passkey.name}”.`);
              },
            });
          }}
        >
          <Field name="passkeyName" label="Name for the new passkey">
            {(p) => (
              <input
                {...p}
                className="input"
                value={name}
                maxLength={64}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          <Button type="submit" variant="primary" icon="key" busy={add.isPending}>
            Add a passkey
          </Button>
        </form>
      )}
      {browserError ? (
        <Notice tone="warning" live title={browserError.title}>
          {browserError.detail}
        </Notice>
      ) : (
        add.error && <ErrorNotice error={add.error} />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove “${removing?.name ?? ''}”?`}
        confirmLabel="Remove passkey"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          const { id, name: removed } = removing;
          remove.mutate(id, {
            onSuccess: () => {
              setRemoving(null);
              setNote(`Removed “${removed}”. Also delete it from the device or password manager.`);
            },
          });
        }}
      >
        It will no longer sign you in. The copy on your device stays until you delete it there.
      </ConfirmDialog>
    </section>
  );
}
