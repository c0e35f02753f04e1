import dns, { type LookupAddress } from 'node:dns';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { describeCertificate } from '../certificate.js';
import { tlsVerifyFailure } from './errors.js';
import { untilStopped, waitFor, type RunState } from './run.js';
import type { Endpoint } from './timing.js';

/** 4 or 6 to resolve one address family only; 0 for both. */
export type Family = 0 | 4 | 6;

/**
 * Resolves a hostname to addresses; replaceable to pin or filter addresses (and in tests). It may
 * ignore `family`: addresses of another family are dropped after it answers.
 */
export type LookupFn = (hostname: string, family: Family) => Promise<LookupAddress[]>;

export interface Target extends Endpoint {
  secure: boolean;
}

export interface ConnectOptions {
  ignoreTls: boolean;
  /** From secureContextFor(); undefined for Node's default roots. */
  secureContext: tls.SecureContext | undefined;
  lookup: LookupFn | undefined;
  /** Address family to connect over; 0 (any) when left out. */
  family?: Family;
  /** ALPN protocols offered in the TLS handshake; `http/1.1` when left out (gRPC asks for h2). */
  alpn?: string[];
}

const defaultLookup: LookupFn = (hostname, family) =>
  dns.promises.lookup(hostname, { all: true, family });

/** Refusals worth trying the host's next address for (e.g. a service listening on IPv4 only). */
const NEXT_ADDRESS_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/**
 * Opens the connection for one hop step by step (lookup, TCP, TLS) so each phase is timed on its
 * own and the request is only written once the certificate has been judged.
 */
export async function openConnection(
  target: Target,
  options: ConnectOptions,
  run: RunState,
): Promise<net.Socket> {
  const timer = run.hop;
  let addresses = [target.host];
  if (net.isIP(target.host) === 0) {
    run.phase = 'dns';
    addresses = await resolve(target.host, options, run);
    timer.dnsEnd = performance.now();
  }
  run.phase = 'connect';
  const socket = await connectFirst(addresses, target.port, run);
  timer.connectEnd = performance.now();
  if (!target.secure) return socket;
  run.phase = 'tls';
  return handshake(socket, target, options, run);
}

async function resolve(host: string, options: ConnectOptions, run: RunState): Promise<string[]> {
  const lookup = options.lookup ?? defaultLookup;
  const family = options.family ?? 0;
  const found = (await untilStopped(run, lookup(host, family))).filter(
    (entry) => family === 0 || entry.family === family,
  );
  if (found.length === 0) {
    const which = family === 0 ? '' : ` IPv${family}`;
    throw Object.assign(new Error(`No${which} addresses for ${host}`), { code: 'ENOTFOUND' });
  }
  return found.map((entry) => entry.address);
}

async function connectFirst(addresses: string[], port: number, run: RunState): Promise<net.Socket> {
  for (let i = 0; ; i++) {
    run.throwIfStopped();
    const address = addresses[i] ?? '';
    const socket = run.track(net.connect({ host: address, port, noDelay: true }));
    try {
      await waitFor(run, socket, 'connect');
      return socket;
    } catch (err) {
      socket.destroy();
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (i + 1 >= addresses.length || !NEXT_ADDRESS_CODES.has(code)) throw err;
    }
  }
}

async function handshake(
  socket: net.Socket,
  target: Target,
  options: ConnectOptions,
  run: RunState,
): Promise<tls.TLSSocket> {
  run.throwIfStopped();
  const secure = run.track(
    tls.connect({
      socket,
      host: target.host,
      // SNI must not carry an IP address (RFC 6066 §3).
      servername: net.isIP(target.host) === 0 ? target.host : undefined,
      // Verified below instead, so the certificate is captured even when it is rejected.
      rejectUnauthorized: false,
      secureContext: options.secureContext,
      ALPNProtocols: options.alpn ?? ['http/1.1'],
    }),
  );
  await waitFor(run, secure, 'secureConnect');
  run.hop.tlsEnd = performance.now();
  const certificate = describeCertificate(secure);
  run.noteCertificate(certificate);
  if (!secure.authorized && !options.ignoreTls) {
    const reason = secure.authorizationError as Error | string | undefined;
    throw tlsVerifyFailure(
      String(reason ?? 'UNKNOWN'),
      {
        validTo: certificate?.notAfter ?? null,
        // The names it is valid for say most about a host name mismatch.
        subject:
          certificate === null
            ? null
            : certificate.sans.length > 0
              ? certificate.sans.join(', ')
              : certificate.subject,
        issuer: certificate?.issuer ?? null,
      },
      target.host,
    );
  }
  return secure;
}

const MAX_CONTEXTS = 32;
const contexts = new Map<string, tls.SecureContext>();

/** Node's roots plus the monitor's private CAs; cached because parsing ~150 roots costs ms per check. */
export function secureContextFor(ca: readonly string[] | undefined): tls.SecureContext | undefined {
  if (ca === undefined || ca.length === 0) return undefined;
  const key = ca.join('\n');
  let context = contexts.get(key);
  if (context === undefined) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, ...ca] });
    const oldest = contexts.keys().next();
    if (contexts.size >= MAX_CONTEXTS && oldest.done !== true) contexts.delete(oldest.value);
    contexts.set(key, context);
  }
  return context;
}
