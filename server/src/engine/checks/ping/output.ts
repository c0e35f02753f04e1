/** What the system `ping` (iputils) printed, as numbers. Pure: no process, no clock. */
export interface PingOutput {
  transmitted: number;
  received: number;
  /** Round trips of the replies, ms, in the order they came. */
  rtts: number[];
}

export interface PingStats {
  transmitted: number;
  received: number;
  /** 0–100, one decimal. */
  lossPercent: number;
  minMs: number | null;
  avgMs: number | null;
  maxMs: number | null;
  /** Mean absolute difference of consecutive round trips (RFC 3550's idea, unsmoothed). */
  jitterMs: number | null;
}

const REPLY = /\bicmp_seq=\d+\b.*?\btime=([\d.]+) ms/;
const SUMMARY = /(\d+) packets transmitted, (\d+) (?:packets )?received/;

/** Reads the reply lines and the summary line; null when the summary is missing. */
export function parsePingOutput(stdout: string): PingOutput | null {
  const rtts: number[] = [];
  let summary: RegExpExecArray | null = null;
  for (const line of stdout.split('\n')) {
    const reply = REPLY.exec(line);
    // "(DUP!)" replies are the same packet twice; they count once in the summary too.
    if (reply !== null && !line.includes('DUP!')) rtts.push(Number(reply[1]));
    summary ??= SUMMARY.exec(line);
  }
  if (summary === null) return null;
  return { transmitted: Number(summary[1]), received: Number(summary[2]), rtts };
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

export function pingStats(out: PingOutput): PingStats {
  const { transmitted, received, rtts } = out;
  const lossPercent =
    transmitted === 0 ? 100 : Math.round(((transmitted - received) / transmitted) * 1000) / 10;
  if (rtts.length === 0) {
    return {
      transmitted,
      received,
      lossPercent,
      minMs: null,
      avgMs: null,
      maxMs: null,
      jitterMs: null,
    };
  }
  let jitter = 0;
  for (let i = 1; i < rtts.length; i++) jitter += Math.abs(rtts[i]! - rtts[i - 1]!);
  return {
    transmitted,
    received,
    lossPercent,
    minMs: round3(Math.min(...rtts)),
    avgMs: round3(rtts.reduce((a, b) => a + b, 0) / rtts.length),
    maxMs: round3(Math.max(...rtts)),
    jitterMs: rtts.length > 1 ? round3(jitter / (rtts.length - 1)) : 0,
  };
}
