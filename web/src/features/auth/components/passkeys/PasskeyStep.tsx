import '../../../../styles/passkeys.css';
import { Button } from '../../../../components/ui/Button';
import { Notice } from '../../../../components/ui/Notice';
import { challengeExpired, describeSignInError } from '../../sign-in-errors';
import { isApiError } from '../../../../lib/api';
import { describePasskeyError, usePasskeySecondFactor } from './api';

interface PasskeyStepProps {
  challenge: string;
  /** Whether a code can be typed instead (the account also has a TOTP app). */
  withCode: boolean;
  onRestart: (reason: string | null) => void;
}

/** Second step with a passkey instead of a code; recovery codes stay below it. */
export function PasskeyStep({ challenge, withCode, onRestart }: PasskeyStepProps) {
  const verify = usePasskeySecondFactor();
  const browserError = describePasskeyError(verify.error);
  return (
    <div className="passkey-step">
      <Button
        variant={withCode ? 'secondary' : 'primary'}
        icon="key"
        className="auth-submit"
        busy={verify.isPending}
        onClick={() =>
          verify.mutate(challenge, {
            onError: (e) => {
              if (challengeExpired(e)) onRestart(isApiError(e) ? (e.detail ?? null) : null);
            },
          })
        }
      >
        Use a passkey
      </Button>
      {browserError ? (
        <Notice tone="warning" live title={browserError.title}>
          {browserError.detail}
        </Notice>
      ) : (
        verify.error &&
        !challengeExpired(verify.error) && (
          <Notice tone="danger" live title={describeSignInError(verify.error).title}>
            {describeSignInError(verify.error).detail || undefined}
          </Notice>
        )
      )}
      <p className="passkey-sign-in__or" aria-hidden="true">
        or
      </p>
    </div>
  );
}
