import type { MonitorInput, MonitorTrialResult } from '@pagewatch/contract';
import type { CheckRun } from '../../domain/check-run.js';
import { splitInput, type MonitorRecord } from '../../domain/monitor.js';
import { conflict, notFound, unavailable } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { sealCredentials } from './credentials.js';
import { sealHeaders } from './request-headers.js';

/** Beyond the monitor's own timeout, how long a trial may take before it is cut off. */
const GRACE_MS = 5_000;

/**
 * Runs the check of a definition not saved yet, once, and stores nothing. With an id, the
 * credentials and secret headers left out are the stored ones, as an update would keep them.
 */
export async function trialCheck(
  deps: ServiceDeps,
  id: number | null,
  input: MonitorInput,
): Promise<MonitorTrialResult> {
  if (input.type === 'push')
    throw conflict('A push monitor is checked by the pings its job sends; there is nothing to run');
  const before = id === null ? null : await deps.repos.monitors.findById(id);
  if (id !== null && !before) throw notFound('Monitor');
  if (!deps.trialCheck) throw unavailable('This process runs no checks; try again shortly');
  const headers = sealHeaders(input, before, deps.secrets);
  const sealed = sealCredentials(headers.input, before, deps.secrets);
  const { common, settings } = splitInput(sealed.input);
  const now = deps.clock.now();
  const draft: MonitorRecord = {
    ...common,
    id: id ?? 0,
    type: input.type,
    settings,
    state: { status: 'pending', failures: 0 },
    statusChangedAt: null,
    lastCheck: null,
    recent: [],
    secret: sealed.secret,
    headerSecrets: headers.headerSecrets,
    createdAt: now,
    updatedAt: now,
  };
  const run = await deps.trialCheck(draft, AbortSignal.timeout(input.timeout * 1000 + GRACE_MS));
  return present(run);
}

const present = (run: CheckRun): MonitorTrialResult => ({
  outcome: run.outcome,
  latencyMs: run.latencyMs,
  phases: run.phases,
  httpStatus: run.httpStatus,
  errorCode: run.errorCode,
  errorMessage: run.errorMessage,
  responseSize: run.responseSize,
  details: run.details ?? { certificate: null, assertions: [] },
});
