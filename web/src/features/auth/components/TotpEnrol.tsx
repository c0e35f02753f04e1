import { TotpConfirm, type TotpEnrolment } from '@pagewatch/contract';
import { Button } from '../../../components/ui/Button';
import { CopyButton } from '../../../components/ui/CopyButton';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useTotpConfirm } from '../api/mutations';
import { leaveScreen, useLeaveGuard } from '../../../lib/leave-guard';

const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');
const toInput = (v: { code: string }) => ({ code: v.code.replace(/\s/g, '') });

/** Scan (or type) the secret into an authenticator app, then prove it with one code. */
export function TotpEnrol({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const confirm = useTotpConfirm();
  const form = useSchemaForm({ initial: { code: '' }, schema: TotpConfirm, toInput });
  const leave = useLeaveGuard(form.dirty);
  // The QR code is the server's SVG as an image: markup from elsewhere never enters the DOM.
  const qr = `data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qrSvg)}`;
  const otherError =
    confirm.error && !(isApiError(confirm.error) && confirm.error.fieldErrors.length)
      ? confirm.error
      : null;
  return (
    <div className="enrol">
      <ol className="enrol__steps">
        <li className="enrol__step">
          <h4 className="enrol__title">Scan this QR code with your authenticator app</h4>
          <p className="muted">
            Any TOTP app works: 1Password, Bitwarden, Google Authenticator, Authy, Aegis…
          </p>
          <img
            className="enrol__qr"
            src={qr}
            width={176}
            height={176}
            alt="QR code to add Pagewatch to an authenticator app"
          />
        </li>
        <li className="enrol__step">
          <h4 className="enrol__title">Or type the setup key</h4>
          <p className="muted">Choose “time-based”, 6 digits, every 30 seconds.</p>
          <div className="secret-row">
            <code className="secret" aria-label="Setup key" data-secret={enrolment.secret}>
              {grouped(enrolment.secret)}
            </code>
            <CopyButton text={enrolment.secret} label="Copy key" size="sm" />
          </div>
        </li>
        <li className="enrol__step">
          <h4 className="enrol__title">Enter the code the app shows</h4>
          <form
            ref={form.formRef}
            className="inline-form"
            noValidate
            onBlur={form.onBlur}
            onSubmit={form.handleSubmit((input) =>
              confirm.mutate(input.code, {
                onSuccess: (r) => {
                  leave.allowLeave();
                  onConfirmed(r.recoveryCodes);
                },
                onError: (e) => form.showServerErrors(e),
              }),
            )}
          >
            {leave.guard}
            <Field name="code" label="6-digit code" error={form.errorFor('code')}>
              {(p) => (
                <input
                  {...p}
                  className="input input--code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  {...form.bind('code')}
                />
              )}
            </Field>
            <div className="button-row">
              <Button type="submit" variant="primary" busy={confirm.isPending}>
                Turn on two-factor
              </Button>
              <Button variant="ghost" onClick={() => leaveScreen(onCancel)}>
                Cancel
              </Button>
            </div>
          </form>
          {otherError && <ErrorNotice error={otherError} />}
        </li>
      </ol>
    </div>
  );
}
