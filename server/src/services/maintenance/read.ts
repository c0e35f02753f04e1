import type {
  MaintenancePreview,
  MaintenancePreviewInput,
  MaintenanceState,
  MaintenanceWindow,
} from '@pagewatch/contract';
import { Timeline, UPCOMING } from '../../domain/maintenance/occurrences.js';
import { timingErrors } from '../../domain/maintenance/validate.js';
import { notFound, validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { presentOccurrence, presentWindow } from './present.js';

const stateOrder: Record<MaintenanceState, number> = {
  active: 0,
  scheduled: 1,
  ended: 2,
  cancelled: 3,
};

/** Windows by state (active first), then by when they next start, newest ended first. */
export async function listWindows(
  deps: ServiceDeps,
  state?: MaintenanceState,
): Promise<MaintenanceWindow[]> {
  const now = deps.clock.now();
  const all = (await deps.repos.maintenance.list()).map((w) => presentWindow(w, now));
  const next = (w: MaintenanceWindow) => w.nextOccurrences[0]?.startsAt ?? '';
  return all
    .filter((w) => state === undefined || w.state === state)
    .sort(
      (a, b) =>
        stateOrder[a.state] - stateOrder[b.state] ||
        (a.state === 'ended' || a.state === 'cancelled'
          ? b.updatedAt.localeCompare(a.updatedAt)
          : next(a).localeCompare(next(b))) ||
        a.id - b.id,
    );
}

export async function getWindow(deps: ServiceDeps, id: number): Promise<MaintenanceWindow> {
  const w = await deps.repos.maintenance.findById(id);
  if (!w) throw notFound('Maintenance window');
  return presentWindow(w, deps.clock.now());
}

/** The next occurrences of an unsaved schedule, for the form to show as it is typed. */
export async function previewWindow(
  deps: ServiceDeps,
  input: MaintenancePreviewInput,
): Promise<MaintenancePreview> {
  const errors = timingErrors(input);
  if (errors.length > 0) throw validationFailed(errors);
  const now = deps.clock.now();
  const timeline = new Timeline(input);
  return {
    state: timeline.state(now, false),
    occurrences: timeline.upcoming(now, UPCOMING).map(presentOccurrence),
  };
}
