import net from 'node:net';

/** A canary: a host and port Pagewatch should always reach while its own network is up. */
export interface Canary {
  host: string;
  port: number;
}

export interface ConnectivityGuardOptions {
  /** How long one canary may take to accept a TCP connection. */
  timeoutMs?: number;
  /** How long one verdict is reused: many checks failing at once probe the canaries once. */
  reuseMs?: number;
  now?: () => number;
}

/** Parses `PAGEWATCH_CANARY_TARGETS` ("host:port,[v6]:port"); throws on a malformed entry. */
export function parseCanaries(text: string): Canary[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(entry);
      const port = m ? Number(m[3]) : 0;
      if (!m || port < 1 || port > 65_535) throw new Error(`"${entry}" is not host:port`);
      return { host: (m[1] ?? m[2])!, port };
    });
}

function reaches(c: Canary, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: c.host, port: c.port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The self-connectivity guard (issue 18 item 6, ADR 41): when every canary is unreachable,
 * Pagewatch has lost its own network and a failed check says nothing about its target. Asked
 * only after a check failed; the canaries are probed then (at most once per `reuseMs`), so a
 * healthy deployment never probes them.
 */
export class ConnectivityGuard {
  private verdict: { at: number; offline: Promise<boolean> } | null = null;
  private readonly timeoutMs: number;
  private readonly reuseMs: number;
  private readonly now: () => number;

  constructor(
    private readonly canaries: readonly Canary[],
    options: ConnectivityGuardOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.reuseMs = options.reuseMs ?? 5000;
    this.now = options.now ?? Date.now;
  }

  /** True when canaries are configured and none of them could be reached just now. */
  offline(): Promise<boolean> {
    if (this.canaries.length === 0) return Promise.resolve(false);
    const now = this.now();
    if (this.verdict && now - this.verdict.at < this.reuseMs) return this.verdict.offline;
    const offline = Promise.all(this.canaries.map((c) => reaches(c, this.timeoutMs))).then(
      (ok) => !ok.some(Boolean),
    );
    this.verdict = { at: now, offline };
    return offline;
  }
}
