import type {
  BrowserMeasurements,
  CheckDetails,
  CheckErrorCode,
  CheckOutcome,
  Phases,
} from '@pagewatch/contract';

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
  /** What a browser check measured, stored beside the result (own table, keyed by result id). */
  browser?: BrowserEvidence;
}

export interface BrowserEvidence {
  measurements: BrowserMeasurements;
  /** JPEG of the viewport; kept for failures and the latest success. */
  screenshot: Uint8Array | null;
}

export const noPhases: Phases = { dns: null, connect: null, tls: null, ttfb: null, download: null };
