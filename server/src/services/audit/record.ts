import type { AuditAction, AuditEvent } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { ServiceDeps } from '../deps.js';

export function actorOf(ctx: RequestContext): AuditEvent['actor'] {
  const a = ctx.actor;
  if (a.type === 'user' || a.type === 'api_key') return { type: a.type, id: a.id, label: a.label };
  if (a.type === 'system') return { type: 'system', id: null, label: a.label };
  return { type: 'anonymous', id: null, label: 'anonymous' };
}

/**
 * Appends one line to the audit log; summaries never carry secrets. `action` must be one the
 * contract names (auditActionWording), so the log's filter and wording cover it.
 */
export async function audit(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
  ctx: RequestContext,
  action: AuditAction,
  target: { type: string; id: string | number | null } | null,
  summary: string,
): Promise<void> {
  await deps.repos.audit.insert({
    at: deps.clock.now(),
    actor: actorOf(ctx),
    action,
    target: target && { type: target.type, id: target.id === null ? null : String(target.id) },
    ip: ctx.ip,
    summary,
  });
}
