import type { MonitorInput } from '@pagewatch/contract';
import type { MonitorRecord } from '../../domain/monitor.js';
import { hasPassword } from '../../domain/monitor-types.js';
import type { SecretBox } from '../../lib/crypto.js';
import { validationFailed } from '../../lib/errors.js';

export interface SealedDefinition {
  /** The input with the credential taken out of its settings. */
  input: MonitorInput;
  /** The credential sealed with the instance key; null when there is none. */
  secret: string | null;
  /** A new credential was given (for the audit log, which never sees the value). */
  secretChanged: boolean;
  /** The setting the credential belongs to, named in the audit log when it changed. */
  field: 'auth' | 'basicAuth' | 'password';
}

type Sealed = Omit<SealedDefinition, 'field'>;

/** A password as given: '' is none, undefined keeps what was stored before. */
function sealPassword(
  password: string | undefined,
  kept: string | null,
  box: SecretBox,
): Omit<Sealed, 'input'> {
  if (password === undefined) return { secret: kept, secretChanged: false };
  return { secret: password === '' ? null : box.seal(password), secretChanged: true };
}

/**
 * Takes the write-only credential (an HTTP basic password or bearer token, a browser
 * monitor's basic-auth password) out of an input and seals it. Omitted on an update of the
 * same auth kind, the stored one is kept; a basic password left out otherwise is empty (some
 * APIs use the user name alone), a bearer token is required.
 */
export function sealCredentials(
  input: MonitorInput,
  before: MonitorRecord | null,
  box: SecretBox,
): SealedDefinition {
  if (input.type === 'browser') return { ...sealBrowser(input, before, box), field: 'basicAuth' };
  if (hasPassword(input.type))
    return { ...sealPasswordField(input, before, box), field: 'password' };
  if (input.type !== 'http') return { input, secret: null, secretChanged: false, field: 'auth' };
  return { ...sealHttp(input, before, box), field: 'auth' };
}

function sealHttp(
  input: MonitorInput & { type: 'http' },
  before: MonitorRecord | null,
  box: SecretBox,
): Sealed {
  const { auth } = input;
  const previous =
    before?.type === 'http' ? (before.settings as { auth?: { kind: string } }).auth : undefined;
  const kept = previous?.kind === auth.kind ? (before?.secret ?? null) : null;
  if (auth.kind === 'none') {
    return { input, secret: null, secretChanged: before?.secret != null };
  }
  if (auth.kind === 'basic') {
    const { password, ...rest } = auth;
    return { input: { ...input, auth: rest }, ...sealPassword(password, kept, box) };
  }
  const { token, ...rest } = auth;
  const stripped = { ...input, auth: rest };
  if (token !== undefined) return { input: stripped, secret: box.seal(token), secretChanged: true };
  if (kept === null) {
    throw validationFailed([{ path: 'auth.token', message: 'Enter the token', code: 'custom' }]);
  }
  return { input: stripped, secret: kept, secretChanged: false };
}

/**
 * A browser monitor's basic-auth password, kept while basic auth stays on. Monitors saved
 * before passwords were sealed hold it in plain settings: kept, it is sealed now.
 */
function sealBrowser(
  input: MonitorInput & { type: 'browser' },
  before: MonitorRecord | null,
  box: SecretBox,
): Sealed {
  const { basicAuth } = input;
  if (basicAuth === null) return { input, secret: null, secretChanged: before?.secret != null };
  const previous =
    before?.type === 'browser'
      ? (before.settings as { basicAuth?: { password?: string } | null }).basicAuth
      : undefined;
  const legacy = previous?.password ?? '';
  const kept = previous ? (before?.secret ?? (legacy === '' ? null : box.seal(legacy))) : null;
  const { password, ...rest } = basicAuth;
  return { input: { ...input, basicAuth: rest }, ...sealPassword(password, kept, box) };
}

/**
 * The write-only `password` of the types that have one (databases, brokers): kept when left
 * out of an update of a monitor of the same type, `''` for none.
 */
function sealPasswordField(
  input: MonitorInput,
  before: MonitorRecord | null,
  box: SecretBox,
): Sealed {
  const { password, ...rest } = input as MonitorInput & { password?: string };
  const kept = before?.type === input.type ? (before.secret ?? null) : null;
  return { input: rest, ...sealPassword(password, kept, box) };
}
