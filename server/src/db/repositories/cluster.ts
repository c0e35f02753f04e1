import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { dbNowMs, inIntegers, inTexts } from '../dialect.js';
import type { DB } from '../schema.js';

/** This process as it registers itself (ADR 21). */
export interface MemberRecord {
  id: string;
  name: string;
  version: string;
  capacity: number;
  roles: readonly string[];
}

/** What a member is doing, published with each heartbeat (Settings → Cluster). */
export interface MemberLoad {
  /** Monitors its scheduler holds (in its partitions). */
  monitors: number;
  /** Checks running now. */
  inFlight: number;
  /** Checks started over the last minute. */
  checksPerMinute: number;
  /** Resident memory, bytes. */
  rssBytes: number;
}

export interface LiveMember extends MemberRecord {
  startedAt: number;
  heartbeatAt: number;
  load: MemberLoad | null;
}

/** A lease held: the partition (or singleton name) and its fencing epoch. */
export interface Held<K> {
  key: K;
  epoch: number;
}

/** A lease just acquired; `previousOwner` is set when it was taken over after an expiry. */
export interface Grant<K> extends Held<K> {
  previousOwner: string | null;
}

/** A lease row as the database sees it now (tests, the bench, diagnostics). */
export interface LeaseRow<K> {
  key: K;
  owner: string | null;
  epoch: number;
  expiresAt: number;
  /** The database's clock when it was read: the lease is live while expiresAt > now. */
  now: number;
}

/**
 * Membership and leases on the database's clock. Every method is one statement (SQLite
 * serialises writers, and several members in one process must never hold a write lock
 * across an await); renewals and acquisitions are conditional updates that return only
 * the rows they changed.
 */
export function clusterRepository(db: Kysely<DB>, engine: Engine) {
  const now = dbNowMs(engine);
  const partitions = leaseStatements<number>(db, engine, 'cluster_partitions', 'id');
  const singletons = leaseStatements<string>(db, engine, 'cluster_singletons', 'name');
  return {
    /** Inserts this process's row, or refreshes it if it was reaped and comes back. */
    async register(m: MemberRecord): Promise<void> {
      await db
        .insertInto('cluster_members')
        .values({
          id: m.id,
          name: m.name,
          version: m.version,
          capacity: m.capacity,
          roles: m.roles.join(','),
          started_at: now,
          heartbeat_at: now,
        })
        .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: now }))
        .execute();
    },

    /** Refreshes the heartbeat; false when the row is gone (reaped while this process slept). */
    async heartbeat(id: string, load: MemberLoad | null = null): Promise<boolean> {
      const rows = await db
        .updateTable('cluster_members')
        .set({ heartbeat_at: now, load: load ? JSON.stringify(load) : null })
        .where('id', '=', id)
        .returning('id')
        .execute();
      return rows.length > 0;
    },

    /** Members whose heartbeat is younger than `expireMs`, by id. */
    async liveMembers(expireMs: number): Promise<LiveMember[]> {
      const rows = await db
        .selectFrom('cluster_members')
        .select([
          'id',
          'name',
          'version',
          'capacity',
          'roles',
          'started_at',
          'heartbeat_at',
          'load',
        ])
        .where('heartbeat_at', '>', sql<number>`${now} - ${expireMs}`)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        version: r.version,
        capacity: Number(r.capacity),
        roles: r.roles.split(',').filter(Boolean),
        startedAt: Number(r.started_at),
        heartbeatAt: Number(r.heartbeat_at),
        load: r.load ? (JSON.parse(r.load) as MemberLoad) : null,
      }));
    },

    async leave(id: string): Promise<void> {
      await db.deleteFrom('cluster_members').where('id', '=', id).execute();
    },

    /** Forgets members silent for longer than `olderThanMs`; returns how many. */
    async reapMembers(olderThanMs: number): Promise<number> {
      const result = await db
        .deleteFrom('cluster_members')
        .where('heartbeat_at', '<', sql<number>`${now} - ${olderThanMs}`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    partitions,
    singletons,
  };
}

type LeaseTable = 'cluster_partitions' | 'cluster_singletons';

