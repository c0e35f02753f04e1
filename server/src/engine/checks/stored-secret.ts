import type { MonitorRecord } from '../../domain/monitor.js';

/** Opens a credential sealed with the instance key; throws when it cannot. */
export type SecretOpener = (sealed: string) => string;

/**
 * The monitor's sealed credential, opened for one check: '' when none is stored. Throws when it
 * will not open (no key, or a changed key), so the check can report that instead of running.
 */
export function openStoredSecret(m: MonitorRecord, openSecret: SecretOpener | undefined): string {
  if (m.secret == null) return '';
  if (openSecret === undefined) throw new Error('No key to open stored credentials');
  return openSecret(m.secret);
}
