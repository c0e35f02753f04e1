import type {
  AlertGrouping,
  HeldMonitors,
  MonitorDependencies,
  MonitorStatus,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { cycleThrough, linksOf } from '../../domain/dependencies/index.js';
import { notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

const refused = (code: string, message: string) =>
  validationFailed([{ path: 'parentIds', message, code }]);

/** A monitor's parents and children, with their status. */
export async function monitorDependencies(
  deps: ServiceDeps,
  monitorId: number,
): Promise<MonitorDependencies> {
  const repo = deps.repos.monitorParents;
  if ((await repo.names([monitorId])).size === 0) throw notFound('Monitor');
  const [parents, children, grouping] = await Promise.all([
    repo.parentsOf(monitorId),
    repo.childrenOf(monitorId),
    deps.repos.alertGroups.setting(monitorId),
  ]);
  const view = (m: { id: number; name: string; status: string }) => ({
    ...m,
    status: m.status as MonitorStatus,
  });
  return { parents: parents.map(view), children: children.map(view), grouping };
}

/**
 * Replaces a monitor's parents. Unknown monitors, the monitor itself and a link that would
 * close a cycle are refused; the cycle is named in the message ("A → B → A", ADR 41).
 */
export async function setMonitorParents(
  deps: ServiceDeps,
  ctx: RequestContext,
  monitorId: number,
  given: readonly number[],
  grouping?: AlertGrouping,
): Promise<MonitorDependencies> {
  const repo = deps.repos.monitorParents;
  const parentIds = [...new Set(given)];
  const names = await repo.names([monitorId, ...parentIds]);
  const name = names.get(monitorId);
  if (name === undefined) throw notFound('Monitor');
  const unknown = parentIds.filter((id) => !names.has(id));
  if (unknown.length > 0) throw refused('custom', `No monitor has id ${unknown.join(', ')}`);
  if (parentIds.includes(monitorId)) {
    throw refused('dependency_cycle', `A monitor cannot depend on itself ("${name}")`);
  }
  const cycle = cycleThrough(linksOf(await repo.allLinks()), monitorId, parentIds);
  if (cycle) {
    const walked = await repo.names(cycle);
    const named = cycle.map((id) => `"${walked.get(id) ?? id}" (#${id})`).join(' → ');
    throw refused('dependency_cycle', `Dependency cycle: ${named}`);
  }
  await repo.setParents(monitorId, parentIds);
  if (grouping) await deps.repos.alertGroups.setSetting(monitorId, grouping);
  const parents = parentIds.map((id) => `"${names.get(id)}"`).join(', ') || 'none';
  const grouped = grouping
    ? `; alerts grouped ${grouping.tag ? `by tag "${grouping.tag}"` : 'by dependency root'} within ${grouping.windowS} s`
    : '';
  await audit(
    deps,
    ctx,
    'monitor.updated',
    { type: 'monitor', id: monitorId },
    `Updated "${name}": parents ${parents}${grouped}`,
  );
  // No hub event: "monitor updated" makes the engine reload and re-check it, and parents
  // change nothing about its checks.
  return monitorDependencies(deps, monitorId);
}

/** Monitors that are down while a parent is down: shown as "down, parent X down". */
export async function heldMonitors(deps: ServiceDeps): Promise<HeldMonitors> {
  return { items: await deps.repos.monitorParents.held() };
}
