import type { IncomingMessage } from 'node:http';
import zlib from 'node:zlib';
import { CheckFailure } from './errors.js';
import type { RunState } from './run.js';

export interface BodyRead {
  /** The decoded body up to the cap; null when not kept (nothing asserts on it). */
  content: Buffer | null;
  /** Bytes of the body as received (after de-chunking, before decompression). */
  wireBytes: number;
  /** True when the body went past the cap and reading stopped there. */
  truncated: boolean;
}

export interface BodyOptions {
  /** Decompress and keep the body (only needed for assertions). */
  keep: boolean;
  /** Cap on decoded bytes when kept, on received bytes otherwise. */
  maxBytes: number;
}

type Decoder = zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress;

/** One supported content coding, or null for identity and codings we cannot decode. */
function codingOf(header: string | undefined): 'gzip' | 'deflate' | 'br' | null {
  const codings = (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length !== 1) return null;
  const [coding] = codings;
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding === 'deflate' || coding === 'br') return coding;
  return null;
}

// Sync flush tolerates a truncated final block, as browsers do.
const ZLIB_OPTIONS = { finishFlush: zlib.constants.Z_SYNC_FLUSH };

function createDecoder(coding: 'gzip' | 'deflate' | 'br', first: Buffer): Decoder {
  if (coding === 'gzip') return zlib.createGunzip(ZLIB_OPTIONS);
  if (coding === 'br') {
    return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  }
  // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate; a zlib header's
  // low nibble is 8 (the deflate method).
  const zlibWrapped = first.length === 0 || ((first[0] ?? 0) & 0x0f) === 8;
  return zlibWrapped ? zlib.createInflate(ZLIB_OPTIONS) : zlib.createInflateRaw(ZLIB_OPTIONS);
}

/** Collects one response body; settles once, on the end, the cap, an error or the deadline. */
class BodyReader {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private wireBytes = 0;
  private decoder: Decoder | null = null;
  private settled = false;
  private readonly coding: 'gzip' | 'deflate' | 'br' | null;
  private readonly onAbort = (): void => this.fail(this.run.signal.reason);

  constructor(
    private readonly res: IncomingMessage,
    private readonly options: BodyOptions,
    private readonly run: RunState,
    private readonly resolve: (read: BodyRead) => void,
    private readonly reject: (err: Error) => void,
  ) {
    this.coding = options.keep ? codingOf(res.headers['content-encoding']) : null;
  }

  start(): void {
    if (this.run.signal.aborted) return this.onAbort();
    this.run.signal.addEventListener('abort', this.onAbort, { once: true });
    this.run.responseSize = 0;
    this.res.on('data', (chunk: Buffer) => this.onWire(chunk));
    this.res.once('end', () => {
      this.decoder ??= this.startDecoder(Buffer.alloc(0));
      if (this.decoder === null) this.finish(false);
      else this.decoder.end();
    });
    this.res.once('error', (err) => this.fail(err));
    this.res.once('close', () => {
      // After a complete body the decoder may still be flushing; only an early close is an error.
      if (!this.res.complete) {
        this.fail(Object.assign(new Error('Response aborted'), { code: 'ECONNRESET' }));
      }
    });
  }

  private onWire(chunk: Buffer): void {
    this.wireBytes += chunk.length;
    this.run.responseSize = this.wireBytes;
    this.decoder ??= this.startDecoder(chunk);
    if (this.decoder === null) this.onDecoded(chunk);
    else this.decoder.write(chunk);
  }

  private onDecoded(chunk: Buffer): void {
    if (this.settled) return;
    const room = this.options.maxBytes - this.kept;
    const over = chunk.length > room;
    if (this.options.keep) this.chunks.push(over ? chunk.subarray(0, room) : chunk);
    this.kept += over ? room : chunk.length;
    if (over) this.finish(true);
  }

  private startDecoder(first: Buffer): Decoder | null {
    const coding = this.coding;
    if (coding === null) return null;
    const decoder = this.run.track(createDecoder(coding, first));
    decoder.on('data', (chunk: Buffer) => this.onDecoded(chunk));
    decoder.once('end', () => this.finish(false));
    decoder.once('error', (err) => {
      const what = `Could not decode the ${coding} response body: ${err.message}`;
      this.fail(new CheckFailure('protocol_error', what));
    });
    return decoder;
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.run.signal.removeEventListener('abort', this.onAbort);
    return true;
  }

  private finish(truncated: boolean): void {
    if (!this.settle()) return;
    if (truncated) {
      // Stop downloading: the rest of a body past the cap is never looked at.
      this.res.destroy();
      this.decoder?.destroy();
    }
    const content = this.options.keep ? Buffer.concat(this.chunks) : null;
    this.resolve({ content, wireBytes: this.wireBytes, truncated });
  }

  private fail(err: unknown): void {
    if (this.settle()) this.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/**
 * Reads the response body up to the cap, decoding it when it is kept; stops reading (destroying
 * the response) once the cap is passed. Rejects with the run's failure on the deadline.
 */
export function readBody(
  res: IncomingMessage,
  options: BodyOptions,
  run: RunState,
): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    new BodyReader(res, options, run, resolve, reject).start();
  });
}
