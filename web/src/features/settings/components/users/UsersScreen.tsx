import type { InvitationSent, User } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { plural } from '../../../../lib/format';
import { useMe } from '../../../auth/api/session';
import { aRole, rolesUpTo } from '../../../auth/roles';
import { usersQuery } from '../../api/users';
import { countActiveOwners, userControls } from '../../user-rules';
import { CreateUserForm } from './CreateUserForm';
import { InvitationSentNotice } from './InvitationSentNotice';
import { InvitationsPanel } from './InvitationsPanel';
import { InviteForm } from './InviteForm';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { UserRow } from './UserRow';

/** Everyone with an account: roles, status, and the changes the signed-in manager may make. */
export function UsersScreen() {
  const me = useMe();
  const { data, error, isPending, refetch, isRefetching } = useQuery(usersQuery());
  const [creating, setCreating] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [sent, setSent] = useState<InvitationSent | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), 8000);
    return () => clearTimeout(timer);
  }, [message]);

  const users = data?.items;
  const owners = users ? countActiveOwners(users) : 0;
  return (
    <>
      <div className="settings-head">
        <div>
          <h2 className="settings-title">Users</h2>
          {users && (
            <p className="page-sub">
              {plural(users.length, 'person', 'people')} ·{' '}
              {me.role === 'owner'
                ? 'you can give any role'
                : `you can give roles up to ${me.role}; only owners manage owners`}
            </p>
          )}
        </div>
        {!creating && !inviting && (
          <div className="button-row">
            <Button
              variant="primary"
              icon="plus"
              onClick={() => {
                setSent(null);
                setInviting(true);
              }}
            >
              Invite
            </Button>
            <Button onClick={() => setCreating(true)}>Add user</Button>
          </div>
        )}
      </div>
      <p className="visually-hidden" role="status">
        {message ?? ''}
      </p>
      {message && <Notice title={message} className="section-gap" />}
      {inviting && (
        <InviteForm
          roles={rolesUpTo(me.role)}
          onCancel={() => setInviting(false)}
          onSent={(s) => {
            setInviting(false);
            setSent(s);
          }}
        />
      )}
      {sent && <InvitationSentNotice sent={sent} />}
      <InvitationsPanel onSent={setSent} />
      {creating && (
        <CreateUserForm
          roles={rolesUpTo(me.role)}
          onCancel={() => setCreating(false)}
          onCreated={(u) => {
            setCreating(false);
            setMessage(`Added ${u.name} as ${aRole(u.role)}. Give them their password privately.`);
          }}
        />
      )}
      {isPending && <LoadingBlock label="Loading users…" rows={4} />}
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
      {users && (
        <div className="dtable-wrap">
          <table className="dtable utable">
            <caption className="visually-hidden">Users</caption>
            <thead>
              <tr>
                <th scope="col">Person</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Two-factor</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <UserRow
                  key={u.id}
                  user={u}
                  isMe={u.id === me.id}
                  controls={userControls(me, u, owners)}
                  onResetPassword={setResetting}
                  onMessage={setMessage}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {resetting && (
        <ResetPasswordDialog
          user={resetting}
          onCancel={() => setResetting(null)}
          onDone={() => {
            setMessage(`New password set for ${resetting.name}; they were signed out everywhere.`);
            setResetting(null);
          }}
        />
      )}
    </>
  );
}
