import { limits, type MonitorBulkAction } from '@pagewatch/contract';

/** A selected monitor as a bulk action sees it. */
export interface BulkTarget {
  id: number;
  name: string;
  managed: boolean;
  timeout: number;
  tags: readonly string[];
}

export interface BulkPlan {
  /** Monitors the action changes. */
  targets: BulkTarget[];
  /** Monitors of configuration files (ADR 28): read-only here, left alone. */
  managed: number[];
  /** Monitors the action cannot apply to, with the reason in words. */
  refused: { id: number; reason: string }[];
  /** Ids asked for that no longer exist (deleted meanwhile). */
  notFound: number[];
}

/** Sorts the selected monitors into those to change, those to leave and those gone. */
export function planBulk(
  asked: readonly number[],
  found: readonly BulkTarget[],
  action: MonitorBulkAction,
): BulkPlan {
  const present = new Set(found.map((r) => r.id));
  const plan: BulkPlan = {
    targets: [],
    managed: [],
    refused: [],
    notFound: [...new Set(asked)].filter((id) => !present.has(id)).sort((a, b) => a - b),
  };
  for (const row of found) {
    if (row.managed) plan.managed.push(row.id);
    else if (action.kind === 'interval' && row.timeout >= action.interval) {
      plan.refused.push({
        id: row.id,
        reason: `Its timeout (${row.timeout} s) is not shorter than ${action.interval} s`,
      });
    } else if (action.kind === 'tag' && retag(row.tags, action).length > limits.tagsMax) {
      plan.refused.push({ id: row.id, reason: `It would have more than ${limits.tagsMax} tags` });
    } else plan.targets.push(row);
  }
  return plan;
}

/** A monitor's tags after adding or removing some: order kept, no duplicates, at most `max`. */
export function retag(
  tags: readonly string[],
  action: { kind: 'tag' | 'untag'; tags: readonly string[] },
): string[] {
  if (action.kind === 'untag') {
    const gone = new Set(action.tags);
    return tags.filter((t) => !gone.has(t));
  }
  const out = [...tags];
  for (const t of action.tags) if (!out.includes(t)) out.push(t);
  return out;
}

/** Past tense for the audit log and messages. */
export const bulkVerb: Record<MonitorBulkAction['kind'], string> = {
  pause: 'Paused',
  resume: 'Resumed',
  delete: 'Deleted',
  tag: 'Tagged',
  untag: 'Untagged',
  channels: 'Set the channels of',
  interval: 'Set the interval of',
  maintenance: 'Put in maintenance',
};
