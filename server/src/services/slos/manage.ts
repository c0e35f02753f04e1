import type { Slo, SloInput, SloList, SloListQuery } from '@pagewatch/contract';
import { SloInput as SloInputSchema } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { StoredSlo } from '../../db/repositories/slos.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { evaluateSlos, type FigureDeps } from './figures.js';
import { checkSubject, resolveSubjects } from './subjects.js';

type SloDeps = ServiceDeps & FigureDeps;
const iso = (ms: number) => new Date(ms).toISOString();

/** SLOs with their figures computed now, in the order given. */
async function present(deps: SloDeps, slos: StoredSlo[]): Promise<Slo[]> {
  const subjects = await resolveSubjects(deps, slos);
  const figures = await evaluateSlos(deps, slos, subjects);
  return slos.map((s) => ({
    id: s.id,
    name: s.name,
    subject: s.subject,
    subjectLabel: subjects.get(s.id)?.label ?? '',
    target: s.target,
    window: s.window,
    timeZone: s.timeZone,
    countDegraded: s.countDegraded,
    excludeMaintenance: s.excludeMaintenance,
    latency: s.latency,
    alerts: s.alerts,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    status: figures.get(s.id)!.status,
  }));
}

/** Every SLO, or those whose subject includes a monitor (the monitor page's card). */
export async function listSlos(deps: SloDeps, query: SloListQuery = {}): Promise<SloList> {
  let slos = await deps.repos.slos.list();
  if (query.monitorId !== undefined) {
    const subjects = await resolveSubjects(deps, slos);
    slos = slos.filter((s) => subjects.get(s.id)?.monitorIds.includes(query.monitorId!));
  }
  return { items: await present(deps, slos) };
}

export async function getSlo(deps: SloDeps, id: number): Promise<Slo> {
  const s = await deps.repos.slos.find(id);
  if (!s) throw notFound('SLO');
  return (await present(deps, [s]))[0]!;
}

/**
 * Stores a new SLO and audits it; its id. Without figures: an apply of configuration files
 * (ADR 74) writes many in one transaction and shows none.
 */
export async function storeNewSlo(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: SloInput,
): Promise<number> {
  const settings = SloInputSchema.parse(input);
  await checkSubject(deps, settings.subject);
  const id = await deps.repos.slos.create(settings, deps.clock.now());
  await audit(deps, ctx, 'slo.created', { type: 'slo', id }, `Created SLO “${settings.name}”`);
  return id;
}

/** Changes an SLO's definition and audits it, without figures (see storeNewSlo). */
export async function storeSlo(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: SloInput,
): Promise<void> {
  const settings = SloInputSchema.parse(input);
  await checkSubject(deps, settings.subject);
  if (!(await deps.repos.slos.update(id, settings, deps.clock.now()))) throw notFound('SLO');
  await audit(deps, ctx, 'slo.updated', { type: 'slo', id }, `Changed SLO “${settings.name}”`);
}

export async function createSlo(deps: SloDeps, ctx: RequestContext, input: SloInput): Promise<Slo> {
  return getSlo(deps, await storeNewSlo(deps, ctx, input));
}

export async function updateSlo(
  deps: SloDeps,
  ctx: RequestContext,
  id: number,
  input: SloInput,
): Promise<Slo> {
  await storeSlo(deps, ctx, id, input);
  return getSlo(deps, id);
}

export async function deleteSlo(deps: ServiceDeps, ctx: RequestContext, id: number): Promise<void> {
  const s = await deps.repos.slos.find(id);
  if (!s || !(await deps.repos.slos.remove(id))) throw notFound('SLO');
  await audit(deps, ctx, 'slo.deleted', { type: 'slo', id }, `Deleted SLO “${s.name}”`);
}
