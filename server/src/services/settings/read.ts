import type { Settings } from '@pagewatch/contract';
import type { ServiceDeps } from '../deps.js';
import { SettingsStore } from './store.js';

/** The process's settings store; a short-lived one where none was wired (tests of services). */
export function settingsOf(deps: ServiceDeps): SettingsStore {
  return deps.settings ?? new SettingsStore(deps.repos, 0);
}

/** Every settings group, and the public URL the environment sets. */
export async function getSettings(deps: ServiceDeps): Promise<Settings> {
  const values = await settingsOf(deps).all();
  return { ...values, environment: { publicUrl: deps.publicUrl ?? null } };
}
