import type { Correction, CorrectionInput } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { CorrectionRecord } from '../../db/repositories/availability.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { getMonitor } from '../monitors/get.js';

const iso = (ms: number) => new Date(ms).toISOString();

export const presentCorrection = (c: CorrectionRecord): Correction => ({
  id: c.id,
  monitorId: c.monitorId,
  startsAt: iso(c.startsAt),
  endsAt: iso(c.endsAt),
  reason: c.reason,
  createdBy: c.createdBy,
  createdAt: iso(c.createdAt),
});

/** A monitor's corrections, newest first. */
export async function listCorrections(deps: ServiceDeps, monitorId: number): Promise<Correction[]> {
  await getMonitor(deps, monitorId);
  const list = await deps.repos.availability.corrections([monitorId], 0, Number.MAX_SAFE_INTEGER);
  return list.reverse().map(presentCorrection);
}

/**
 * Leaves a period out of a monitor's availability from now on, in every figure and report
 * (they are computed, not stored); audited with its reason.
 */
export async function addCorrection(
  deps: ServiceDeps,
  ctx: RequestContext,
  monitorId: number,
  input: CorrectionInput,
): Promise<Correction> {
  const monitor = await getMonitor(deps, monitorId);
  const record = {
    monitorId,
    startsAt: Date.parse(input.startsAt),
    endsAt: Date.parse(input.endsAt),
    reason: input.reason,
    createdBy: ctx.actor.type === 'anonymous' ? 'anonymous' : ctx.actor.label,
    createdAt: deps.clock.now(),
  };
  const id = await deps.repos.availability.insertCorrection(record);
  await audit(
    deps,
    ctx,
    'monitor.correction_added',
    { type: 'monitor', id: monitorId },
    `Left ${input.startsAt} – ${input.endsAt} out of "${monitor.name}": ${input.reason}`,
  );
  return presentCorrection({ id, ...record });
}

export async function removeCorrection(
  deps: ServiceDeps,
  ctx: RequestContext,
  monitorId: number,
  correctionId: number,
): Promise<void> {
  const monitor = await getMonitor(deps, monitorId);
  const c = await deps.repos.availability.correction(correctionId);
  if (!c || c.monitorId !== monitorId) throw notFound('Correction');
  await deps.repos.availability.removeCorrection(correctionId);
  await audit(
    deps,
    ctx,
    'monitor.correction_removed',
    { type: 'monitor', id: monitorId },
    `Removed the correction ${iso(c.startsAt)} – ${iso(c.endsAt)} of "${monitor.name}" (${c.reason})`,
  );
}
