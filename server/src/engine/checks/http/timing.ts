import { performance } from 'node:perf_hooks';
import type { CheckErrorCode, Phases } from '@pagewatch/contract';

/** The step a check is in; decides which code a deadline maps to. */
export type Phase = 'dns' | 'connect' | 'tls' | 'wait' | 'download';

/** Rounds a duration to 0.001 ms so stored values do not carry float noise. */
export function roundMs(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function span(from: number | null, to: number | null): number | null {
  return from === null || to === null ? null : roundMs(Math.max(0, to - from));
}

/** performance.now() marks of one connection (one hop of a redirect chain). */
export class HopTimer {
  readonly start = performance.now();
  /** Null for IP-literal hosts: no lookup happened. */
  dnsEnd: number | null = null;
  connectEnd: number | null = null;
  tlsEnd: number | null = null;
  requestSent: number | null = null;
  firstByte: number | null = null;
  bodyEnd: number | null = null;

  phases(): Phases {
    // A server may answer before it has read the whole request body; never report negative waits.
    const sent =
      this.requestSent !== null && this.firstByte !== null
        ? Math.min(this.requestSent, this.firstByte)
        : this.requestSent;
    return {
      dns: span(this.start, this.dnsEnd),
      connect: span(this.dnsEnd ?? this.start, this.connectEnd),
      tls: span(this.connectEnd, this.tlsEnd),
      ttfb: span(sent, this.firstByte),
      download: span(this.firstByte, this.bodyEnd),
    };
  }
}

export interface Failure {
  code: CheckErrorCode;
  message: string;
}

/** Where the check was talking to, for messages. */
export interface Endpoint {
  host: string;
  port: number;
}

/** The code and message for a deadline that fired while `phase` was pending. */
export function timeoutFailure(phase: Phase, timeoutMs: number, at: Endpoint): Failure {
  const within = `within ${timeoutMs} ms`;
  switch (phase) {
    case 'dns':
      return { code: 'dns_timeout', message: `DNS lookup for ${at.host} did not finish ${within}` };
    case 'connect':
      return {
        code: 'connect_timeout',
        message: `TCP connection to ${at.host}:${at.port} was not established ${within}`,
      };
    case 'tls':
      return {
        code: 'timeout',
        message: `TLS handshake with ${at.host}:${at.port} did not finish ${within}`,
      };
    case 'wait':
      return { code: 'timeout', message: `No response from ${at.host} ${within}` };
    case 'download':
      return { code: 'timeout', message: `The response body did not finish downloading ${within}` };
  }
}

const PHASE_LABEL: Record<Phase, string> = {
  dns: 'the DNS lookup',
  connect: 'the TCP connection',
  tls: 'the TLS handshake',
  wait: 'the wait for a response',
  download: 'the download of the body',
};

/** A check stopped from outside (shutdown, cancellation) reports as a timeout. */
export function cancelledFailure(phase: Phase): Failure {
  return { code: 'timeout', message: `The check was stopped during ${PHASE_LABEL[phase]}` };
}
