import type { IncidentBulkResolve, IncidentBulkResult } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { AppError } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { postIncidentUpdate } from './post-update.js';

/**
 * Resolves each incident with the same closing update, one after the other (each is its own
 * timeline entry, audit line and subscriber notice). Ones resolved or deleted meanwhile are
 * reported, not failed: the rest still go through.
 */
export async function resolveIncidents(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: IncidentBulkResolve,
): Promise<IncidentBulkResult> {
  const result: IncidentBulkResult = { resolved: [], alreadyResolved: [], notFound: [] };
  for (const id of [...new Set(input.ids)]) {
    const current = await deps.repos.incidents.findById(id);
    if (!current) {
      result.notFound.push(id);
      continue;
    }
    if (current.state === 'resolved') {
      result.alreadyResolved.push(id);
      continue;
    }
    try {
      await postIncidentUpdate(deps, ctx, id, {
        state: 'resolved',
        message: input.message,
        public: input.public,
      });
      result.resolved.push(id);
    } catch (err) {
      if (!(err instanceof AppError) || err.type !== 'not_found') throw err;
      result.notFound.push(id);
    }
  }
  return result;
}
