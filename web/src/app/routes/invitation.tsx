import '../../styles/account.css';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router';
import { ErrorNotice } from '../../components/ui/Notice';
import { invitationQuery, linkProblemOf, tokenFromHash } from '../../features/auth/api/links';
import { meQuery } from '../../features/auth/api/queries';
import { AuthShell } from '../../features/auth/components/AuthShell';
import { Booting } from '../../features/auth/components/Boot';
import { AcceptInvitationForm } from '../../features/auth/components/links/AcceptInvitationForm';
import { LinkProblemNotice } from '../../features/auth/components/links/LinkProblemNotice';
import { roleLabel } from '../../features/auth/roles';

function Invitation() {
  const token = tokenFromHash(useLocation().hash);
  const link = useQuery({ ...invitationQuery(token), enabled: token !== '' });
  const me = useQuery(meQuery()).data?.user;
  const problem = token === '' ? 'invalid' : linkProblemOf(link.error);
  // Accepting signs in: then on to the dashboard.
  if (me && link.data && me.email === link.data.email) return <Navigate to="/" replace />;
  if (token !== '' && link.isPending) return <Booting />;
  return (
    <AuthShell
      title={link.data ? `Join as ${roleLabel[link.data.role].toLowerCase()}` : 'Invitation'}
      intro={
        link.data ? (
          <>
            <strong>{link.data.invitedBy}</strong> invited <strong>{link.data.email}</strong>.
            Choose your name and a password.
          </>
        ) : undefined
      }
    >
      <title>Invitation · Pagewatch</title>
      {problem ? (
        <LinkProblemNotice
          problem={problem}
          then="Ask whoever invited you to send the invitation again."
          next={{ to: '/login', label: 'Go to sign in' }}
        />
      ) : link.data ? (
        <AcceptInvitationForm token={token} invitation={link.data} />
      ) : (
        <ErrorNotice error={link.error} />
      )}
    </AuthShell>
  );
}

export { Invitation as Component };
