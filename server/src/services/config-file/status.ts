import { ConfigFileStatus } from '@pagewatch/contract';
import client from 'prom-client';
import type { Repositories } from '../../db/repositories/index.js';

/**
 * The status row in the settings table (ADR 28 addendum): written by the process that holds
 * the `config-file` singleton, read by any process (the banner, /metrics). It is no settings
 * group, so the settings API never shows or accepts it.
 */
export const STATUS_ROW = 'config-file-status';

export const statusOff: ConfigFileStatus = {
  enabled: false,
  source: null,
  ok: null,
  lastAttemptAt: null,
  lastAppliedAt: null,
  appliedHash: null,
  errors: [],
};

export async function readStatus(repos: Pick<Repositories, 'settings'>): Promise<ConfigFileStatus> {
  const parsed = ConfigFileStatus.safeParse((await repos.settings.all()).get(STATUS_ROW));
  return parsed.success ? parsed.data : statusOff;
}

export async function writeStatus(
  repos: Pick<Repositories, 'settings'>,
  status: ConfigFileStatus,
  at: number,
): Promise<void> {
  await repos.settings.put({ [STATUS_ROW]: status }, at);
}

/** The mode's last outcome on /metrics, from the stored status (any process shows it). */
export function registerConfigFileMetrics(
  registry: client.Registry,
  repos: Pick<Repositories, 'settings'>,
): void {
  // One read serves the gauges of a scrape.
  let cached: { at: number; value: Promise<ConfigFileStatus> } | null = null;
  const status = () => {
    const now = Date.now();
    if (!cached || now - cached.at > 1000) cached = { at: now, value: readStatus(repos) };
    return cached.value;
  };
  new client.Gauge({
    name: 'pagewatch_config_file_last_apply_success',
    help: 'Whether the last read of PAGEWATCH_CONFIG applied (1) or failed and the previous configuration runs (0)',
    registers: [registry],
    async collect() {
      this.set((await status()).ok === false ? 0 : 1);
    },
  });
  new client.Gauge({
    name: 'pagewatch_config_file_last_apply_timestamp_seconds',
    help: 'When PAGEWATCH_CONFIG was last applied successfully (0: never)',
    registers: [registry],
    async collect() {
      const at = (await status()).lastAppliedAt;
      this.set(at ? Date.parse(at) / 1000 : 0);
    },
  });
  new client.Gauge({
    name: 'pagewatch_config_file_errors',
    help: 'Problems found in PAGEWATCH_CONFIG at the last read (0 when it applied)',
    registers: [registry],
    async collect() {
      this.set((await status()).errors.length);
    },
  });
}
