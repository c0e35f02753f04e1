import type { CheckDetails, CheckErrorCode, CheckOutcome, Phases } from '@pagewatch/contract';

/** What one check observed; never thrown, always returned. */
export interface CheckRun {
  outcome: CheckOutcome;
  /** Total time from start to the end of the response, ms; null when nothing was timed. */
  latencyMs: number | null;
  phases: Phases;
  httpStatus: number | null;
  errorCode: CheckErrorCode | null;
  errorMessage: string | null;
  responseSize: number | null;
  /** Epoch ms of the peer certificate's notAfter, on TLS connections. */
  certExpiresAt: number | null;
  /** The certificate and assertion results, shown for the monitor's last check. */
  details?: CheckDetails;
}

export const noPhases: Phases = { dns: null, connect: null, tls: null, ttfb: null, download: null };
