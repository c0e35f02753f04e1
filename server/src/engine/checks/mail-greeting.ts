import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import type tls from 'node:tls';
import type { AssertionResult, CheckErrorCode, MailSecurity } from '@pagewatch/contract';
import { deliveredRun, failedRun, upgradeToTls } from './protocol-run.js';
import { CheckFailure, openConnection, RunState, type LookupFn } from './socket.js';
import type { CheckContext, CheckRun } from './types.js';
import { LineReader } from './smtp/lines.js';

/** A mailbox server check (IMAP, POP3): its greeting, then STARTTLS or TLS from the start. */
export interface MailGreetingSpec {
  host: string;
  port: number;
  security: MailSecurity;
  ignoreTrust: boolean;
  warnDays: number;
  timeoutMs: number;
  degradedThresholdMs: number | null;
  secureContext?: tls.SecureContext;
  lookup?: LookupFn;
}

/** How one protocol greets, asks for STARTTLS and says goodbye. */
export interface MailDialect {
  name: string;
  /** The greeting's verdict: null when it is a welcome, else why not. */
  refusal(line: string): string | null;
  /** The command asking for TLS, and whether an answer line grants it (null: not the answer yet). */
  startTls: { command: string; granted(line: string): boolean | null };
  goodbye: string;
}

const SHOWN = 200;
const shown = (text: string): string => (text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/**
 * Reads the greeting (over TLS from the first byte for `tls`), upgrades with the dialect's
 * STARTTLS for `starttls` with the certificate judged like a TLS monitor, and says goodbye.
 * No login is tried. Never throws, always closes the socket.
 */
export async function runMailGreetingCheck(
  spec: MailGreetingSpec,
  dialect: MailDialect,
  ctx: CheckContext,
): Promise<CheckRun> {
  const run = new RunState(spec.timeoutMs, ctx.signal);
  const assertions: AssertionResult[] = [];
  try {
    const host = spec.host.replace(/^\[(.*)\]$/, '$1');
    run.beginHop({ host, port: spec.port });
    const socket = await openConnection(
      { host, port: spec.port, secure: false },
      { ignoreTls: false, secureContext: undefined, lookup: spec.lookup },
      run,
    );
    let warning: { code: CheckErrorCode; message: string } | null = null;
    let stream: net.Socket = socket;
    if (spec.security === 'tls') {
      const upgraded = await upgradeToTls(socket, host, spec, run);
      ({ warning } = upgraded);
      stream = upgraded.secure;
    }
    run.phase = 'wait';
    run.hop.requestSent = performance.now();
    const lines = new LineReader(stream, run);
    const greeting = await lines.next();
    run.hop.firstByte = lines.firstByte;
    const refusal = dialect.refusal(greeting);
    assertions.push({
      kind: 'greeting',
      target: 'banner',
      expected: `a ${dialect.name} welcome`,
      actual: shown(greeting),
      passed: refusal === null,
      soft: false,
    });
    if (refusal !== null) {
      throw new CheckFailure(
        'protocol_error',
        `The server did not greet as ${dialect.name}: ${refusal}: “${shown(greeting)}”`,
      );
    }
    if (spec.security === 'starttls') {
      stream.write(`${dialect.startTls.command}\r\n`);
      for (;;) {
        const line = await lines.next();
        const granted = dialect.startTls.granted(line);
        if (granted === null) continue;
        if (!granted) {
          throw new CheckFailure(
            'capability_missing',
            `The server refused STARTTLS: “${shown(line)}”`,
          );
        }
        break;
      }
      lines.detach();
      const upgraded = await upgradeToTls(socket, host, spec, run);
      ({ warning } = upgraded);
      stream = upgraded.secure;
    }
    stream.write(`${dialect.goodbye}\r\n`);
    return deliveredRun(run, spec.degradedThresholdMs, { warning, assertions });
  } catch (err) {
    return failedRun(run, err, assertions);
  } finally {
    run.dispose();
  }
}
