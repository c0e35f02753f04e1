import { spawn } from 'node:child_process';
import { ensurePromtool } from '../../../scripts/promtool.mjs';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const unescape = (v: string) => v.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));

/** Text exposition → samples; label values unescaped. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]!] = unescape(l[2]!);
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The samples of `name` whose labels include `labels`. */
export function pick(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/** The one sample's value; undefined when there is none, an error when there are several. */
export function valueOf(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = pick(samples, name, labels);
  if (found.length > 1)
    throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** `promtool check metrics` on the exposition: its exit code and every line it printed. */
export async function promtoolCheck(
  exposition: string,
): Promise<{ code: number; lines: string[] }> {
  const child = spawn(ensurePromtool(), ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += String(c)));
  child.stderr.on('data', (c: Buffer) => (out += String(c)));
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
  child.stdin.end(exposition);
  const code = await exited;
  return { code, lines: out.split('\n').filter((l) => l.trim() !== '') };
}
