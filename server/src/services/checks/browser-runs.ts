import type { BrowserRunList } from '@pagewatch/contract';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { getMonitor } from '../monitors/get.js';

/** A browser monitor's latest measurements, newest first; empty for other types. */
export async function listBrowserRuns(
  deps: ServiceDeps,
  monitorId: number,
  limit: number,
): Promise<BrowserRunList> {
  const monitor = await getMonitor(deps, monitorId);
  if (monitor.type !== 'browser') return { items: [] };
  return { items: await deps.repos.browserRuns.list(monitorId, limit) };
}

/** The JPEG kept with one check of a monitor. */
export async function checkScreenshot(
  deps: ServiceDeps,
  monitorId: number,
  checkId: number,
): Promise<Buffer> {
  await getMonitor(deps, monitorId);
  const jpeg = await deps.repos.browserRuns.screenshot(monitorId, checkId);
  if (!jpeg) throw notFound('Screenshot');
  return jpeg;
}
