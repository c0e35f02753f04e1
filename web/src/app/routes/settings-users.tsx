import { RequireRole } from '../../features/auth/components/RequireRole';
import { UsersScreen } from '../../features/settings/components/users/UsersScreen';

function Users() {
  return (
    <RequireRole role="admin" doing="Managing people">
      <title>Users · Settings · Pagewatch</title>
      <UsersScreen />
    </RequireRole>
  );
}

export { Users as Component };
