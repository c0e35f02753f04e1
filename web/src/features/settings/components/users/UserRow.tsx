import type { Role, User } from '@pagewatch/contract';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { ConfirmDialog } from '../../../../components/ui/ConfirmDialog';
import { Icon } from '../../../../components/ui/Icon';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { RelativeTime } from '../../../../components/ui/RelativeTime';
import { aRole, describeRole, roleLabel } from '../../../auth/roles';
import { useDeleteUser, useUpdateUser } from '../../api/users';
import type { UserControls } from '../../user-rules';

interface UserRowProps {
  user: User;
  isMe: boolean;
  controls: UserControls;
  onResetPassword: (user: User) => void;
  onMessage: (message: string) => void;
}

/** One account: its role, status and the changes this manager may make to it. */
export function UserRow({ user, isMe, controls: c, onResetPassword, onMessage }: UserRowProps) {
  const update = useUpdateUser(user.id);
  const [newRole, setNewRole] = useState<Role | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteUser(user.id);
  const reason = c.locked ?? c.limited;
  const close = () => {
    setNewRole(null);
    setDisabling(false);
  };
  const change = (body: { role?: Role; disabled?: boolean }, message: string) =>
    update.mutate(body, {
      onSuccess: () => {
        close();
        onMessage(message);
      },
    });

  return (
    <tr className="urow" data-testid="user-row" data-email={user.email}>
      <td className="urow__person">
        <span className="urow__name">
          {user.name}
          {isMe && <span className="muted"> (you)</span>}
        </span>
        <span className="urow__email">{user.email}</span>
      </td>
      <td className="urow__role" data-label="Role">
        {c.canChangeRole ? (
          <select
            className="input select input--sm"
            aria-label={`Role of ${user.name}`}
            value={user.role}
            disabled={update.isPending}
            onChange={(e) => {
              update.reset();
              setNewRole(e.target.value as Role);
            }}
          >
            {c.roleOptions.map((r) => (
              <option key={r} value={r}>
                {roleLabel[r]}
              </option>
            ))}
          </select>
        ) : (
          <span className={`role role--${user.role}`}>{roleLabel[user.role]}</span>
        )}
      </td>
      <td className="urow__status" data-label="Status">
        <span className={`pill ${user.disabled ? 'pill--off' : 'pill--on'}`}>
          <Icon name={user.disabled ? 'xCircle' : 'checkCircle'} size={12} />
          {user.disabled ? 'Disabled' : 'Active'}
        </span>
      </td>
      <td className="urow__totp" data-label="Two-factor">
        {user.totpEnabled ? 'On' : <span className="muted">Off</span>}
      </td>
      <td className="urow__seen" data-label="Last sign-in">
        <RelativeTime iso={user.lastLoginAt} />
      </td>
      <td className="urow__actions">
        {!c.locked && (
          <div className="urow__buttons">
            {user.disabled ? (
              <Button
                size="sm"
                busy={update.isPending && !disabling}
                onClick={() => change({ disabled: false }, `${user.name} can sign in again.`)}
              >
                Enable
              </Button>
            ) : (
              <Button
                size="sm"
                variant="danger"
                disabled={!c.canDisable}
                onClick={() => {
                  update.reset();
                  setDisabling(true);
                }}
              >
                Disable
              </Button>
            )}
            <Button size="sm" disabled={!c.canResetPassword} onClick={() => onResetPassword(user)}>
              Reset password
            </Button>
            <Button
              size="sm"
              variant="danger"
              icon="trash"
              disabled={!c.canDisable}
              aria-label={`Delete ${user.name}`}
              onClick={() => {
                remove.reset();
                setDeleting(true);
              }}
            >
              Delete
            </Button>
          </div>
        )}
        {reason && <p className="urow__reason">{reason}</p>}
        {update.error && !newRole && !disabling && (
          <ErrorNotice error={update.error} className="urow__error" />
        )}
        <ConfirmDialog
          open={newRole !== null}
          title={newRole ? `Make ${user.name} ${aRole(newRole)}?` : ''}
          confirmLabel="Change role"
          busy={update.isPending}
          error={update.error ? <ErrorNotice error={update.error} /> : undefined}
          onCancel={close}
          onConfirm={() =>
            newRole && change({ role: newRole }, `${user.name} is now ${aRole(newRole)}.`)
          }
        >
          {newRole && `${describeRole(newRole)} `}
          They are signed out and sign in again with the new role.
        </ConfirmDialog>
        <ConfirmDialog
          open={disabling}
          title={`Disable ${user.name}?`}
          confirmLabel="Disable account"
          tone="danger"
          busy={update.isPending}
          error={update.error ? <ErrorNotice error={update.error} /> : undefined}
          onCancel={close}
          onConfirm={() =>
            change({ disabled: true }, `${user.name} is disabled and signed out everywhere.`)
          }
        >
          They are signed out everywhere and cannot sign in, and their API keys stop working, until
          you enable the account again.
        </ConfirmDialog>
        <ConfirmDialog
          open={deleting}
          title={`Delete ${user.name}?`}
          confirmLabel="Delete account"
          tone="danger"
          busy={remove.isPending}
          error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
          onCancel={() => setDeleting(false)}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                setDeleting(false);
                onMessage(`Deleted ${user.name}; their audit entries are kept.`);
              },
            })
          }
        >
          Their sessions and API keys end now and the account is gone. What they did stays in the
          audit log under their name.
        </ConfirmDialog>
      </td>
    </tr>
  );
}