/** The same lease statements over either table: partitions keyed by number, singletons by name. */
function leaseStatements<K extends number | string>(
  db: Kysely<DB>,
  engine: Engine,
  table: LeaseTable,
  key: K extends number ? 'id' : 'name',
) {
  const now = dbNowMs(engine);
  const t = sql.table(table);
  const k = sql.ref(key);
  const inKeys = (keys: readonly K[]) =>
    key === 'id'
      ? inIntegers(engine, key, keys as readonly number[])
      : inTexts(engine, key, keys as readonly string[]);
  const toKey = (v: unknown) => (key === 'id' ? Number(v) : String(v)) as K;
  const held = (rows: { key: unknown; epoch: unknown }[]): Held<K>[] =>
    rows.map((r) => ({ key: toKey(r.key), epoch: Number(r.epoch) }));

  return {
    /** Makes sure rows exist for these keys (singletons are created on first use). */
    async ensure(keys: readonly K[]): Promise<void> {
      for (const value of keys) {
        await sql`insert into ${t} (${k}) values (${value}) on conflict (${k}) do nothing`.execute(
          db,
        );
      }
    },

    /**
     * Extends the leases this owner still holds, unexpired, among `keys`; returns those rows.
     * A key not returned is lost: it expired, or another owner has it.
     */
    async renew(owner: string, keys: readonly K[], expireMs: number): Promise<Held<K>[]> {
      if (keys.length === 0) return [];
      const { rows } = await sql<{ key: unknown; epoch: unknown }>`
        update ${t} set expires_at = ${now} + ${expireMs}
        where owner = ${owner} and ${inKeys(keys)} and expires_at > ${now}
        returning ${k} as key, epoch`.execute(db);
      return held(rows);
    },

    /**
     * Takes up to `limit` leases that are free or expired (for at least `freeForMs`), among
     * `among` when given, oldest first; each one's epoch goes up by one. PostgreSQL skips rows
     * another transaction has locked, so concurrent members take disjoint sets.
     */
    async acquire(
      owner: string,
      limit: number,
      expireMs: number,
      options: { freeForMs?: number; among?: readonly K[] } = {},
    ): Promise<Grant<K>[]> {
      if (limit <= 0 || options.among?.length === 0) return [];
      const freeFor = options.freeForMs ?? 0;
      const among = options.among ? sql`and ${inKeys(options.among)}` : sql``;
      const set = sql`owner = ${owner}, epoch = epoch + 1, expires_at = ${now} + ${expireMs},
        acquired_at = ${now}, previous_owner = owner`;
      const { rows } =
        engine === 'postgres'
          ? await sql<{ key: unknown; epoch: unknown; previous_owner: string | null }>`
              update ${t} set ${set}
              where ${k} in (
                select ${k} from ${t} where expires_at <= ${now} - ${freeFor} ${among}
                order by expires_at, ${k} limit ${limit} for update skip locked)
              and expires_at <= ${now} - ${freeFor}
              returning ${k} as key, epoch, previous_owner`.execute(db)
          : await sql<{ key: unknown; epoch: unknown; previous_owner: string | null }>`
              update ${t} set ${set}
              where ${k} in (
                select ${k} from ${t} where expires_at <= ${now} - ${freeFor} ${among}
                order by expires_at, ${k} limit ${limit})
              returning ${k} as key, epoch, previous_owner`.execute(db);
      return rows.map((r) => ({
        key: toKey(r.key),
        epoch: Number(r.epoch),
        previousOwner: r.previous_owner,
      }));
    },

    /** Gives leases back at once (owner cleared, free from now); returns the keys released. */
    async release(owner: string, keys: readonly K[]): Promise<K[]> {
      if (keys.length === 0) return [];
      const { rows } = await sql<{ key: unknown }>`
        update ${t} set owner = null, expires_at = ${now}, previous_owner = owner
        where owner = ${owner} and ${inKeys(keys)}
        returning ${k} as key`.execute(db);
      return rows.map((r) => toKey(r.key));
    },

    /** Releases every lease of this owner except `keep`: rows a fenced process no longer honours. */
    async releaseOthers(owner: string, keep: readonly K[]): Promise<number> {
      const except = keep.length > 0 ? sql`and not (${inKeys(keep)})` : sql``;
      const result = await sql`
        update ${t} set owner = null, expires_at = ${now}, previous_owner = owner
        where owner = ${owner} ${except}`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },

    /** Every row with the database's clock: who holds what, right now. */
    async table(): Promise<LeaseRow<K>[]> {
      const { rows } = await sql<{
        key: unknown;
        owner: string | null;
        epoch: unknown;
        expires_at: unknown;
        now: unknown;
      }>`
        select ${k} as key, owner, epoch, expires_at, ${now} as now from ${t} order by ${k}`.execute(
        db,
      );
      return rows.map((r) => ({
        key: toKey(r.key),
        owner: r.owner,
        epoch: Number(r.epoch),
        expiresAt: Number(r.expires_at),
        now: Number(r.now),
      }));
    },
  };
}

export type ClusterRepository = ReturnType<typeof clusterRepository>;
export type LeaseStatements<K extends number | string> = ReturnType<typeof leaseStatements<K>>;
