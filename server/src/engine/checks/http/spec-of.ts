import { settingsOf, type MonitorRecord } from '../../../domain/monitor.js';
import { openHeaders, openStoredSecret, type SecretOpener } from '../stored-secret.js';
import { sentSecrets } from '../redact-secrets.js';
import type { HttpAuth, HttpCheckSpec } from './index.js';

export interface SpecOptions {
  extraCa?: string[];
  openSecret?: SecretOpener;
}

/** The stored credential, opened for one check; throws when it cannot be decrypted. */
function openAuth(
  m: MonitorRecord,
  stored: { kind: string; username?: string },
  options: SpecOptions,
): HttpAuth {
  const secret = (): string => openStoredSecret(m, options.openSecret);
  if (stored.kind === 'basic')
    return { kind: 'basic', username: stored.username ?? '', password: secret() };
  if (stored.kind === 'bearer') return { kind: 'bearer', token: secret() };
  return { kind: 'none' };
}

/** An HTTP monitor as its check runs it: settings, deadline, credential and headers opened. */
export function httpSpecOf(m: MonitorRecord, options: SpecOptions): HttpCheckSpec {
  const settings = settingsOf(m, 'http');
  return {
    ...settings,
    headers: openHeaders(m, settings.headers, options.openSecret),
    auth: openAuth(m, settings.auth, options),
    timeoutMs: m.timeout * 1000,
    degradedThresholdMs: m.degradedThresholdMs,
    ...(options.extraCa ? { ca: options.extraCa } : {}),
  };
}

/** What the check sends that its results must not repeat (an echoing target). */
export function httpSecretsOf(m: MonitorRecord, spec: HttpCheckSpec): string[] {
  const { auth } = spec;
  const credential =
    auth.kind === 'basic'
      ? { username: auth.username, secret: auth.password }
      : auth.kind === 'bearer'
        ? { secret: auth.token }
        : null;
  return sentSecrets(settingsOf(m, 'http').headers, spec.headers, credential);
}
