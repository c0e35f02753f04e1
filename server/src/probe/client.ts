import readline from 'node:readline';
import {
  PROBE_PROTOCOL_HEADER,
  PROBE_PROTOCOL_VERSION,
  ProbeStreamLine,
} from '@pagewatch/contract';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { VERSION } from '../version.js';

export interface ProbeClientOptions {
  server: URL;
  token: string;
  /** Extra trusted CA certificates (PEM) for the server or a TLS-inspecting proxy. */
  ca?: string;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY as the CLI read them. */
  httpsProxy?: string;
  httpProxy?: string;
  noProxy?: string;
}

export interface Answer {
  status: number;
  body: unknown;
  sentAt: number;
  readAt: number;
}

/** A server answer that is not a success; `problem` is its problem+json when it sent one. */
export class ProbeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly problem: { detail?: string; errors?: { path: string; code: string }[] } | null,
  ) {
    super(problem?.detail ?? `the server answered ${status}`);
  }
}

/** The probe's only way out: plain HTTPS requests, through the environment's proxy if any. */
export class ProbeClient {
  private readonly dispatcher: Dispatcher;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly options: ProbeClientOptions,
    private readonly localNow: () => number,
  ) {
    const tls = options.ca ? { ca: options.ca } : {};
    this.dispatcher = new EnvHttpProxyAgent({
      ...(options.httpsProxy ? { httpsProxy: options.httpsProxy } : {}),
      ...(options.httpProxy ? { httpProxy: options.httpProxy } : {}),
      ...(options.noProxy ? { noProxy: options.noProxy } : {}),
      connect: tls,
      requestTls: tls,
      proxyTls: tls,
    });
    this.headers = {
      authorization: `Bearer ${options.token}`,
      [PROBE_PROTOCOL_HEADER]: String(PROBE_PROTOCOL_VERSION),
      'user-agent': `pagewatch-probe/${VERSION}`,
    };
  }

  private url(path: string): URL {
    return new URL(`/api/probe/v1/${path}`, this.options.server);
  }

  async post(path: string, body: unknown, timeoutMs = 30_000): Promise<Answer> {
    const sentAt = this.localNow();
    const res = await request(this.url(path), {
      method: 'POST',
      dispatcher: this.dispatcher,
      headers: { ...this.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await res.body.text();
    const readAt = this.localNow();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (res.statusCode >= 300) {
      throw new ProbeHttpError(res.statusCode, parsed as ProbeHttpError['problem']);
    }
    return { status: res.statusCode, body: parsed, sentAt, readAt };
  }

  /** Opens the assignment stream and calls `onLine` per line until it ends or `signal` aborts. */
  async stream(
    signal: AbortSignal,
    onLine: (line: ProbeStreamLine, readAt: number) => void,
  ): Promise<void> {
    const res = await request(this.url('assignment'), {
      method: 'GET',
      dispatcher: this.dispatcher,
      headers: this.headers,
      signal,
      bodyTimeout: 0,
    });
    if (res.statusCode >= 300) {
      const text = await res.body.text();
      let problem: ProbeHttpError['problem'];
      try {
        problem = JSON.parse(text) as ProbeHttpError['problem'];
      } catch {
        problem = null;
      }
      throw new ProbeHttpError(res.statusCode, problem);
    }
    const lines = readline.createInterface({ input: res.body, crlfDelay: Infinity });
    for await (const text of lines) {
      if (text.trim() === '') continue;
      const line = ProbeStreamLine.safeParse(JSON.parse(text));
      if (line.success) onLine(line.data, this.localNow());
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
