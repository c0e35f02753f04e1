import type { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { AssertionResult, Certificate } from '@pagewatch/contract';
import { CheckFailure } from './errors.js';
import { cancelledFailure, HopTimer, timeoutFailure, type Endpoint, type Phase } from './timing.js';

/** Anything the check opened and must close: sockets, requests, responses, decompressors. */
export interface Destroyable {
  destroy(): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

function ignore(): void {
  // Errors of resources already given up on are expected and already accounted for.
}

/**
 * State of one check across its redirect hops: the deadline, the pending phase (which decides
 * the timeout code) and every resource opened, so nothing outlives the check.
 */
export class RunState {
  readonly start = performance.now();
  phase: Phase = 'dns';
  hop = new HopTimer();
  endpoint: Endpoint = { host: '', port: 0 };
  status: number | null = null;
  /** Body bytes received so far for the current response. */
  responseSize: number | null = null;
  certExpiresAt: number | null = null;
  /** The certificate shown for the check: across redirects, the one expiring first. */
  certificate: Certificate | null = null;
  /** How that certificate was judged, for checks that list it (protocol checks over TLS). */
  certificateAssertions: AssertionResult[] | null = null;
  private readonly controller = new AbortController();
  private readonly resources = new Set<Destroyable>();
  private readonly timer: NodeJS.Timeout;
  private readonly onExternalAbort = (): void => this.fail(cancelledFailure(this.phase));
  private disposed = false;

  constructor(
    timeoutMs: number,
    private readonly external: AbortSignal,
  ) {
    this.timer = setTimeout(
      () => this.fail(timeoutFailure(this.phase, timeoutMs, this.endpoint)),
      timeoutMs,
    );
    if (external.aborted) this.onExternalAbort();
    else external.addEventListener('abort', this.onExternalAbort, { once: true });
  }

  /** Aborted (with a CheckFailure as reason) when the deadline fires or the caller cancels. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts timing a new connection; earlier hops' resources are released. */
  beginHop(endpoint: Endpoint): HopTimer {
    this.releaseAll();
    this.hop = new HopTimer();
    this.endpoint = endpoint;
    this.status = null;
    this.responseSize = null;
    return this.hop;
  }

  /** Throws the deadline's failure once it fired, so no new work starts after it. */
  throwIfStopped(): void {
    if (this.signal.aborted) throw this.signal.reason as CheckFailure;
  }

  /** Registers a resource for cleanup; one opened after the end is closed at once. */
  track<T extends Destroyable>(resource: T): T {
    resource.on('error', ignore);
    if (this.disposed) resource.destroy();
    else this.resources.add(resource);
    return resource;
  }

  noteCertificate(certificate: Certificate | null): void {
    // Across redirects, the certificate that expires first is the one that breaks delivery first.
    if (certificate === null) return;
    this.certificate ??= certificate;
    const expiresAt = certificate.notAfter === null ? null : Date.parse(certificate.notAfter);
    if (expiresAt === null) return;
    if (this.certExpiresAt === null || expiresAt < this.certExpiresAt) {
      this.certExpiresAt = expiresAt;
      this.certificate = certificate;
    }
  }

  /** Milliseconds since the check started. */
  elapsed(): number {
    return performance.now() - this.start;
  }

  /** Clears the deadline and the caller's abort listener and closes everything still open. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.external.removeEventListener('abort', this.onExternalAbort);
    this.releaseAll();
  }

  private fail(failure: { code: CheckFailure['code']; message: string }): void {
    if (this.signal.aborted) return;
    this.controller.abort(CheckFailure.from(failure));
    this.releaseAll();
  }

  private releaseAll(): void {
    // Newest first: a TLS socket must be destroyed before the TCP socket it wraps (the reverse
    // order frees the stream under the TLS wrap and crashes Node 20).
    for (const resource of [...this.resources].reverse()) resource.destroy();
    this.resources.clear();
  }
}

/**
 * Resolves with the arguments of `event`; rejects on 'error', on a 'close' before it, or with the
 * run's failure when the deadline fires. Listeners are removed either way.
 */
export function waitFor(run: RunState, emitter: EventEmitter, event: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const { signal } = run;
    if (signal.aborted) {
      reject(signal.reason as CheckFailure);
      return;
    }
    const cleanup = (): void => {
      emitter.off(event, onEvent);
      emitter.off('error', onError);
      emitter.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
    };
    const onEvent = (...args: unknown[]): void => {
      cleanup();
      resolve(args);
    };
    const onError = (err: unknown): void => {
      cleanup();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    const onClose = (): void => {
      cleanup();
      reject(Object.assign(new Error('The connection was closed'), { code: 'ECONNRESET' }));
    };
    const onAbort = (): void => {
      cleanup();
      reject(signal.reason as CheckFailure);
    };
    emitter.on(event, onEvent);
    emitter.on('error', onError);
    if (event !== 'close') emitter.on('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles like `promise`, or rejects with the run's failure as soon as the deadline fires. */
export function untilStopped<T>(run: RunState, promise: Promise<T>): Promise<T> {
  const { signal } = run;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as CheckFailure);
    // Handlers go on `promise` even when already stopped, so its later rejection is handled.
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
