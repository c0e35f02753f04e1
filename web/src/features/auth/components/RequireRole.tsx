import type { Role } from '@pagewatch/contract';
import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/ui/Button';
import { EmptyState } from '../../../components/ui/EmptyState';
import { useMe } from '../api/session';
import { aRole, atLeast } from '../roles';

interface RequireRoleProps {
  role: Role;
  /** What the screen does, completing "… needs the editor role": "Creating monitors". */
  doing: string;
  children: ReactNode;
}

/** A screen for some roles only: others get a plain explanation instead of a failing form. */
export function RequireRole({ role, doing, children }: RequireRoleProps) {
  const me = useMe();
  if (atLeast(me.role, role)) return <>{children}</>;
  return (
    <>
      <title>{`Needs the ${role} role · Pagewatch`}</title>
      <EmptyState
        icon="shield"
        title={`You need the ${role} role`}
        action={
          <ButtonLink to="/" variant="primary">
            Go to the dashboard
          </ButtonLink>
        }
      >
        {doing} needs the {role} role or higher; you are {aRole(me.role)}. Ask an admin or an owner
        if you need it.
      </EmptyState>
    </>
  );
}
