import {
  areaOf,
  auditActionWording,
  auditAreas,
  auditTargetNoun,
  type AuditAction,
  type AuditEvent,
  type AuditPage,
} from '@pagewatch/contract';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { settingsKeys } from './keys';

const PAGE = 50;

/** What the log is narrowed to; every part is applied by the server. */
export interface AuditFilters {
  /** One action, or a whole area as `monitor.*`. */
  action: string | null;
  userId: number | null;
  /** Instants (ISO), start inclusive, end exclusive. */
  from: string | null;
  to: string | null;
}

/** Newest first, a page at a time; "load older" asks for events before the last one shown. */
export const auditQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: settingsKeys.audit(filters),
    queryFn: ({ signal, pageParam }) => {
      const params = new URLSearchParams({ limit: String(PAGE) });
      if (pageParam !== null) params.set('before', String(pageParam));
      if (filters.action) params.set('action', filters.action);
      if (filters.userId !== null) params.set('userId', String(filters.userId));
      if (filters.from) params.set('from', filters.from);
      if (filters.to) params.set('to', filters.to);
      return api<AuditPage>(`/audit?${params.toString()}`, { signal });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The filter's choices: each area (all of it, then its actions), in the contract's order. */
export const auditActionGroups: readonly {
  group: string;
  areas: string[];
  actions: { value: AuditAction; label: string }[];
}[] = (() => {
  const groups = new Map<
    string,
    { areas: string[]; actions: { value: AuditAction; label: string }[] }
  >();
  for (const [action, wording] of Object.entries(auditActionWording) as [
    AuditAction,
    { label: string },
  ][]) {
    const area = areaOf(action) as keyof typeof auditAreas;
    const group = auditAreas[area];
    const entry = groups.get(group) ?? { areas: [], actions: [] };
    if (!entry.areas.includes(area)) entry.areas.push(area);
    entry.actions.push({ value: action, label: wording.label });
    groups.set(group, entry);
  }
  return [...groups].map(([group, entry]) => ({ group, ...entry }));
})();

/** The filter's label for a value: an action's label or "All <group>". */
export function actionFilterLabel(value: string): string {
  if (value.endsWith('.*')) {
    const area = value.slice(0, -2) as keyof typeof auditAreas;
    return `All ${(auditAreas[area] ?? area).toLowerCase()}`;
  }
  return (auditActionWording as Record<string, { label: string }>)[value]?.label ?? value;
}

/** The actor as a sentence's subject. */
export function actorName(actor: AuditEvent['actor']): string {
  switch (actor.type) {
    case 'anonymous':
      return 'Someone not signed in';
    case 'api_key':
      return `API key “${actor.label}”`;
    default:
      return actor.label;
  }
}

/**
 * One line in words: "Alice paused monitor “API”". Actions the contract does not know (lines
 * written by an older version) fall back to their code.
 */
export function auditSentence(e: AuditEvent): string {
  const wording = (auditActionWording as Record<string, { verb: string; self?: boolean }>)[
    e.action
  ];
  const who = actorName(e.actor);
  if (!wording) return `${who}: ${e.action}`;
  if (wording.self || !e.target) return `${who} ${wording.verb}`;
  const noun = auditTargetNoun[e.target.type.replace('-', '_')] ?? e.target.type.replace('_', ' ');
  const named =
    e.target.label !== null
      ? noun === ''
        ? e.target.label
        : `“${e.target.label}”`
      : e.target.id !== null
        ? `#${e.target.id}`
        : '';
  return [who, wording.verb, noun, named].filter((part) => part !== '').join(' ');
}
