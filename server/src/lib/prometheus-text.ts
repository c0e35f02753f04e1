/**
 * Writing Prometheus text exposition (format 0.0.4) by hand, for families with one series per
 * monitor: at 10,000 monitors, joining strings is far cheaper than prom-client's labelled sets.
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

/** Collects the lines of one family; samples of a family must be contiguous, after its header. */
export class FamilyText {
  private readonly lines: string[];

  constructor(
    readonly name: string,
    type: FamilyType,
    help: string,
  ) {
    const escapedHelp = help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
    this.lines = [`# HELP ${name} ${escapedHelp}`, `# TYPE ${name} ${type}`];
  }

  /** `labels` is already rendered (`a="x",b="y"`), so a monitor's part is escaped once. */
  add(labels: string, value: number): void {
    this.lines.push(
      labels === ''
        ? `${this.name} ${sampleValue(value)}`
        : `${this.name}{${labels}} ${sampleValue(value)}`,
    );
  }

  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }
}
