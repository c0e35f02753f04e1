import type { TotpEnrolment } from '@pagewatch/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { useTotpEnrol } from '../api/mutations';
import { useMe } from '../api/session';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpDisableForm } from './TotpDisableForm';
import { TotpEnrol } from './TotpEnrol';

type Stage =
  | { kind: 'idle'; note: string | null }
  | { kind: 'enrolling'; enrolment: TotpEnrolment }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disabling' };

/** Two-factor sign-in: turn it on (QR, key, code, recovery codes) or off (password + code). */
export function TwoFactorPanel() {
  const me = useMe();
  const enrol = useTotpEnrol();
  const [stage, setStage] = useState<Stage>({ kind: 'idle', note: null });
  const idle = (note: string | null = null) => setStage({ kind: 'idle', note });

  let body;
  if (stage.kind === 'codes') {
    // Kept here, not derived from the session: the refreshed session must not hide them.
    body = <RecoveryCodes codes={stage.codes} email={me.email} onDone={() => idle()} />;
  } else if (stage.kind === 'enrolling') {
    body = (
      <TotpEnrol
        enrolment={stage.enrolment}
        onConfirmed={(codes) => setStage({ kind: 'codes', codes })}
        onCancel={() => idle()}
      />
    );
  } else if (stage.kind === 'disabling') {
    body = (
      <TotpDisableForm
        onDone={() => idle('Two-factor sign-in is off. Your password alone now signs you in.')}
        onCancel={() => idle()}
      />
    );
  } else {
    body = (
      <>
        {stage.note && <Notice live title={stage.note} />}
        {enrol.error && <ErrorNotice error={enrol.error} />}
        <div className="button-row">
          {me.totpEnabled ? (
            <Button variant="danger" onClick={() => setStage({ kind: 'disabling' })}>
              Turn off two-factor
            </Button>
          ) : (
            <Button
              variant="primary"
              icon="smartphone"
              busy={enrol.isPending}
              onClick={() =>
                enrol.mutate(undefined, {
                  onSuccess: (enrolment) => setStage({ kind: 'enrolling', enrolment }),
                })
              }
            >
              Set up two-factor
            </Button>
          )}
        </div>
      </>
    );
  }

  return (
    <section className="panel" aria-labelledby="totp-title">
      <div className="panel__head">
        <h3 id="totp-title" className="panel__title">
          Two-factor sign-in
        </h3>
        <span className={`pill ${me.totpEnabled ? 'pill--on' : ''}`}>
          <Icon name={me.totpEnabled ? 'lock' : 'circle'} size={12} />
          {me.totpEnabled ? 'On' : 'Off'}
        </span>
      </div>
      <p className="panel__intro">
        {me.totpEnabled
          ? 'Signing in needs your password and a code from your authenticator app.'
          : 'Ask for a code from an authenticator app after your password, so a leaked password alone cannot sign in.'}
      </p>
      {body}
    </section>
  );
}
