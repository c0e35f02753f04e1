import type { Header, RequestHeaderInput } from '@pagewatch/contract';
import type { MonitorRecord } from '../../domain/monitor.js';

/** Opens a credential sealed with the instance key; throws when it cannot. */
export type SecretOpener = (sealed: string) => string;

/** Opened secrets kept per process; beyond this the oldest are forgotten (opened again). */
const CACHE_MAX = 10_000;

/**
 * An opener that remembers what it opened, so a monitor checked every few seconds is not
 * decrypted every time. Keyed by the sealed text, which every save makes anew (random IV):
 * an edited secret is never served stale. Failures are not remembered.
 */
export function cachedOpener(open: SecretOpener, max = CACHE_MAX): SecretOpener {
  const opened = new Map<string, string>();
  return (sealed) => {
    const hit = opened.get(sealed);
    if (hit !== undefined) return hit;
    const plain = open(sealed);
    const oldest = opened.size >= max ? opened.keys().next() : null;
    if (oldest && !oldest.done) opened.delete(oldest.value);
    opened.set(sealed, plain);
    return plain;
  };
}

/**
 * The monitor's sealed credential, opened for one check: '' when none is stored. Throws when it
 * will not open (no key, or a changed key), so the check can report that instead of running.
 */
export function openStoredSecret(m: MonitorRecord, openSecret: SecretOpener | undefined): string {
  if (m.secret == null) return '';
  if (openSecret === undefined) throw new Error('No key to open stored credentials');
  return openSecret(m.secret);
}

/**
 * The request headers as sent: secret values opened from `headerSecrets` (a sealed JSON array
 * in the order of the secret headers). Throws when they will not open.
 */
export function openHeaders(
  m: MonitorRecord,
  headers: readonly RequestHeaderInput[],
  openSecret: SecretOpener | undefined,
): Header[] {
  if (!headers.some((h) => h.secret)) {
    return headers.map((h) => ({ name: h.name, value: h.value ?? '' }));
  }
  if (m.headerSecrets == null) throw new Error('The secret header values are missing');
  if (openSecret === undefined) throw new Error('No key to open stored header values');
  const values = JSON.parse(openSecret(m.headerSecrets)) as string[];
  let next = 0;
  return headers.map((h) => ({
    name: h.name,
    value: (h.secret ? values[next++] : h.value) ?? '',
  }));
}
