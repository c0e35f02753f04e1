import { settingsOf, type MonitorRecord } from '../../../domain/monitor.js';
import { openHeaders, openStoredSecret, type SecretOpener } from '../stored-secret.js';
import { sentSecrets } from '../redact-secrets.js';
import type { BrowserCheckSpec } from './run.js';

/**
 * A browser monitor as its check runs it, the basic-auth password and secret headers opened
 * from their sealed columns. Monitors saved before passwords were sealed hold it in their
 * settings; it is used as is until the next save seals it. Throws when a secret will not open.
 */
export function browserSpecOf(m: MonitorRecord, openSecret?: SecretOpener): BrowserCheckSpec {
  const { basicAuth, ...settings } = settingsOf(m, 'browser');
  const legacy = basicAuth?.password ?? '';
  return {
    ...settings,
    headers: openHeaders(m, settings.headers, openSecret),
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

/** What the check sends that its results must not repeat (an echoing page). */
export function browserSecretsOf(m: MonitorRecord, spec: BrowserCheckSpec): string[] {
  const auth = spec.basicAuth;
  const credential = auth && { username: auth.username, secret: auth.password };
  return sentSecrets(settingsOf(m, 'browser').headers, spec.headers, credential);
}
