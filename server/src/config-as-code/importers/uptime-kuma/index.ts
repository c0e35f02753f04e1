import { configDocumentVersion, type ConfigDocument, type ImportItem } from '@pagewatch/contract';
import { mapChannels } from './channels.js';
import { mapHistory, type KumaRollup } from './history.js';
import { mapMaintenance } from './maintenance.js';
import { mapMonitors } from './monitors.js';
import type { KumaSource } from './source.js';
import { mapStatusPages } from './status-pages.js';

export { readKumaBackup } from './backup-json.js';
export type { KumaSource } from './source.js';

/** What an Uptime Kuma import would write, before it is applied. */
export interface KumaImportPlan {
  origin: string;
  document: ConfigDocument;
  /** One per thing found in Kuma, in Kuma's order per kind. */
  items: ImportItem[];
  /** Monitor key → the Kuma push token the monitor keeps, so cron jobs keep pinging. */
  pushTokens: Map<string, string>;
  /** Monitor key → its Kuma statistics as rollups (written only for monitors this run creates). */
  history: Map<string, KumaRollup[]>;
}

/** Maps everything read from Kuma into one configuration document (pure: no I/O). */
export function mapKuma(src: KumaSource): KumaImportPlan {
  const channels = mapChannels(src.notifications);
  const monitors = mapMonitors(src, channels.keyOf);
  const pages = mapStatusPages(src.statusPages, src.monitors, monitors.keyOf);
  const windows = mapMaintenance(src, monitors.keyOf);
  const history = new Map<string, KumaRollup[]>();
  for (const rollup of mapHistory(src.stats, new Set(monitors.keyOf.keys()))) {
    const key = monitors.keyOf.get(rollup.kumaMonitorId)!;
    const list = history.get(key) ?? [];
    list.push(rollup);
    history.set(key, list);
  }
  return {
    origin: src.origin,
    document: {
      version: configDocumentVersion,
      channels: channels.entries,
      monitors: monitors.entries,
      statusPages: pages.entries,
      maintenance: windows.entries,
      slos: [],
    },
    items: [...monitors.items, ...channels.items, ...pages.items, ...windows.items],
    pushTokens: monitors.pushTokens,
    history,
  };
}
