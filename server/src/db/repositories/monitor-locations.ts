import type { Kysely } from 'kysely';
import { decodeOutcome, toMs, toUs } from '../codecs.js';
import type { DB } from '../schema.js';

/** One location's checks over a span: the monitor page's per-location uptime. */
/** The scheduler's last check, kept as location `local`'s verdict when locations are chosen. */
export interface LocalSeed {
  at: number;
  roundAt: number;
  outcome: string;
  latencyMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
}

export interface LocationCounts {
  locationId: string;
  checks: number;
  delivered: number;
}

/** Where monitors are checked and what each location saw (ADR 58). */
export function monitorLocationsRepository(db: Kysely<DB>) {
  return {
    /** The choices of the monitor form: every location, `local` first, then by name. */
    async choices(): Promise<{ id: string; name: string; region: string | null }[]> {
      const rows = await db
        .selectFrom('locations')
        .select(['id', 'name', 'region'])
        .orderBy('name')
        .execute();
      return [...rows.filter((r) => r.id === 'local'), ...rows.filter((r) => r.id !== 'local')];
    },

    /**
     * Every monitor placed other than the default (`local` only, a majority): its locations
     * (sorted; `local` when it has no rows) and quorum. The configuration document's view.
     */
    async placements(): Promise<Map<number, { locations: string[]; quorum: number | null }>> {
      const [rows, quorums] = await Promise.all([
        db
          .selectFrom('monitor_locations')
          .select(['monitor_id', 'location_id'])
          .orderBy('location_id')
          .execute(),
        db
          .selectFrom('monitors')
          .select(['id', 'location_quorum'])
          .where('location_quorum', 'is not', null)
          .execute(),
      ]);
      const out = new Map<number, { locations: string[]; quorum: number | null }>();
      const of = (id: number) => {
        const found = out.get(id) ?? { locations: [], quorum: null };
        out.set(id, found);
        return found;
      };
      for (const r of rows) of(Number(r.monitor_id)).locations.push(r.location_id);
      for (const q of quorums) of(Number(q.id)).quorum = q.location_quorum;
      for (const p of out.values()) if (p.locations.length === 0) p.locations.push('local');
      return out;
    },

    /** A monitor's chosen locations (empty: `local` only) and quorum; null when it is gone. */
    async of(monitorId: number): Promise<{ locations: string[]; quorum: number | null } | null> {
      const m = await db
        .selectFrom('monitors')
        .select(['location_quorum'])
        .where('id', '=', monitorId)
        .executeTakeFirst();
      if (!m) return null;
      const rows = await db
        .selectFrom('monitor_locations')
        .select('location_id')
        .where('monitor_id', '=', monitorId)
        .orderBy('location_id')
        .execute();
      return { locations: rows.map((r) => r.location_id), quorum: m.location_quorum };
    },

    /**
     * Replaces a monitor's locations and quorum in one transaction. `local` alone with no
     * quorum is stored as no rows: the default, decided by the scheduler alone.
     */
    async set(
      monitorId: number,
      locations: readonly string[],
      quorum: number | null,
      seed?: LocalSeed | null,
    ) {
      const plain = locations.length === 1 && locations[0] === 'local' && quorum === null;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('monitor_locations').where('monitor_id', '=', monitorId).execute();
        if (!plain) {
          await trx
            .insertInto('monitor_locations')
            .values(locations.map((location_id) => ({ monitor_id: monitorId, location_id })))
            .execute();
        }
        await trx
          .updateTable('monitors')
          .set({ location_quorum: quorum })
          .where('id', '=', monitorId)
          .execute();
        // Verdicts of locations no longer chosen must not count again if re-added later.
        await trx
          .deleteFrom('monitor_location_verdicts')
          .where('monitor_id', '=', monitorId)
          .where('location_id', 'not in', [...locations])
          .execute();
        if (!seed || plain) return;
        // Local's last check counts at once: without it the first remote verdict would be the
        // only one reported, and a majority of one could call a DOWN that local contradicts.
        await trx
          .insertInto('monitor_location_verdicts')
          .values({
            monitor_id: monitorId,
            location_id: 'local',
            round_at: seed.roundAt,
            status: seed.outcome,
            latency_us: toUs(seed.latencyMs),
            checked_at: seed.at,
            error_code: seed.errorCode,
            error_message: seed.errorMessage,
          })
          .onConflict((oc) => oc.columns(['monitor_id', 'location_id']).doNothing())
          .execute();
      });
    },

    /** Checks and delivered (up or degraded) checks per location since `since`. */
    async counts(monitorId: number, since: number): Promise<LocationCounts[]> {
      const rows = await db
        .selectFrom('check_results')
        .select((eb) => [
          'location_id',
          eb.fn.countAll<number>().as('checks'),
          eb.fn.sum<number>(eb.case().when('outcome', '<', 2).then(1).else(0).end()).as('ok'),
        ])
        .where('monitor_id', '=', monitorId)
        .where('at', '>=', since)
        .groupBy('location_id')
        .execute();
      return rows.map((r) => ({
        locationId: r.location_id,
        checks: Number(r.checks),
        delivered: Number(r.ok ?? 0),
      }));
    },

    /** Latency points per location since `since`, oldest first, at most `limit` in all. */
    async latency(monitorId: number, since: number, limit: number) {
      const rows = await db
        .selectFrom('check_results')
        .select(['location_id', 'at', 'outcome', 'latency_us'])
        .where('monitor_id', '=', monitorId)
        .where('at', '>=', since)
        .orderBy('at', 'desc')
        .limit(limit)
        .execute();
      const out = new Map<string, [number, number | null][]>();
      for (const r of rows.reverse()) {
        const points = out.get(r.location_id) ?? [];
        const down = decodeOutcome(r.outcome) === 'down';
        points.push([Number(r.at), down ? null : toMs(r.latency_us)]);
        out.set(r.location_id, points);
      }
      return out;
    },
  };
}
