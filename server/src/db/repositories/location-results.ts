import type { CheckResult, CheckOutcome, MonitorStatus } from '@pagewatch/contract';
import type { Kysely, Transaction } from 'kysely';
import type { CheckRun } from '../../domain/check-run.js';
import type { RecentEntry } from '../../domain/monitor.js';
import type { LocationVerdict } from '../../domain/quorum/verdict.js';
import { foldChecks, rollupLevels, type RolledCheck } from '../../domain/rollup.js';
import { decodeOutcome, encodeOutcome, iso, isoOrNull, toMs, toUs } from '../codecs.js';
import type { Engine } from '../database.js';
import type { DB } from '../schema.js';
import { applyRollupDeltas } from './rollups.js';

type Db = Kysely<DB> | Transaction<DB>;

/** One location's result of one round, as stored in history. */
export interface LocationResultRow {
  monitorId: number;
  locationId: string;
  /** The round's number and due time on the server's grid. */
  round: number;
  roundDue: number;
  /** When the check started (ms). */
  at: number;
  run: CheckRun;
}

/** What the quorum needs of a monitor to decide it. */
export interface QuorumSubject {
  id: number;
  name: string;
  interval: number;
  retries: number;
  paused: boolean;
  /** Its locations; `['local']` when none are chosen. */
  locations: string[];
  quorum: number | null;
  status: MonitorStatus;
  failures: number;
  recent: RecentEntry[];
  lastRoundDue: number | null;
  lastAttempt: number | null;
}

/** A location's verdict as the monitor page shows it. */
export interface StoredVerdict extends LocationVerdict {
  /** The location's name now (renameable); its id when the location is gone. */
  name: string;
  roundAt: number;
  latencyMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
}

const CHUNK = 500;

/**
 * Stores locations' results once per (monitor, location, round) and keeps each location's live
 * verdict (ADR 58). The unique index decides what is a duplicate, so a batch retried or
 * replayed, or two probes of a pool overlapping in a takeover, count each round once.
 */
