import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.js';

export interface LocationRecord {
  id: string;
  name: string;
  region: string | null;
  latitude: number | null;
  longitude: number | null;
  createdAt: number;
  offlineSince: number | null;
  offlineIncidentId: number | null;
}

export interface ProbeRecord {
  id: number;
  locationId: string;
  name: string;
  createdAt: number;
  version: string | null;
  host: string | null;
  lastHeartbeatAt: number | null;
  clockOffsetMs: number | null;
  load: number | null;
  latenessP99Ms: number | null;
  spoolDepth: number | null;
  spoolDropped: number | null;
}

export interface ProbeTokenRecord {
  id: number;
  probeId: number;
  prefix: string;
  createdAt: number;
  expiresAt: number | null;
}

/** Who a probe token belongs to, for authenticating a probe's request. */
export interface ProbePrincipal {
  tokenId: number;
  probeId: number;
  locationId: string;
  expiresAt: number | null;
}

/** A monitor checked at a location, as the assignment feed compares it between polls. */
export interface AssignedMonitor {
  id: number;
  type: string;
  intervalS: number;
  timeoutS: number;
  updatedAt: number;
}

export interface ProbeStats {
  version: string;
  host: string | null;
  clockOffsetMs: number | null;
  load: number;
  latenessP99Ms: number | null;
  spoolDepth: number;
  spoolDropped: number;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

const locationColumns = [
  'id',
  'name',
  'region',
  'latitude',
  'longitude',
  'created_at',
  'offline_since',
  'offline_incident_id',
] as const;

const probeColumns = [
  'id',
  'location_id',
  'name',
  'created_at',
  'version',
  'host',
  'last_heartbeat_at',
  'clock_offset_ms',
  'load',
  'lateness_p99_ms',
  'spool_depth',
  'spool_dropped',
] as const;

/** Locations, their probes and the probes' tokens (migration 039, ADR 56). */
export function locationsRepository(db: Kysely<DB>) {
  const toLocation = (r: {
    id: string;
    name: string;
    region: string | null;
    latitude: number | null;
    longitude: number | null;
    created_at: number;
    offline_since: number | null;
    offline_incident_id: number | null;
  }): LocationRecord => ({
    id: r.id,
    name: r.name,
    region: r.region,
    latitude: num(r.latitude),
    longitude: num(r.longitude),
    createdAt: Number(r.created_at),
    offlineSince: num(r.offline_since),
    offlineIncidentId: num(r.offline_incident_id),
  });
  const toProbe = (r: {
    id: number;
    location_id: string;
    name: string;
    created_at: number;
    version: string | null;
    host: string | null;
    last_heartbeat_at: number | null;
    clock_offset_ms: number | null;
    load: number | null;
    lateness_p99_ms: number | null;
    spool_depth: number | null;
    spool_dropped: number | null;
  }): ProbeRecord => ({
    id: Number(r.id),
    locationId: r.location_id,
    name: r.name,
    createdAt: Number(r.created_at),
    version: r.version,
    host: r.host,
    lastHeartbeatAt: num(r.last_heartbeat_at),
    clockOffsetMs: num(r.clock_offset_ms),
    load: num(r.load),
    latenessP99Ms: num(r.lateness_p99_ms),
    spoolDepth: num(r.spool_depth),
    spoolDropped: num(r.spool_dropped),
  });

  return {
    async list(): Promise<LocationRecord[]> {
      const rows = await db
        .selectFrom('locations')
        .select(locationColumns)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toLocation);
    },

    async find(id: string): Promise<LocationRecord | null> {
      const row = await db
        .selectFrom('locations')
        .select(locationColumns)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toLocation(row) : null;
    },

    async findByName(name: string): Promise<LocationRecord | null> {
      const row = await db
        .selectFrom('locations')
        .select(locationColumns)
        .where('name', '=', name)
        .executeTakeFirst();
      return row ? toLocation(row) : null;
    },

    async insert(l: Omit<LocationRecord, 'offlineSince' | 'offlineIncidentId'>): Promise<void> {
      await db
        .insertInto('locations')
        .values({
          id: l.id,
          name: l.name,
          region: l.region,
          latitude: l.latitude,
          longitude: l.longitude,
          created_at: l.createdAt,
        })
        .execute();
    },

    async update(
      id: string,
      l: Pick<LocationRecord, 'name' | 'region' | 'latitude' | 'longitude'>,
    ): Promise<boolean> {
      const r = await db
        .updateTable('locations')
        .set({ name: l.name, region: l.region, latitude: l.latitude, longitude: l.longitude })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async remove(id: string): Promise<boolean> {
      const r = await db.deleteFrom('locations').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** Marks a location offline (once: false when another process already did). */
    async markOffline(id: string, since: number): Promise<boolean> {
      const r = await db
        .updateTable('locations')
        .set({ offline_since: since })
        .where('id', '=', id)
        .where('offline_since', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async setOfflineIncident(id: string, incidentId: number): Promise<void> {
      await db
        .updateTable('locations')
        .set({ offline_incident_id: incidentId })
        .where('id', '=', id)
        .execute();
    },

    /** Marks a location back online; the incident it had (if any), once. */
    async markOnline(id: string): Promise<{ incidentId: number | null } | null> {
      const row = await db
        .selectFrom('locations')
        .select(['offline_since', 'offline_incident_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || row.offline_since === null) return null;
      const r = await db
        .updateTable('locations')
        .set({ offline_since: null, offline_incident_id: null })
        .where('id', '=', id)
        .where('offline_since', '=', row.offline_since)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return null;
      return { incidentId: num(row.offline_incident_id) };
    },

    async probes(locationId?: string): Promise<ProbeRecord[]> {
      let q = db.selectFrom('probes').select(probeColumns).where('revoked_at', 'is', null);
      if (locationId !== undefined) q = q.where('location_id', '=', locationId);
      return (await q.orderBy('id').execute()).map(toProbe);
    },

    async findProbe(id: number): Promise<ProbeRecord | null> {
      const row = await db
        .selectFrom('probes')
        .select(probeColumns)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row ? toProbe(row) : null;
    },

    async insertProbe(locationId: string, name: string, now: number): Promise<number> {
      const row = await db
        .insertInto('probes')
        .values({ location_id: locationId, name, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    /** Revokes a probe and every token it has. */
    async revokeProbe(id: number, now: number): Promise<boolean> {
      await db
        .updateTable('probe_tokens')
        .set({ revoked_at: now })
        .where('probe_id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
      const r = await db
        .updateTable('probes')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async insertToken(probeId: number, hash: string, prefix: string, now: number): Promise<void> {
      await db
        .insertInto('probe_tokens')
        .values({ probe_id: probeId, token_hash: hash, prefix, created_at: now })
        .execute();
    },

    /** Gives the probe's live tokens without an end an end (a rotation's overlap). */
    async expireTokens(probeId: number, at: number): Promise<void> {
      await db
        .updateTable('probe_tokens')
        .set({ expires_at: at })
        .where('probe_id', '=', probeId)
        .where('revoked_at', 'is', null)
        .where('expires_at', 'is', null)
        .execute();
    },

    /** Live tokens (not revoked, not past their end) of these probes. */
    async tokens(probeIds: readonly number[], now: number): Promise<ProbeTokenRecord[]> {
      if (probeIds.length === 0) return [];
      const rows = await db
        .selectFrom('probe_tokens')
        .select(['id', 'probe_id', 'prefix', 'created_at', 'expires_at'])
        .where('probe_id', 'in', [...probeIds])
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        probeId: Number(r.probe_id),
        prefix: r.prefix,
        createdAt: Number(r.created_at),
        expiresAt: num(r.expires_at),
      }));
    },

    /** The live token with this hash and whose it is; null when unknown, revoked or expired. */
    async principal(hash: string, now: number): Promise<ProbePrincipal | null> {
      const row = await db
        .selectFrom('probe_tokens')
        .innerJoin('probes', 'probes.id', 'probe_tokens.probe_id')
        .select([
          'probe_tokens.id as token_id',
          'probe_tokens.probe_id',
          'probes.location_id',
          'probe_tokens.expires_at',
        ])
        .where('probe_tokens.token_hash', '=', hash)
        .where('probe_tokens.revoked_at', 'is', null)
        .where('probes.revoked_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('probe_tokens.expires_at', 'is', null),
            eb('probe_tokens.expires_at', '>', now),
          ]),
        )
        .executeTakeFirst();
      if (!row) return null;
      return {
        tokenId: Number(row.token_id),
        probeId: Number(row.probe_id),
        locationId: row.location_id,
        expiresAt: num(row.expires_at),
      };
    },

    async heartbeat(probeId: number, stats: ProbeStats, now: number): Promise<void> {
      await db
        .updateTable('probes')
        .set({
          version: stats.version,
          host: stats.host,
          last_heartbeat_at: now,
          clock_offset_ms: stats.clockOffsetMs,
          load: stats.load,
          lateness_p99_ms: stats.latenessP99Ms,
          spool_depth: stats.spoolDepth,
          spool_dropped: stats.spoolDropped,
        })
        .where('id', '=', probeId)
        .execute();
    },

    /**
     * Active monitors checked at a remote location (`monitor_locations`, migration 041). Read
     * with plain SQL: that table is the quorum's (its shape is ADR 58's).
     */
    async monitorsAt(locationId: string): Promise<AssignedMonitor[]> {
      const { rows } = await sql<{
        id: number;
        type: string;
        interval_s: number;
        timeout_s: number;
        updated_at: number;
      }>`select m.id, m.type, m.interval_s, m.timeout_s, m.updated_at
         from monitor_locations ml join monitors m on m.id = ml.monitor_id
         where ml.location_id = ${locationId} and m.paused = 0
         order by m.id`.execute(db);
      return rows.map((r) => ({
        id: Number(r.id),
        type: r.type,
        intervalS: Number(r.interval_s),
        timeoutS: Number(r.timeout_s),
        updatedAt: Number(r.updated_at),
      }));
    },

    /** Probes of a location heard from since `since` (the pool sharing its monitors). */
    async liveProbeIds(locationId: string, since: number): Promise<number[]> {
      const rows = await db
        .selectFrom('probes')
        .select('id')
        .where('location_id', '=', locationId)
        .where('revoked_at', 'is', null)
        .where('last_heartbeat_at', '>=', since)
        .orderBy('id')
        .execute();
      return rows.map((r) => Number(r.id));
    },
  };
}

export type LocationsRepository = ReturnType<typeof locationsRepository>;
