import '../../styles/account.css';
import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { authStatusQuery, meQuery } from '../../features/auth/api/queries';
import { AuthShell } from '../../features/auth/components/AuthShell';
import { SetupForm } from '../../features/auth/components/SetupForm';

function Setup() {
  const status = useQuery(authStatusQuery());
  const me = useQuery(meQuery());
  // Done: straight into the app after creating the owner here, to sign-in for anyone else.
  if (status.data?.setupRequired === false)
    return <Navigate to={me.data ? '/' : '/login'} replace />;
  return (
    <AuthShell
      title="Set up Pagewatch"
      intro="Create the owner account. The owner can do everything, including adding the rest of your team."
    >
      <title>Set up · Pagewatch</title>
      <SetupForm tokenRequired={status.data?.setupTokenRequired === true} />
    </AuthShell>
  );
}

export { Setup as Component };
