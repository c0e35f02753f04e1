import type { AlertEvent } from '@pagewatch/contract';
import { humanDuration, type Tone } from './format.js';
import type { Escape } from './escape.js';

interface SloWording {
  title: string;
  tone: Tone;
  summary: (x: Escape) => string;
}

const pct = (v: number) => `${Math.max(0, Math.round(v * 10) / 10)} %`;

/** What is left and for how long, in words: the two things a burn-rate alert must say. */
function budgetLeft(s: NonNullable<AlertEvent['slo']>): string {
  if (s.remainingMs <= 0) return 'The error budget is spent.';
  const left = `${pct(s.remainingPercent)} of the error budget is left (${humanDuration(s.remainingMs)})`;
  if (s.exhaustionMs === null) return `${left}.`;
  return `${left}; at the last hour's burn rate it runs out in ${humanDuration(s.exhaustionMs)}.`;
}

/** Wording of `slo.burning` and `slo.recovered` (ADR 53); null for other events. */
export function sloWording(e: AlertEvent): SloWording | null {
  const s = e.slo;
  if (!s || !e.kind.startsWith('slo.')) return null;
  if (e.kind === 'slo.recovered') {
    return {
      title: `SLO ${s.name} no longer burning`,
      tone: 'ok',
      summary: (x) =>
        `${x(s.name)} (${x(s.subject)}) is back within its burn-rate limits. ${budgetLeft(s)}`,
    };
  }
  const rule = s.rule
    ? ` it spent ${s.rule.budgetPercent} % or more of its error budget in the last ${humanDuration(s.rule.longMs)}`
    : '';
  const rate = s.burnRate === null ? '' : ` (burn rate ${Math.round(s.burnRate * 10) / 10}×)`;
  return {
    title: `SLO ${s.name} is burning its error budget`,
    tone: s.severity === 'page' ? 'critical' : 'warning',
    summary: (x) =>
      `${x(s.name)} (${x(s.subject)}, target ${s.target} %):${rule}${rate}. ${budgetLeft(s)}`,
  };
}

/** Detail fields of an SLO event. */
export function sloFields(e: AlertEvent): [string, string][] {
  const s = e.slo;
  if (!s) return [];
  const f: [string, string][] = [
    ['SLO', s.name],
    ['Subject', s.subject],
    ['Target', `${s.target} %`],
    ['Budget left', `${pct(s.remainingPercent)} (${humanDuration(Math.max(0, s.remainingMs))})`],
  ];
  if (s.exhaustionMs !== null) f.push(['Runs out in', humanDuration(s.exhaustionMs)]);
  if (s.severity) f.push(['Severity', s.severity]);
  return f;
}
