import type { Settings } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { useLeaveGuard } from '../../../../lib/leave-guard';
import { settingsQuery, useUpdateSettings } from '../../api/settings';

/** Settings → Security → "Require a second factor for every account" (ADR 51). */
function SecondFactorPolicy({ settings }: { settings: Settings }) {
  const save = useUpdateSettings();
  const current = settings.security.requireSecondFactor;
  const [on, setOn] = useState(current);
  const [saved, setSaved] = useState(false);
  const leave = useLeaveGuard(on !== current);
  return (
    <form
      className="panel stack-form"
      aria-labelledby="second-factor-policy-title"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        save.mutate({ security: { requireSecondFactor: on } }, { onSuccess: () => setSaved(true) });
      }}
    >
      {leave.guard}
      <h3 id="second-factor-policy-title" className="panel__title">
        Second factor
      </h3>
      <label className="check-row">
        <input
          type="checkbox"
          checked={on}
          onChange={(e) => {
            setOn(e.target.checked);
            setSaved(false);
          }}
        />
        <span>Require a second factor for every account</span>
      </label>
      <p className="setting-note">
        People without a passkey or an authenticator app are sent to set one up right after they
        sign in, and can use nothing else until they do. API keys are not affected. Those signed in
        now are asked at their next request.
      </p>
      {save.error && <ErrorNotice error={save.error} />}
      {saved && <Notice live title="Saved" />}
      <div className="button-row">
        <Button type="submit" variant="primary" busy={save.isPending} disabled={on === current}>
          Save
        </Button>
      </div>
    </form>
  );
}

export function SecurityScreen() {
  const settings = useQuery(settingsQuery());
  return (
    <>
      <h2 className="settings-title">Security</h2>
      {settings.error && <ErrorNotice error={settings.error} />}
      {settings.isPending && <LoadingBlock />}
      {settings.data && <SecondFactorPolicy settings={settings.data} />}
    </>
  );
}