export function locationResultsRepository(db: Kysely<DB>, engine: Engine) {
  /** Inserts the rows of one chunk, leaving out duplicates; returns the stored ones. */
  async function insertChunk(trx: Transaction<DB>, rows: readonly LocationResultRow[]) {
    const stored = await trx
      .insertInto('check_results')
      .values(
        rows.map((r) => ({
          monitor_id: r.monitorId,
          location_id: r.locationId,
          location_round: r.round,
          round: r.round,
          at: r.at,
          outcome: encodeOutcome(r.run.outcome),
          latency_us: toUs(r.run.latencyMs),
          dns_us: toUs(r.run.phases.dns),
          connect_us: toUs(r.run.phases.connect),
          tls_us: toUs(r.run.phases.tls),
          ttfb_us: toUs(r.run.phases.ttfb),
          download_us: toUs(r.run.phases.download),
          http_status: r.run.httpStatus,
          error_code: r.run.errorCode,
          error_message: r.run.errorMessage,
          response_size: r.run.responseSize,
          cert_expires_at: r.run.certExpiresAt,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['monitor_id', 'location_id', 'location_round'])
          .where('location_round', 'is not', null)
          .doNothing(),
      )
      .returning(['id', 'monitor_id', 'location_round'])
      .execute();
    return stored;
  }

  return {
    /**
     * Stores `rows` in history and the rollups in one transaction. Returns, by the rows' index,
     * the result stored for each; a row left out was a duplicate of a round already stored.
     */
    async insert(rows: readonly LocationResultRow[]): Promise<Map<number, CheckResult>> {
      const out = new Map<number, CheckResult>();
      if (rows.length === 0) return out;
      await db.transaction().execute(async (trx) => {
        const index = new Map(rows.map((r, i) => [`${r.monitorId}/${r.round}`, i]));
        for (let i = 0; i < rows.length; i += CHUNK) {
          for (const s of await insertChunk(trx, rows.slice(i, i + CHUNK))) {
            const at = index.get(`${s.monitor_id}/${s.location_round}`);
            if (at !== undefined) out.set(at, toResult(Number(s.id), rows[at]!));
          }
        }
        const checks = [...out.keys()].map((i) => rolled(rows[i]!));
        for (const level of rollupLevels) {
          await applyRollupDeltas(trx, engine, level, foldChecks(level, checks));
        }
      });
      return out;
    },

    /** Keeps each row as its location's live verdict unless a later round is there already. */
    async keepVerdicts(rows: readonly LocationResultRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += CHUNK) {
        await db
          .insertInto('monitor_location_verdicts')
          .values(
            rows.slice(i, i + CHUNK).map((r) => ({
              monitor_id: r.monitorId,
              location_id: r.locationId,
              round_at: r.roundDue,
              status: r.run.outcome,
              latency_us: toUs(r.run.latencyMs),
              checked_at: r.at,
              error_code: r.run.errorCode,
              error_message: r.run.errorMessage,
            })),
          )
          .onConflict((oc) =>
            oc
              .columns(['monitor_id', 'location_id'])
              .doUpdateSet((eb) => ({
                round_at: eb.ref('excluded.round_at'),
                status: eb.ref('excluded.status'),
                latency_us: eb.ref('excluded.latency_us'),
                checked_at: eb.ref('excluded.checked_at'),
                error_code: eb.ref('excluded.error_code'),
                error_message: eb.ref('excluded.error_message'),
              }))
              .where('monitor_location_verdicts.round_at', '<=', (eb) =>
                eb.ref('excluded.round_at'),
              ),
          )
          .execute();
      }
    },

    /** The monitors among `ids` with what the quorum needs; missing ids are left out. */
    async subjects(ids: readonly number[]): Promise<Map<number, QuorumSubject>> {
      const out = new Map<number, QuorumSubject>();
      if (ids.length === 0) return out;
      for (let i = 0; i < ids.length; i += CHUNK) {
        const part = ids.slice(i, i + CHUNK);
        const rows = await db
          .selectFrom('monitors')
          .select([
            'id',
            'name',
            'interval_s',
            'retries',
            'paused',
            'location_quorum',
            'status',
            'failures',
            'recent',
            'last_round_due',
            'last_attempt',
          ])
          .where('id', 'in', part)
          .execute();
        const links = await locationsOf(db, part);
        for (const r of rows) {
          const id = Number(r.id);
          out.set(id, {
            id,
            name: r.name,
            interval: r.interval_s,
            retries: r.retries,
            paused: r.paused === 1,
            locations: links.get(id) ?? ['local'],
            quorum: r.location_quorum,
            status: r.status as MonitorStatus,
            failures: r.failures,
            recent: decodeRecent(r.recent),
            lastRoundDue: r.last_round_due === null ? null : Number(r.last_round_due),
            lastAttempt: r.last_attempt,
          });
        }
      }
      return out;
    },

    /** Each location's live verdict on a monitor. */
    async verdicts(monitorId: number): Promise<StoredVerdict[]> {
      const rows = await db
        .selectFrom('monitor_location_verdicts as v')
        .leftJoin('locations as l', 'l.id', 'v.location_id')
        .select([
          'v.location_id',
          'l.name',
          'v.round_at',
          'v.status',
          'v.latency_us',
          'v.checked_at',
          'v.error_code',
          'v.error_message',
        ])
        .where('v.monitor_id', '=', monitorId)
        .orderBy('v.location_id')
        .execute();
      return rows.map((r) => ({
        locationId: r.location_id,
        name: r.name ?? r.location_id,
        outcome: r.status as CheckOutcome,
        checkedAt: Number(r.checked_at),
        roundAt: Number(r.round_at),
        latencyMs: toMs(r.latency_us),
        errorCode: r.error_code,
        errorMessage: r.error_message,
      }));
    },

    /** The monitors with a location other than `local`: the stale-coverage sweep looks at them. */
    async remoteMonitorIds(): Promise<number[]> {
      const rows = await db
        .selectFrom('monitor_locations')
        .select('monitor_id')
        .where('location_id', '<>', 'local')
        .distinct()
        .execute();
      return rows.map((r) => Number(r.monitor_id));
    },

    locationsOf: (ids: readonly number[]) => locationsOf(db, ids),
  };
}

/** The chosen locations of each monitor among `ids`, sorted; monitors without any are absent. */
export async function locationsOf(db: Db, ids: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('monitor_locations')
    .select(['monitor_id', 'location_id'])
    .where('monitor_id', 'in', ids)
    .orderBy('monitor_id')
    .orderBy('location_id')
    .execute();
  for (const r of rows) {
    const id = Number(r.monitor_id);
    const list = out.get(id) ?? [];
    list.push(r.location_id);
    out.set(id, list);
  }
  return out;
}

function rolled(r: LocationResultRow): RolledCheck {
  return {
    monitorId: r.monitorId,
    at: r.at,
    outcome: r.run.outcome,
    latencyUs: toUs(r.run.latencyMs),
    phasesUs: {
      dns: toUs(r.run.phases.dns),
      connect: toUs(r.run.phases.connect),
      tls: toUs(r.run.phases.tls),
      ttfb: toUs(r.run.phases.ttfb),
      download: toUs(r.run.phases.download),
    },
  };
}

function toResult(id: number, r: LocationResultRow): CheckResult {
  return {
    id,
    monitorId: r.monitorId,
    at: iso(r.at),
    outcome: r.run.outcome,
    latencyMs: r.run.latencyMs,
    phases: r.run.phases,
    httpStatus: r.run.httpStatus,
    errorCode: r.run.errorCode,
    errorMessage: r.run.errorMessage,
    responseSize: r.run.responseSize,
    certExpiresAt: isoOrNull(r.run.certExpiresAt),
  };
}

/** The sparkline as stored on the monitor row: [outcome code, µs] pairs. */
function decodeRecent(text: string | null): RecentEntry[] {
  if (!text) return [];
  const pairs = JSON.parse(text) as [number, number | null][];
  return pairs.map(([o, us]) => [decodeOutcome(o), toMs(us)]);
}
