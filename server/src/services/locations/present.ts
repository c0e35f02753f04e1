import { LOCAL_LOCATION_ID, type LocationView, type ProbeView } from '@pagewatch/contract';
import type {
  LocationRecord,
  ProbeRecord,
  ProbeTokenRecord,
} from '../../db/repositories/locations.js';
import { clockWarning, probeOnline } from '../../domain/locations.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentProbe(
  p: ProbeRecord,
  tokens: readonly ProbeTokenRecord[],
  now: number,
): ProbeView {
  return {
    id: p.id,
    locationId: p.locationId,
    name: p.name,
    createdAt: new Date(p.createdAt).toISOString(),
    online: probeOnline(p.lastHeartbeatAt, now),
    version: p.version,
    host: p.host,
    lastHeartbeatAt: iso(p.lastHeartbeatAt),
    clockOffsetMs: p.clockOffsetMs === null ? null : Math.round(p.clockOffsetMs),
    clockWarning: clockWarning(p.clockOffsetMs),
    load: p.load,
    latenessP99Ms: p.latenessP99Ms,
    spoolDepth: p.spoolDepth,
    spoolDropped: p.spoolDropped,
    tokens: tokens
      .filter((t) => t.probeId === p.id)
      .map((t) => ({
        id: t.id,
        prefix: t.prefix,
        createdAt: new Date(t.createdAt).toISOString(),
        expiresAt: iso(t.expiresAt),
      })),
  };
}

export function presentLocation(l: LocationRecord, probes: readonly ProbeView[]): LocationView {
  const builtIn = l.id === LOCAL_LOCATION_ID;
  return {
    id: l.id,
    name: l.name,
    region: l.region,
    latitude: l.latitude,
    longitude: l.longitude,
    createdAt: new Date(l.createdAt).toISOString(),
    builtIn,
    online: builtIn ? null : l.offlineSince === null && probes.some((p) => p.online),
    offlineSince: iso(l.offlineSince),
    probes: [...probes],
  };
}
