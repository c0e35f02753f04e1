import { LoginTotpInput, TotpCode } from '@pagewatch/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { Notice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useLoginTotp } from '../api/mutations';
import { challengeExpired, describeSignInError } from '../sign-in-errors';

type Mode = 'totp' | 'recovery';

const codeCheck = (mode: Mode) => (v: { code: string }) => {
  if (mode === 'recovery') return {};
  const parsed = TotpCode.safeParse(v.code.replace(/\s/g, ''));
  return parsed.success
    ? {}
    : { code: parsed.error.issues[0]?.message ?? 'Enter the 6-digit code' };
};

interface TotpStepProps {
  challenge: string;
  /** The password step must be done again: the challenge expired or was used up. */
  onRestart: (reason: string | null) => void;
  /** The account has passkeys but no TOTP app: only a recovery code can be typed. */
  recoveryOnly?: boolean;
}

/** Step two: a code from the authenticator app, or one of the recovery codes. */
export function TotpStep({ challenge, onRestart, recoveryOnly = false }: TotpStepProps) {
  const [mode, setMode] = useState<Mode>(recoveryOnly ? 'recovery' : 'totp');
  const verify = useLoginTotp();
  const form = useSchemaForm({
    initial: { code: '' },
    schema: LoginTotpInput,
    toInput: (v: { code: string }) => ({
      challenge,
      code: mode === 'totp' ? v.code.replace(/\s/g, '') : v.code.trim(),
    }),
    check: codeCheck(mode),
  });
  const switchMode = () => {
    setMode((m) => (m === 'totp' ? 'recovery' : 'totp'));
    form.reset();
    verify.reset();
  };
  const otherError =
    verify.error && !(isApiError(verify.error) && verify.error.kind === 'unauthenticated')
      ? describeSignInError(verify.error)
      : null;

  return (
    <form
      ref={form.formRef}
      className="auth-form"
      noValidate
      onBlur={form.onBlur}
      onSubmit={form.handleSubmit((input) =>
        verify.mutate(input, {
          onError: (e) => {
            if (challengeExpired(e)) onRestart(isApiError(e) ? (e.detail ?? null) : null);
            else if (isApiError(e) && e.kind === 'unauthenticated')
              form.setFieldError('code', e.detail ?? 'That code is not valid');
          },
        }),
      )}
    >
      {mode === 'totp' ? (
        <Field
          key="totp"
          name="code"
          label="6-digit code"
          hint="Open your authenticator app and enter the code it shows for Pagewatch."
          error={form.errorFor('code')}
        >
          {(p) => (
            <input
              {...p}
              className="input input--code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]*"
              maxLength={7}
              autoFocus
              {...form.bind('code')}
            />
          )}
        </Field>
      ) : (
        <Field
          key="recovery"
          name="code"
          label="Recovery code"
          hint={
            recoveryOnly
              ? 'Lost your passkey? Enter one of the ten codes you saved when you added your first passkey, like k3f9-x2pq-7wme. Each works once.'
              : 'One of the ten codes you saved when you turned on two-factor, like k3f9-x2pq-7wme. Each works once.'
          }
          error={form.errorFor('code')}
        >
          {(p) => (
            <input
              {...p}
              className="input mono"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              {...form.bind('code')}
            />
          )}
        </Field>
      )}
      {otherError && (
        <Notice tone="danger" live title={otherError.title}>
          {otherError.detail || undefined}
        </Notice>
      )}
      <Button type="submit" variant="primary" className="auth-submit" busy={verify.isPending}>
        Verify and sign in
      </Button>
      <div className="auth-links">
        {!recoveryOnly && (
          <button type="button" className="link-button" onClick={switchMode}>
            {mode === 'totp' ? 'Use a recovery code instead' : 'Use a code from your app instead'}
          </button>
        )}
        <button type="button" className="link-button" onClick={() => onRestart(null)}>
          Start over
        </button>
      </div>
    </form>
  );
}
