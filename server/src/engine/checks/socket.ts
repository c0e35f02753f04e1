/**
 * The socket-level machinery of the HTTP check (deadline and cleanup, lookup and connect with
 * phase timing, error mapping) shared by the other socket checks, so each times and fails alike.
 */
export { degradedMessage } from './http/assess.js';
export { openConnection, type LookupFn } from './http/connect.js';
export { CheckFailure, classifyError } from './http/errors.js';
export { RunState } from './http/run.js';
export { roundMs } from './http/timing.js';
