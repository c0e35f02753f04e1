import '../../styles/account.css';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { ButtonLink } from '../../components/ui/Button';
import { ErrorNotice, Notice } from '../../components/ui/Notice';
import { linkProblemOf, tokenFromHash, useConfirmEmail } from '../../features/auth/api/links';
import { AuthShell } from '../../features/auth/components/AuthShell';
import { Booting } from '../../features/auth/components/Boot';
import { LinkProblemNotice } from '../../features/auth/components/links/LinkProblemNotice';

function ConfirmEmail() {
  const token = tokenFromHash(useLocation().hash);
  const confirm = useConfirmEmail();
  const asked = useRef(false);
  useEffect(() => {
    // Once: a link is spent by its first use.
    if (asked.current || token === '') return;
    asked.current = true;
    confirm.mutate(token);
  }, [token, confirm]);
  const problem = token === '' ? 'invalid' : linkProblemOf(confirm.error);
  if (!problem && !confirm.data && !confirm.error) return <Booting />;
  return (
    <AuthShell title="Confirm your new email">
      <title>Confirm email · Pagewatch</title>
      {problem ? (
        <LinkProblemNotice
          problem={problem}
          then="Ask again from Settings → Account."
          next={{ to: '/settings/account', label: 'Go to Settings → Account' }}
        />
      ) : confirm.data ? (
        <div className="auth-form">
          <Notice live title="Email changed">
            Sign in with {confirm.data.email} from now on.
          </Notice>
          <ButtonLink variant="primary" className="auth-submit" to="/">
            Continue
          </ButtonLink>
        </div>
      ) : (
        <ErrorNotice error={confirm.error} />
      )}
    </AuthShell>
  );
}

export { ConfirmEmail as Component };
