import type { AuditEvent } from '@pagewatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

export interface AuditWrite {
  at: number;
  actor: AuditEvent['actor'];
  action: string;
  target: { type: string; id: string | null } | null;
  ip: string | null;
  summary: string;
}

export function auditRepository(db: Kysely<DB>) {
  return {
    async insert(e: AuditWrite): Promise<void> {
      await db
        .insertInto('audit_events')
        .values({
          at: e.at,
          actor_type: e.actor.type,
          actor_id: e.actor.id,
          actor_label: e.actor.label,
          action: e.action,
          target_type: e.target?.type ?? null,
          target_id: e.target?.id ?? null,
          ip: e.ip,
          summary: e.summary.slice(0, 1000),
        })
        .execute();
    },

    async page(limit: number, before?: number, action?: string) {
      let q = db
        .selectFrom('audit_events')
        .select([
          'id',
          'at',
          'actor_type',
          'actor_id',
          'actor_label',
          'action',
          'target_type',
          'target_id',
          'ip',
          'summary',
        ])
        .orderBy('id', 'desc')
        .limit(limit + 1);
      if (before !== undefined) q = q.where('id', '<', before);
      if (action) q = q.where('action', '=', action);
      const rows = await q.execute();
      const items: AuditEvent[] = rows.slice(0, limit).map((r) => ({
        id: r.id,
        at: new Date(r.at).toISOString(),
        actor: {
          type: r.actor_type as AuditEvent['actor']['type'],
          id: r.actor_id,
          label: r.actor_label,
        },
        action: r.action,
        target: r.target_type ? { type: r.target_type, id: r.target_id } : null,
        ip: r.ip,
        summary: r.summary,
      }));
      return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
    },
  };
}
