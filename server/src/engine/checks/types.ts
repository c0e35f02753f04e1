export type { CheckRun } from '../../domain/check-run.js';
export { noPhases } from '../../domain/check-run.js';

export interface CheckContext {
  /** Aborted when the check must stop at once (shutdown, deadline). */
  signal: AbortSignal;
  /** When the check started, by the engine's clock (Date.now() when absent). */
  now?: number;
}
