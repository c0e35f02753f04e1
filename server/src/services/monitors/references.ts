import type { MonitorInput } from '@pagewatch/contract';
import { groupCycle } from '../../domain/group/rule.js';
import { referencesOf, referencingTypes } from '../../domain/monitor-types.js';
import { splitInput } from '../../domain/monitor.js';
import { validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/**
 * Checks the monitors a monitor's settings name (a group's members, ADR 47): each must exist,
 * not be the monitor itself, and not close a cycle through other groups (named like a
 * dependency cycle: "A" (#1) → "B" (#2) → "A" (#1)). `id` is null on create.
 */
export async function checkMonitorReferences(
  deps: ServiceDeps,
  id: number | null,
  input: MonitorInput,
  name: string,
): Promise<void> {
  const refs = referencesOf(input.type, splitInput(input).settings);
  if (refs.length === 0) return;
  const refused = (message: string, code = 'custom') =>
    validationFailed([{ path: 'members', message, code }]);
  if (id !== null && refs.includes(id))
    throw refused(`A group cannot be its own member ("${name}")`, 'group_cycle');
  const { names, settings } = await deps.repos.groupMembers.references(refs, referencingTypes);
  const unknown = refs.filter((r) => !names.has(r));
  if (unknown.length > 0) throw refused(`No monitor has id ${unknown.join(', ')}`);
  if (id === null) return; // a new monitor has no members pointing back at it yet
  const typeOf = new Map<number, unknown>(settings);
  const cycle = groupCycle(id, refs, (m) => {
    const s = typeOf.get(m) as { members?: number[] } | undefined;
    return s?.members;
  });
  if (cycle) {
    const named = cycle
      .map((m) => `"${m === id ? name : (names.get(m) ?? m)}" (#${m})`)
      .join(' → ');
    throw refused(`Group cycle: ${named}`, 'group_cycle');
  }
}
