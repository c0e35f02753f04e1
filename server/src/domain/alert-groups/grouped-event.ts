import type { AlertEvent } from '@pagewatch/contract';

/**
 * One message for a group's collected alerts (ADR 42): a lone alert goes out as it was
 * decided; several become one event of the same kind naming every member once, in the order
 * their alerts came. `monitor` is the first member, so tools that key alerts by monitor still
 * get one; `alertKey` prefers the group's key. Null for no events.
 */
export function groupedEvent(
  group: { key: string; label: string },
  events: readonly AlertEvent[],
): AlertEvent | null {
  const first = events[0];
  if (!first) return null;
  const byMonitor = new Map<number, AlertEvent>();
  for (const e of events) if (e.monitor) byMonitor.set(e.monitor.id, e);
  if (byMonitor.size <= 1) return events.at(-1)!;
  const members = [...byMonitor.values()].map((e) => ({
    id: e.monitor!.id,
    name: e.monitor!.name,
    status: e.status,
  }));
  const recovered = first.kind === 'monitor.up';
  return {
    ...first,
    kind: recovered ? 'monitor.up' : 'monitor.down',
    at: events.at(-1)!.at,
    // Per-monitor details do not add up across members: the message lists them instead.
    cause: recovered ? null : first.cause,
    outageMs: null,
    downChecks: null,
    escalation: null,
    group: { key: group.key, label: group.label, members },
  };
}

/** At most this many member names in a title or summary; the rest are counted. */
export const NAMES_SHOWN = 20;

/** "12 monitors down: a, b, c…" and its recovery. */
export function groupTitle(e: AlertEvent): string | null {
  const g = e.group;
  if (!g || g.members.length < 2) return null;
  const names = g.members.slice(0, NAMES_SHOWN).map((m) => m.name);
  const more = g.members.length - names.length;
  const list = names.join(', ') + (more > 0 ? ` and ${more} more` : '');
  const what = e.kind === 'monitor.up' ? 'up again' : 'down';
  return `${g.members.length} monitors ${what}: ${list}`;
}
