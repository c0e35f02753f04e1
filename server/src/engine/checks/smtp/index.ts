import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import type tls from 'node:tls';
import type { AssertionResult, CheckErrorCode, MailSecurity } from '@pagewatch/contract';
import { deliveredRun, failedRun, upgradeToTls } from '../protocol-run.js';
import { CheckFailure, openConnection, RunState, type LookupFn } from '../socket.js';
import type { CheckContext, CheckRun } from '../types.js';
import { LineReader } from './lines.js';

export interface SmtpCheckSpec {
  host: string;
  port: number;
  security: MailSecurity;
  ignoreTrust: boolean;
  warnDays: number;
  /** The EHLO name; '' for pagewatch.invalid. */
  ehloName: string;
  /** EHLO extensions that must be offered (after STARTTLS when it is used). */
  capabilities: string[];
  timeoutMs: number;
  degradedThresholdMs: number | null;
  secureContext?: tls.SecureContext;
  lookup?: LookupFn;
}

/** An SMTP reply: its code and the text of each line. */
interface Reply {
  code: number;
  lines: string[];
}

const SHOWN = 200;
const shown = (text: string): string => (text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/**
 * Reads the greeting, says EHLO, upgrades per `security` (STARTTLS, or TLS from the first
 * byte) with the certificate judged like a TLS monitor, and checks the offered extensions.
 * Sends no mail; never throws, always closes the socket.
 */
export async function runSmtpCheck(spec: SmtpCheckSpec, ctx: CheckContext): Promise<CheckRun> {
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
    // The server speaks first: the wait for its greeting is the time to first byte.
    run.hop.requestSent = performance.now();
    let lines = new LineReader(stream, run);
    const greeting = await reply(lines);
    run.hop.firstByte = lines.firstByte;
    assertions.push(greetingAssertion(greeting));
    if (greeting.code !== 220) {
      throw new CheckFailure(
        'protocol_error',
        `The server greeted with ${greeting.code} instead of 220: “${shown(greeting.lines.join(' '))}”`,
      );
    }
    const ehlo = `EHLO ${spec.ehloName || 'pagewatch.invalid'}\r\n`;
    stream.write(ehlo);
    let offered = extensions(await expect250(lines, 'EHLO'));
    if (spec.security === 'starttls') {
      if (!offered.includes('STARTTLS')) {
        throw new CheckFailure(
          'capability_missing',
          `The server does not offer STARTTLS (it offers ${offered.join(', ') || 'no extensions'})`,
        );
      }
      stream.write('STARTTLS\r\n');
      const ready = await reply(lines);
      if (ready.code !== 220) {
        throw new CheckFailure(
          'protocol_error',
          `The server answered STARTTLS with ${ready.code}: “${shown(ready.lines.join(' '))}”`,
        );
      }
      lines.detach();
      const upgraded = await upgradeToTls(socket, host, spec, run);
      ({ warning } = upgraded);
      stream = upgraded.secure;
      run.phase = 'wait';
      lines = new LineReader(stream, run);
      // RFC 3207 §4.2: everything learned before TLS is forgotten; ask again.
      stream.write(ehlo);
      offered = extensions(await expect250(lines, 'EHLO after STARTTLS'));
    }
    const wanted = spec.capabilities.map((c) => c.toUpperCase());
    if (wanted.length > 0) {
      const missing = wanted.filter((c) => !offered.includes(c));
      assertions.push({
        kind: 'capability',
        target: 'EHLO',
        expected: wanted.join(', '),
        actual: offered.join(', ') || 'none',
        passed: missing.length === 0,
        soft: false,
      });
      if (missing.length > 0) {
        throw new CheckFailure(
          'capability_missing',
          `The server does not offer ${missing.join(', ')} (it offers ${offered.join(', ') || 'no extensions'})`,
        );
      }
    }
    stream.write('QUIT\r\n');
    return deliveredRun(run, spec.degradedThresholdMs, { warning, assertions });
  } catch (err) {
    return failedRun(run, err, assertions);
  } finally {
    run.dispose();
  }
}

/** One reply, multi-line ones (`250-…` then `250 …`) joined. */
async function reply(lines: LineReader): Promise<Reply> {
  const texts: string[] = [];
  for (;;) {
    const line = await lines.next();
    const match = /^(\d{3})([ -]?)(.*)$/.exec(line);
    if (match === null) {
      throw new CheckFailure(
        'protocol_error',
        `The server did not answer as an SMTP server: “${shown(line)}”`,
      );
    }
    texts.push(match[3] ?? '');
    if (match[2] !== '-') return { code: Number(match[1]), lines: texts };
  }
}

async function expect250(lines: LineReader, what: string): Promise<Reply> {
  const answer = await reply(lines);
  if (answer.code !== 250) {
    throw new CheckFailure(
      'protocol_error',
      `The server answered ${what} with ${answer.code}: “${shown(answer.lines.join(' '))}”`,
    );
  }
  return answer;
}

/** The extension keywords of an EHLO reply (its lines after the first), upper-cased. */
const extensions = (ehlo: Reply): string[] =>
  ehlo.lines.slice(1).map((l) => (l.split(' ')[0] ?? '').toUpperCase());

const greetingAssertion = (greeting: Reply): AssertionResult => ({
  kind: 'greeting',
  target: 'banner',
  expected: '220',
  actual: shown(`${greeting.code} ${greeting.lines.join(' ')}`),
  passed: greeting.code === 220,
  soft: false,
});
