import { settingsDefaults, settingsGroups, type SettingsGroup } from '@pagewatch/contract';
import type { Repositories } from '../../db/repositories/index.js';

export type SettingsValues = typeof settingsDefaults;

/**
 * The stored settings, read from the database and kept for `ttlMs` (ADR 27): every process
 * sees a change made through another within that time; the process that made it at once.
 */
export class SettingsStore {
  private cached: { values: SettingsValues; until: number } | null = null;
  private reading: Promise<SettingsValues> | null = null;
  // Bumped by invalidate(): a read that started before a write must not be cached after it.
  private generation = 0;

  constructor(
    private readonly repos: Pick<Repositories, 'settings'>,
    private readonly ttlMs = 5_000,
  ) {}

  async all(): Promise<SettingsValues> {
    // Real time, not the app's clock: tests that hold the clock still must still see changes.
    const now = performance.now();
    if (this.cached && now < this.cached.until) return this.cached.values;
    const generation = this.generation;
    const reading = (this.reading ??= this.read().finally(() => {
      if (this.reading === reading) this.reading = null;
    }));
    const values = await reading;
    if (this.ttlMs > 0 && generation === this.generation)
      this.cached = { values, until: now + this.ttlMs };
    return values;
  }

  async get<G extends SettingsGroup>(group: G): Promise<SettingsValues[G]> {
    return (await this.all())[group];
  }

  /** Forgets the cached values (after a write in this process). */
  invalidate(): void {
    this.cached = null;
    this.reading = null;
    this.generation += 1;
  }

  private async read(): Promise<SettingsValues> {
    const stored = await this.repos.settings.all();
    const values = { ...settingsDefaults } as Record<SettingsGroup, unknown>;
    for (const group of Object.keys(settingsGroups) as SettingsGroup[]) {
      // A group a later version wrote in a shape this one refuses reads as its defaults.
      const parsed = settingsGroups[group].safeParse(stored.get(group));
      if (parsed.success) values[group] = parsed.data;
    }
    return values as SettingsValues;
  }
}
