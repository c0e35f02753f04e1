import '../../styles/account.css';
import { useSearchParams } from 'react-router';
import { AuthShell } from '../../features/auth/components/AuthShell';
import { ForgotPasswordForm } from '../../features/auth/components/links/ForgotPasswordForm';

function ForgotPassword() {
  const [params] = useSearchParams();
  return (
    <AuthShell
      title="Forgot your password?"
      intro="Enter the email you sign in with; we mail you a link to choose a new password."
    >
      <title>Forgot password · Pagewatch</title>
      <ForgotPasswordForm email={params.get('email') ?? ''} />
    </AuthShell>
  );
}

export { ForgotPassword as Component };
