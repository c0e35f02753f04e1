import {
  areaOf,
  auditActionNames,
  type AuditEvent,
  type AuditPage,
  type AuditQuery,
} from '@pagewatch/contract';
import type { AuditFilter, AuditLine } from '../../db/repositories/audit.js';
import type { ServiceDeps } from '../deps.js';

/** `monitor.*` is every action of the area; anything else is one action (the contract checked it). */
function actionsOf(action: string | undefined): readonly string[] | undefined {
  if (action === undefined) return undefined;
  if (!action.endsWith('.*')) return [action];
  const area = action.slice(0, -2);
  return auditActionNames.filter((a) => areaOf(a) === area);
}

/** The name a line gave its target when the target is gone: the first quoted one. */
const quotedIn = (summary: string): string | null => /"([^"]+)"/.exec(summary)?.[1] ?? null;

/**
 * A page of the audit log, filtered by the server (person, action or area, time range) and
 * with each target named as it is today (or as its line named it, once it is gone). Lines left
 * by a person whose account was since deleted name them as they were
 * ("Ana Lima (deleted) <ana@example.com>"): deleting an account keeps its history.
 */
export async function listAudit(deps: ServiceDeps, query: AuditQuery): Promise<AuditPage> {
  const filter: AuditFilter = {
    limit: query.limit,
    before: query.before,
    actions: actionsOf(query.action),
    userId: query.userId,
    from: query.from === undefined ? undefined : Date.parse(query.from),
    to: query.to === undefined ? undefined : Date.parse(query.to),
  };
  const page = await deps.repos.audit.page(filter);
  const named = await nameTargets(deps, page.items);
  const userIds = named.flatMap((e) =>
    e.actor.type === 'user' && e.actor.id !== null ? [e.actor.id] : [],
  );
  const gone = await deps.repos.users.deletedNames(userIds);
  if (gone.size === 0) return { ...page, items: named };
  return {
    ...page,
    items: named.map((e) => {
      const who = e.actor.type === 'user' && e.actor.id !== null ? gone.get(e.actor.id) : null;
      return who
        ? { ...e, actor: { ...e.actor, label: `${who.name} (deleted) <${who.email}>` } }
        : e;
    }),
  };
}

async function nameTargets(deps: ServiceDeps, lines: readonly AuditLine[]): Promise<AuditEvent[]> {
  // Lines written before subscriber removals used `status_page` said `status-page`.
  const typeOf = (type: string) => type.replace('-', '_');
  const refs = lines.flatMap((e) =>
    e.target && e.target.id !== null ? [{ type: typeOf(e.target.type), id: e.target.id }] : [],
  );
  const names = await deps.repos.audit.targetNames(refs);
  return lines.map((e) => {
    if (!e.target) return { ...e, target: null };
    const current =
      e.target.id === null ? undefined : names.get(`${typeOf(e.target.type)}:${e.target.id}`);
    return { ...e, target: { ...e.target, label: current ?? quotedIn(e.summary) } };
  });
}
