import '../../../../styles/passkeys.css';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { Button } from '../../../../components/ui/Button';
import { Notice } from '../../../../components/ui/Notice';
import { describeSignInError } from '../../sign-in-errors';
import { describePasskeyError, usePasskeySignIn } from './api';

/**
 * "Sign in with a passkey" under the password form: a discoverable credential names its
 * account, so no email is typed. Not offered where the browser has no WebAuthn.
 */
export function PasskeySignIn() {
  const signIn = usePasskeySignIn();
  if (!browserSupportsWebAuthn()) return null;
  const browserError = describePasskeyError(signIn.error);
  return (
    <div className="passkey-sign-in">
      <p className="passkey-sign-in__or" aria-hidden="true">
        or
      </p>
      <Button
        icon="key"
        className="auth-submit"
        busy={signIn.isPending}
        onClick={() => signIn.mutate()}
      >
        Sign in with a passkey
      </Button>
      {browserError ? (
        <Notice tone="warning" live title={browserError.title}>
          {browserError.detail}
        </Notice>
      ) : (
        signIn.error && (
          <Notice tone="danger" live title={describeSignInError(signIn.error).title}>
            {describeSignInError(signIn.error).detail || undefined}
          </Notice>
        )
      )}
    </div>
  );
}
