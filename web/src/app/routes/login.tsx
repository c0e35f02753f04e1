import '../../styles/account.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { meQuery } from '../../features/auth/api/queries';
import { forgetPersonalData } from '../../features/auth/api/session';
import { AuthShell } from '../../features/auth/components/AuthShell';
import { Booting } from '../../features/auth/components/Boot';
import { LoginForm } from '../../features/auth/components/LoginForm';
import { OidcSignIn } from '../../features/auth/components/oidc/OidcSignIn';
import { TotpStep } from '../../features/auth/components/TotpStep';
import { PasskeySignIn } from '../../features/auth/components/passkeys/PasskeySignIn';
import { PasskeyStep } from '../../features/auth/components/passkeys/PasskeyStep';
import { safeNext } from '../../features/auth/next-path';

type Step =
  | { kind: 'password'; email: string; notice: { title: string; detail?: string } | null }
  | { kind: 'totp'; email: string; challenge: string; methods: ('totp' | 'passkey')[] };

function Login() {
  const client = useQueryClient();
  const me = useQuery(meQuery());
  const [params] = useSearchParams();
  const location = useLocation();
  const ended = (location.state as { sessionEnded?: boolean } | null)?.sessionEnded === true;
  const [step, setStep] = useState<Step>({
    kind: 'password',
    email: '',
    notice: ended
      ? {
          title: 'Your session ended',
          detail: 'Perhaps you signed out on another device. Sign in again to continue.',
        }
      : null,
  });
  // Whoever was signed in before left their data in memory; nothing of it outlives sign-out.
  useEffect(() => forgetPersonalData(client), [client]);

  // Signed in (just now, or already): on to where the person was going.
  if (me.data) return <Navigate to={safeNext(params.get('next'))} replace />;
  if (me.isPending) return <Booting />;

  return step.kind === 'password' ? (
    <AuthShell title="Sign in">
      <title>Sign in · Pagewatch</title>
      <OidcSignIn />
      <LoginForm
        key="password"
        email={step.email}
        notice={step.notice}
        onTotpRequired={(challenge, email, methods) =>
          setStep({ kind: 'totp', email, challenge, methods })
        }
      />
      <PasskeySignIn />
    </AuthShell>
  ) : (
    <AuthShell
      title="Two-factor sign-in"
      intro={
        <>
          Signing in as <strong>{step.email}</strong>.
        </>
      }
    >
      <title>Two-factor sign-in · Pagewatch</title>
      {step.methods.includes('passkey') && (
        <PasskeyStep
          challenge={step.challenge}
          withCode={step.methods.includes('totp')}
          onRestart={(reason) =>
            setStep({
              kind: 'password',
              email: step.email,
              notice: reason ? { title: reason } : null,
            })
          }
        />
      )}
      <TotpStep
        recoveryOnly={!step.methods.includes('totp')}
        challenge={step.challenge}
        onRestart={(reason) =>
          setStep({
            kind: 'password',
            email: step.email,
            notice: reason ? { title: reason } : null,
          })
        }
      />
    </AuthShell>
  );
}

export { Login as Component };
