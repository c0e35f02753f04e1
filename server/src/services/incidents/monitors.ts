import { validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/** Refuses monitor ids that name no monitor, field by field. */
export async function checkMonitorsExist(deps: ServiceDeps, ids: readonly number[]): Promise<void> {
  const found = await deps.repos.incidents.existingMonitors(ids);
  const errors = ids.flatMap((id, i) =>
    found.has(id)
      ? []
      : [{ path: `monitorIds.${i}`, message: `There is no monitor ${id}`, code: 'not_found' }],
  );
  if (errors.length > 0) throw validationFailed(errors);
}
