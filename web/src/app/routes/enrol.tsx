import '../../styles/account.css';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useSearchParams } from 'react-router';
import { ButtonLink } from '../../components/ui/Button';
import { Notice } from '../../components/ui/Notice';
import { meQuery } from '../../features/auth/api/queries';
import { MeContext } from '../../features/auth/api/session';
import { AuthShell } from '../../features/auth/components/AuthShell';
import { Booting } from '../../features/auth/components/Boot';
import { PasskeysPanel } from '../../features/auth/components/passkeys/PasskeysPanel';
import { TwoFactorPanel } from '../../features/auth/components/TwoFactorPanel';
import { useLogout } from '../../features/auth/api/mutations';
import { safeNext } from '../../features/auth/next-path';

/**
 * The enrol-required screen (ADR 51): the policy asks for a second factor this person has not
 * set up; nothing else of the app answers them until they add a passkey or a TOTP app.
 */
function Enrol() {
  const me = useQuery(meQuery());
  const [params] = useSearchParams();
  const logout = useLogout();
  const next = safeNext(params.get('next'));
  if (me.isPending) return <Booting />;
  if (!me.data) return <Navigate to="/login" replace />;
  const done = !me.data.user.secondFactorRequired;
  return (
    <AuthShell
      title="Set up a second factor"
      intro={
        <>
          Your administrator requires a second factor for every account. Add a passkey or an
          authenticator app to <strong>{me.data.user.email}</strong> to continue.
        </>
      }
    >
      <title>Set up a second factor · Pagewatch</title>
      <MeContext value={me.data.user}>
        <div className="enrol-panels">
          {done && (
            <Notice live title="Your account has a second factor now">
              <ButtonLink to={next} variant="primary">
                Continue to Pagewatch
              </ButtonLink>
            </Notice>
          )}
          <PasskeysPanel />
          <TwoFactorPanel />
        </div>
      </MeContext>
      <div className="auth-links">
        <button
          type="button"
          className="link-button"
          onClick={() => logout.mutate(false)}
          disabled={logout.isPending}
        >
          Sign out
        </button>
      </div>
    </AuthShell>
  );
}

export { Enrol as Component };
