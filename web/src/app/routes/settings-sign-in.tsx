import '../../styles/instance-settings.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { SignInScreen } from '../../features/settings/components/sign-in/SignInScreen';

function SignIn() {
  return (
    <RequireRole role="admin" doing="Setting up single sign-on">
      <title>Sign-in · Settings · Pagewatch</title>
      <SignInScreen />
    </RequireRole>
  );
}

export { SignIn as Component };
