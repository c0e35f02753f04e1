import type { AuditAction, AuditEvent } from '@pagewatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

export interface AuditWrite {
  at: number;
  actor: AuditEvent['actor'];
  action: AuditAction;
  target: { type: string; id: string | null } | null;
  ip: string | null;
  summary: string;
}

/** Nine columns a row: 100 rows stay far below SQLite's and PostgreSQL's parameter limits. */
const AUDIT_CHUNK = 100;

/** Appends audit lines through `db` (a transaction's, when the lines belong to one). */
export async function insertAuditRows(db: Kysely<DB>, entries: readonly AuditWrite[]) {
  const rows = entries.map((e) => ({
    at: e.at,
    actor_type: e.actor.type,
    actor_id: e.actor.id,
    actor_label: e.actor.label,
    action: e.action,
    target_type: e.target?.type ?? null,
    target_id: e.target?.id ?? null,
    ip: e.ip,
    summary: e.summary.slice(0, 1000),
  }));
  for (let i = 0; i < rows.length; i += AUDIT_CHUNK) {
    await db
      .insertInto('audit_events')
      .values(rows.slice(i, i + AUDIT_CHUNK))
      .execute();
  }
}

export function auditRepository(db: Kysely<DB>) {
  return {
    async insert(e: AuditWrite): Promise<void> {
      await insertAuditRows(db, [e]);
    },

    /** Many lines at once (bulk actions, a configuration apply). */
    async insertMany(entries: readonly AuditWrite[]): Promise<void> {
      await insertAuditRows(db, entries);
    },

    /** Newest first, `limit` at a time below `before`, narrowed by every filter given. */
    async page(filter: AuditFilter) {
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
        .limit(filter.limit + 1);
      if (filter.before !== undefined) q = q.where('id', '<', filter.before);
      if (filter.actions) q = q.where('action', 'in', filter.actions);
      if (filter.from !== undefined) q = q.where('at', '>=', filter.from);
      if (filter.to !== undefined) q = q.where('at', '<', filter.to);
      const userId = filter.userId;
      if (userId !== undefined) {
        // The person's own lines and those of their API keys (a key acts for its creator).
        q = q.where((eb) =>
          eb.or([
            eb.and([eb('actor_type', '=', 'user'), eb('actor_id', '=', userId)]),
            eb.and([
              eb('actor_type', '=', 'api_key'),
              eb(
                'actor_id',
                'in',
                eb.selectFrom('api_keys').select('id').where('user_id', '=', userId),
              ),
            ]),
          ]),
        );
      }
      const rows = await q.execute();
      const items = rows.slice(0, filter.limit).map((r): AuditLine => ({
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
      return { items, nextCursor: rows.length > filter.limit ? (items.at(-1)?.id ?? null) : null };
    },

    /**
     * Today's names of the targets of some audit lines, keyed `type:id`; those gone are absent.
     * One query per kind of target on the page, by primary key.
     */
    async targetNames(
      targets: readonly { type: string; id: string }[],
    ): Promise<Map<string, string>> {
      const names = new Map<string, string>();
      const idsOf = (type: string) => [
        ...new Set(
          targets.filter((t) => t.type === type && /^\d+$/.test(t.id)).map((t) => Number(t.id)),
        ),
      ];
      const put = (type: string, rows: { id: number; name: string }[]) => {
        for (const r of rows) names.set(`${type}:${r.id}`, r.name);
      };
      const lookups: [string, (ids: number[]) => Promise<{ id: number; name: string }[]>][] = [
        [
          'monitor',
          (ids) =>
            db.selectFrom('monitors').select(['id', 'name']).where('id', 'in', ids).execute(),
        ],
        [
          'status_page',
          (ids) =>
            db
              .selectFrom('status_pages')
              .select(['id', 'title as name'])
              .where('id', 'in', ids)
              .execute(),
        ],
        [
          'notification_channel',
          (ids) =>
            db
              .selectFrom('notification_channels')
              .select(['id', 'name'])
              .where('id', 'in', ids)
              .execute(),
        ],
        [
          'maintenance',
          (ids) =>
            db
              .selectFrom('maintenance_windows')
              .select(['id', 'title as name'])
              .where('id', 'in', ids)
              .execute(),
        ],
        [
          'incident',
          (ids) =>
            db
              .selectFrom('incidents')
              .select(['id', 'title as name'])
              .where('id', 'in', ids)
              .execute(),
        ],
        [
          'api_key',
          (ids) =>
            db.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', ids).execute(),
        ],
        [
          'user',
          (ids) =>
            db.selectFrom('users').select(['id', 'email as name']).where('id', 'in', ids).execute(),
        ],
      ];
      for (const [type, lookup] of lookups) {
        const ids = idsOf(type);
        if (ids.length > 0) put(type, await lookup(ids));
      }
      return names;
    },
  };
}

/** A stored line before its target is named (the service adds `target.label`). */
export interface AuditLine extends Omit<AuditEvent, 'target'> {
  target: { type: string; id: string | null } | null;
}

export interface AuditFilter {
  limit: number;
  before?: number;
  /** Any of these actions (one, or every action of an area). */
  actions?: readonly string[];
  userId?: number;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
}
