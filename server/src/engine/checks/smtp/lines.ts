import { performance } from 'node:perf_hooks';
import type net from 'node:net';
import { CheckFailure, type RunState } from '../socket.js';

/** A line longer than this is not a text protocol's answer. */
const MAX_LINE = 4096;
/** Lines read in one check, against a peer that never stops talking. */
const MAX_LINES = 500;

/**
 * Lines of a text protocol (SMTP, and greeting-and-STARTTLS dialogues like it) as they arrive,
 * awaited one at a time within the run's deadline. `detach()` before a TLS upgrade hands the
 * socket over untouched, so the next reader reads the secure stream.
 */
export class LineReader {
  private buffered = '';
  private readonly lines: string[] = [];
  private ended = false;
  private problem: Error | null = null;
  private wake: (() => void) | null = null;
  private count = 0;
  private readonly onData = (chunk: Buffer): void => {
    this.firstByte ??= performance.now();
    this.buffered += chunk.toString('latin1');
    let at: number;
    while ((at = this.buffered.indexOf('\n')) >= 0) {
      this.lines.push(this.buffered.slice(0, at).replace(/\r$/, ''));
      this.buffered = this.buffered.slice(at + 1);
    }
    if (this.buffered.length > MAX_LINE) {
      this.problem ??= new CheckFailure(
        'protocol_error',
        `The server sent a line longer than ${MAX_LINE} bytes: “${this.buffered.slice(0, 80)}…”`,
      );
    }
    this.wake?.();
  };
  private readonly onEnd = (): void => {
    this.ended = true;
    this.wake?.();
  };
  private readonly onError = (err: Error): void => {
    this.problem ??= err;
    this.wake?.();
  };
  /** performance.now() when the first bytes arrived. */
  firstByte: number | null = null;

  constructor(
    private readonly stream: net.Socket,
    private readonly run: RunState,
  ) {
    stream.on('data', this.onData);
    stream.on('end', this.onEnd);
    stream.on('close', this.onEnd);
    stream.on('error', this.onError);
  }

  /** Stops reading; bytes already received but not read as lines are a protocol error. */
  detach(): void {
    this.stream.off('data', this.onData);
    this.stream.off('end', this.onEnd);
    this.stream.off('close', this.onEnd);
    this.stream.off('error', this.onError);
    if (this.buffered !== '' || this.lines.length > 0) {
      throw new CheckFailure(
        'protocol_error',
        'The server sent more before the TLS handshake could start (a STARTTLS injection guard)',
      );
    }
  }

  async next(): Promise<string> {
    const { signal } = this.run;
    for (;;) {
      if (signal.aborted) throw signal.reason as CheckFailure;
      const line = this.lines.shift();
      if (line !== undefined) {
        if (++this.count > MAX_LINES) {
          throw new CheckFailure('protocol_error', `The server sent more than ${MAX_LINES} lines`);
        }
        return line;
      }
      if (this.problem !== null) throw this.problem;
      if (this.ended) {
        throw Object.assign(new Error('The server closed the connection'), { code: 'ECONNRESET' });
      }
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.wake = null;
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }
}
