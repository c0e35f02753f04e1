import type { RetentionSettings, Settings, SettingsUpdate } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { getSettings, settingsOf } from './read.js';
import type { SettingsValues } from './store.js';

const retentionLabels: Record<keyof RetentionSettings, string> = {
  rawDays: 'raw check results',
  minuteRollupDays: 'minute rollups',
  hourRollupDays: 'hour rollups',
  dayRollupDays: 'day rollups',
};

const days = (v: number | null) => (v === null ? 'forever' : `${v} days`);

/** "raw check results 30 days → 14 days, …" for the audit log; never a secret. */
function describe(before: SettingsValues, after: SettingsUpdate): string[] {
  const changes: string[] = [];
  if (after.general) {
    for (const key of ['instanceName', 'timeZone'] as const) {
      if (after.general[key] !== before.general[key])
        changes.push(
          `${key === 'instanceName' ? 'name' : 'time zone'} "${before.general[key]}" → "${after.general[key]}"`,
        );
    }
  }
  if (after.retention) {
    for (const key of Object.keys(retentionLabels) as (keyof RetentionSettings)[]) {
      if (after.retention[key] !== before.retention[key])
        changes.push(
          `${retentionLabels[key]} ${days(before.retention[key])} → ${days(after.retention[key])}`,
        );
    }
  }
  if (after.mail && after.mail.systemChannelId !== before.mail.systemChannelId)
    changes.push(
      `system mail channel ${before.mail.systemChannelId ?? 'none'} → ${after.mail.systemChannelId ?? 'none'}`,
    );
  if (after.security && after.security.requireSecondFactor !== before.security.requireSecondFactor)
    changes.push(
      after.security.requireSecondFactor
        ? 'a second factor is now required for every account'
        : 'a second factor is no longer required',
    );
  return changes;
}

/** The system mail channel must be an email channel that exists (ADR 34). */
async function checkMailChannel(deps: ServiceDeps, input: SettingsUpdate): Promise<void> {
  const id = input.mail?.systemChannelId;
  if (id === undefined || id === null) return;
  const channel = await deps.repos.notificationChannels.findById(id);
  if (!channel || channel.kind !== 'email')
    throw validationFailed([
      {
        path: 'mail.systemChannelId',
        message: 'Choose an email notification channel',
        code: 'not_email',
      },
    ]);
}

/** Replaces the groups sent; one audit line lists what changed. */
export async function updateSettings(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: SettingsUpdate,
): Promise<Settings> {
  await checkMailChannel(deps, input);
  const store = settingsOf(deps);
  const before = await store.all();
  const groups = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  await deps.repos.settings.put(groups, deps.clock.now());
  store.invalidate();
  const changes = describe(before, input);
  if (changes.length > 0)
    await audit(
      deps,
      ctx,
      'settings.updated',
      { type: 'settings', id: Object.keys(groups).join(',') },
      `Settings: ${changes.join('; ')}`,
    );
  return getSettings(deps);
}
