import type { MonitorInput } from '@pagewatch/contract';
import type { MonitorRecord } from '../../domain/monitor.js';
import type { SecretBox } from '../../lib/crypto.js';
import { validationFailed } from '../../lib/errors.js';

export interface SealedDefinition {
  /** The input with the credential taken out of its settings. */
  input: MonitorInput;
  /** The credential sealed with the instance key; null when there is none. */
  secret: string | null;
  /** A new credential was given (for the audit log, which never sees the value). */
  secretChanged: boolean;
}

/**
 * Takes the write-only credential (basic password, bearer token) out of an input and seals it.
 * Omitted on an update of the same auth kind, the stored one is kept; a basic password left
 * out otherwise is empty (some APIs use the user name alone), a bearer token is required.
 */
export function sealCredentials(
  input: MonitorInput,
  before: MonitorRecord | null,
  box: SecretBox,
): SealedDefinition {
  if (input.type !== 'http') return { input, secret: null, secretChanged: false };
  const { auth } = input;
  const previous =
    before?.type === 'http' ? (before.settings as { auth?: { kind: string } }).auth : undefined;
  const kept = previous?.kind === auth.kind ? (before?.secret ?? null) : null;
  if (auth.kind === 'none') {
    return { input, secret: null, secretChanged: before?.secret != null };
  }
  if (auth.kind === 'basic') {
    const { password, ...rest } = auth;
    const stripped = { ...input, auth: rest };
    if (password === undefined) return { input: stripped, secret: kept, secretChanged: false };
    return {
      input: stripped,
      secret: password === '' ? null : box.seal(password),
      secretChanged: true,
    };
  }
  const { token, ...rest } = auth;
  const stripped = { ...input, auth: rest };
  if (token !== undefined) return { input: stripped, secret: box.seal(token), secretChanged: true };
  if (kept === null) {
    throw validationFailed([{ path: 'auth.token', message: 'Enter the token', code: 'custom' }]);
  }
  return { input: stripped, secret: kept, secretChanged: false };
}
