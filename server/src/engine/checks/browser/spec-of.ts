import { settingsOf, type MonitorRecord } from '../../../domain/monitor.js';
import { openStoredSecret, type SecretOpener } from '../stored-secret.js';
import type { BrowserCheckSpec } from './run.js';

/**
 * A browser monitor as its check runs it, the basic-auth password opened from the sealed
 * column. Monitors saved before passwords were sealed hold it in their settings; it is used
 * as is until the next save seals it. Throws when the sealed password will not open.
 */
export function browserSpecOf(m: MonitorRecord, openSecret?: SecretOpener): BrowserCheckSpec {
  const { basicAuth, ...settings } = settingsOf(m, 'browser');
  const legacy = basicAuth?.password ?? '';
  return {
    ...settings,
    basicAuth: basicAuth
      ? {
          username: basicAuth.username,
          password: m.secret == null ? legacy : openStoredSecret(m, openSecret),
        }
      : null,
    timeoutMs: m.timeout * 1000,
    degradedThresholdMs: m.degradedThresholdMs,
  };
}
