import type { MonitorBadges } from '@pagewatch/contract';
import { shownName } from '../../domain/incidents.js';
import type { ServiceDeps } from '../deps.js';
import { getMonitor } from './get.js';

/** Where a monitor's badges live and what they call it; 404 for an unknown monitor. */
export async function monitorBadges(deps: ServiceDeps, monitorId: number): Promise<MonitorBadges> {
  await getMonitor(deps, monitorId);
  const repo = deps.repos.statusPublic;
  const [subject, pages] = await Promise.all([
    repo.badgeSubject(monitorId),
    repo.badgePages(monitorId),
  ]);
  return {
    publicUrl: deps.publicUrl ?? null,
    label: subject ? shownName(subject) : null,
    pages,
  };
}
