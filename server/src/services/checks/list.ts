import type { CheckPage } from '@pagewatch/contract';
import type { ServiceDeps } from '../deps.js';
import { getMonitor } from '../monitors/get.js';

export async function listChecks(
  deps: ServiceDeps,
  monitorId: number,
  limit: number,
  before?: number,
): Promise<CheckPage> {
  await getMonitor(deps, monitorId);
  return deps.repos.results.page(monitorId, limit, before);
}
