/**
 * Writing Prometheus text exposition (format 0.0.4) by hand, for families with one series per
 * monitor: at 10,000 monitors (180,000 lines, 20 MB) prom-client's labelled sets, or one big
 * string, spend most of a scrape collecting garbage; lines written into buffers do not.
 */

/** A label value as the format wants it: backslash, double quote and line feed escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** A sample value: integers and decimals as JavaScript prints them, infinities and NaN spelt out. */
export function sampleValue(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

export type FamilyType = 'gauge' | 'counter';

const CHUNK = 1 << 20;

/** Families one after the other (a family's samples must be contiguous, after its header). */
export class ExpositionWriter {
  private readonly chunks: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(CHUNK);
  private at = 0;
  private name = '';

  /** Starts a family: its HELP and TYPE lines; samples added next belong to it. */
  family(name: string, type: FamilyType, help: string): void {
    this.name = name;
    const escapedHelp = help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
    this.write(`# HELP ${name} ${escapedHelp}\n# TYPE ${name} ${type}\n`);
  }

  /** `labels` is already rendered (`a="x",b="y"`), so a monitor's part is escaped once. */
  sample(labels: string, value: number): void {
    this.write(
      labels === ''
        ? `${this.name} ${sampleValue(value)}\n`
        : `${this.name}{${labels}} ${sampleValue(value)}\n`,
    );
  }

  toBuffer(): Buffer {
    return Buffer.concat([...this.chunks, this.chunk.subarray(0, this.at)]);
  }

  private write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.at + text.length * 3 > this.chunk.length) {
      this.chunks.push(this.chunk.subarray(0, this.at));
      this.chunk = Buffer.allocUnsafe(Math.max(CHUNK, text.length * 3));
      this.at = 0;
    }
    this.at += this.chunk.write(text, this.at);
  }
}
