/**
 * The probe's idea of the server's time. Every answer carries `serverTime`; the offset is the
 * probe's clock minus the server's, so rounds are placed on the server's grid whatever the
 * probe's clock says. `skewMs` shifts the probe's own clock (tests inject a wrong clock).
 */
export class ProbeClock {
  private offset: number | null = null;
  private bestRtt = Infinity;

  constructor(private readonly skewMs = 0) {}

  /** The probe's own wall clock. */
  local(): number {
    return Date.now() + this.skewMs;
  }

  /** The server's time as estimated here. */
  now(): number {
    return this.local() - (this.offset ?? 0);
  }

  /** The last estimate of (probe clock − server clock), or null before any answer. */
  offsetMs(): number | null {
    return this.offset === null ? null : Math.round(this.offset);
  }

  /**
   * An answer sent at `sentLocal` and read at `readLocal` said `serverTime`: the midpoint is
   * when the server wrote it. A sample with a far longer round trip than the best seen is
   * noisier; it only replaces the estimate when the clock moved by more than its noise.
   */
  observe(serverTime: number, sentLocal: number, readLocal: number): void {
    const rtt = Math.max(0, readLocal - sentLocal);
    const sample = (sentLocal + readLocal) / 2 - serverTime;
    if (this.offset === null || rtt <= this.bestRtt * 2 || Math.abs(sample - this.offset) > rtt) {
      this.offset = sample;
      this.bestRtt = Math.min(this.bestRtt, Math.max(rtt, 1));
    }
  }

  /**
   * A line of the assignment stream said `serverTime` and was read at `readLocal`. Unlike an
   * answer, a line has no send time: it may have waited in a socket buffer for as long as this
   * process was frozen (SIGSTOP, a suspended VM) or starved, so `readLocal − serverTime` only
   * bounds the offset from above. It lowers an estimate it proves too high and is otherwise
   * ignored: the lines a frozen probe reads on waking would set its clock back by the length of
   * the freeze, placing its next checks in past rounds and reporting a false clock warning.
   */
  observeLine(serverTime: number, readLocal: number): void {
    const bound = readLocal - serverTime;
    if (this.offset === null || bound < this.offset) this.offset = bound;
  }
}
