import '../../styles/account.css';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { ErrorNotice } from '../../components/ui/Notice';
import { linkProblemOf, resetLinkQuery, tokenFromHash } from '../../features/auth/api/links';
import { AuthShell } from '../../features/auth/components/AuthShell';
import { Booting } from '../../features/auth/components/Boot';
import { LinkProblemNotice } from '../../features/auth/components/links/LinkProblemNotice';
import { ResetPasswordForm } from '../../features/auth/components/links/ResetPasswordForm';

function ResetPassword() {
  const token = tokenFromHash(useLocation().hash);
  const link = useQuery({ ...resetLinkQuery(token), enabled: token !== '' });
  const problem = token === '' ? 'invalid' : linkProblemOf(link.error);
  if (token !== '' && link.isPending) return <Booting />;
  return (
    <AuthShell
      title="Choose a new password"
      intro={
        link.data ? (
          <>
            For <strong>{link.data.email}</strong>. Every session of this account is signed out.
          </>
        ) : undefined
      }
    >
      <title>Reset password · Pagewatch</title>
      {problem ? (
        <LinkProblemNotice
          problem={problem}
          then="Ask for a new link."
          next={{ to: '/forgot-password', label: 'Ask for a new link' }}
        />
      ) : link.data ? (
        <ResetPasswordForm token={token} email={link.data.email} />
      ) : (
        <ErrorNotice error={link.error} />
      )}
    </AuthShell>
  );
}

export { ResetPassword as Component };
