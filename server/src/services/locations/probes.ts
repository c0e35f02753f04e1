import {
  ProbeInput as ProbeInputSchema,
  ProbeRotateInput as ProbeRotateInputSchema,
  type ProbeInput,
  type ProbeRotateInput,
  type ProbeTokenCreated,
  LOCAL_LOCATION_ID,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { randomBase62, sha256 } from '../../lib/crypto.js';
import { conflict, notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { presentProbe } from './present.js';

type Deps = Pick<ServiceDeps, 'repos' | 'clock'>;

/** `pwp_` and 40 base62 characters; only its SHA-256 is stored. */
export const newProbeToken = (): string => `pwp_${randomBase62(40)}`;

/** The command that starts a probe, quoted for a POSIX shell where it needs to be. */
export function probeCommand(serverUrl: string, token: string): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return `npx pagewatch probe --server ${quote(serverUrl)} --token ${token}`;
}

async function issue(deps: Deps, probeId: number, serverUrl: string): Promise<ProbeTokenCreated> {
  const token = newProbeToken();
  const now = deps.clock.now();
  await deps.repos.locations.insertToken(probeId, sha256(token), token.slice(0, 10), now);
  const probe = await deps.repos.locations.findProbe(probeId);
  if (!probe) throw notFound('Probe');
  const tokens = await deps.repos.locations.tokens([probeId], now);
  return {
    probe: presentProbe(probe, tokens, now),
    token,
    command: probeCommand(serverUrl, token),
  };
}

/** A new probe of a remote location and its first token, shown once with the command. */
export async function createProbe(
  deps: Deps,
  ctx: RequestContext,
  locationId: string,
  raw: ProbeInput,
  serverUrl: string,
): Promise<ProbeTokenCreated> {
  const input = ProbeInputSchema.parse(raw);
  const location = await deps.repos.locations.find(locationId);
  if (!location) throw notFound('Location');
  if (locationId === LOCAL_LOCATION_ID) {
    throw conflict('The local location is the built-in scheduler; add a location for probes');
  }
  const id = await deps.repos.locations.insertProbe(locationId, input.name, deps.clock.now());
  const created = await issue(deps, id, serverUrl);
  await audit(
    deps,
    ctx,
    'probe.created',
    { type: 'probe', id },
    `Added probe "${input.name}" to location "${location.name}" (token ${created.token.slice(0, 10)}…)`,
  );
  return created;
}

/**
 * A new token for the probe; the ones it has keep working for the overlap, so the probe can
 * be restarted with the new one without missing a round.
 */
export async function rotateProbeToken(
  deps: Deps,
  ctx: RequestContext,
  probeId: number,
  raw: ProbeRotateInput,
  serverUrl: string,
): Promise<ProbeTokenCreated> {
  const input = ProbeRotateInputSchema.parse(raw);
  const probe = await deps.repos.locations.findProbe(probeId);
  if (!probe) throw notFound('Probe');
  await deps.repos.locations.expireTokens(probeId, deps.clock.now() + input.overlapSeconds * 1000);
  const created = await issue(deps, probeId, serverUrl);
  await audit(
    deps,
    ctx,
    'probe.token_rotated',
    { type: 'probe', id: probeId },
    `Rotated the token of probe "${probe.name}"; the old one works for ${input.overlapSeconds} s more`,
  );
  return created;
}

/** Revokes the probe and all its tokens; its open stream is closed within seconds. */
export async function revokeProbe(deps: Deps, ctx: RequestContext, probeId: number): Promise<void> {
  const probe = await deps.repos.locations.findProbe(probeId);
  if (!probe) throw notFound('Probe');
  await deps.repos.locations.revokeProbe(probeId, deps.clock.now());
  await audit(
    deps,
    ctx,
    'probe.revoked',
    { type: 'probe', id: probeId },
    `Revoked probe "${probe.name}"`,
  );
}
