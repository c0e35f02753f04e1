import fs from 'node:fs';

const PAGE_BYTES = 4096;

/**
 * Memory of a process and all its descendants (Chromium's renderers, GPU and network
 * processes are children of the browser process), as proportional set size: Chromium's
 * processes share most of their pages, and summing RSS would count those once per process.
 * Linux /proc only; null elsewhere.
 */
export function processTreePss(rootPid: number): number | null {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  for (const e of entries) {
    const stat = readStat(Number(e));
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(Number(e));
    children.set(stat.ppid, list);
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += memoryOf(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

function readStat(pid: number): { ppid: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: fields follow the last ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]) };
  } catch {
    return null;
  }
}

function memoryOf(pid: number): number {
  try {
    const pss = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    if (pss) return Number(pss[1]) * 1024;
  } catch {
    // No smaps_rollup (older kernels, other owners): fall back to RSS.
  }
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_BYTES : 0;
  } catch {
    return 0;
  }
}
