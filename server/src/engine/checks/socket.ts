/**
 * The socket-level machinery of the HTTP check (deadline and cleanup, lookup and connect with
 * phase timing, error mapping) shared by the other socket checks, so each times and fails alike.
 */
export { degradedMessage } from './http/assess.js';
export { openConnection, secureContextFor, type LookupFn } from './http/connect.js';
export { CheckFailure, classifyError, tlsVerifyFailure } from './http/errors.js';
export { RunState, untilStopped, waitFor } from './http/run.js';
export { roundMs } from './http/timing.js';
