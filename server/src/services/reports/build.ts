import type { Report, ReportMonitor } from '@pagewatch/contract';
import {
  outageFigures,
  readSpans,
  uniqueSpans,
  type Interval,
} from '../../domain/availability/index.js';
import { periodPercentiles } from '../../domain/reports/latency.js';
import { reportRange, type RangeRequest } from '../../domain/reports/range.js';
import type { LatencyBucket } from '../../db/repositories/availability.js';
import { validationFailed } from '../../lib/errors.js';
import { availabilityOver } from '../availability/over.js';
import type { ServiceDeps } from '../deps.js';
import { reportSlos } from './slos.js';
import { resolveSubject } from './subject.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A parsed report request (the contract's ReportQuery after parsing). */
export interface ReportRequest {
  subject: 'monitor' | 'tag' | 'status_page';
  id: string;
  range: 'month' | 'quarter' | 'custom';
  period?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  timeZone: string;
  degradedIsDown: boolean;
}

function rangeRequest(q: ReportRequest): RangeRequest {
  if (q.range === 'custom') {
    if (!q.from || !q.to) {
      throw validationFailed([
        { path: q.from ? 'to' : 'from', message: 'Enter both dates', code: 'invalid_range' },
      ]);
    }
    return { kind: 'custom', from: q.from, to: q.to };
  }
  if (!q.period)
    throw validationFailed([
      { path: 'period', message: `Choose a ${q.range}`, code: 'invalid_range' },
    ]);
  return { kind: q.range, period: q.period };
}

/**
 * A report: the one availability computation over the range and each of its days or months,
 * outages with MTTR and MTBF, latency percentiles, and the corrections that changed it.
 */
export async function buildReport(deps: ServiceDeps, q: ReportRequest): Promise<Report> {
  const subject = await resolveSubject(deps, q.subject, q.id);
  const range = reportRange(rangeRequest(q), q.timeZone);
  if (typeof range === 'string')
    throw validationFailed([{ path: 'range', message: range, code: 'invalid_range' }]);
  const now = deps.clock.now();
  const ids = subject.monitors.map((m) => m.id);
  const whole = { start: range.start, end: range.end };
  const policy = { degradedCountsAsDown: q.degradedIsDown, excludeMaintenance: true };
  // One read of the rollups for every monitor: counts for the availability, sketches for
  // the percentiles (the periods tile the range, so their buckets are the range's).
  const spans = uniqueSpans(readSpans([whole, ...range.periods]));
  const [rollups, outages] = await Promise.all([
    deps.repos.availability.rollups(ids, spans),
    deps.repos.availability.outages(ids, range.start, range.end, now),
  ]);
  const periods = [whole, ...range.periods];
  const avail = await availabilityOver(deps, ids, periods, policy, rollups.counts);
  const latency = rollups.latency;
  const latencyOf = groupBy(latency);
  const outagesOf = new Map<number, Interval[]>();
  for (const o of outages) outagesOf.set(o.monitorId, [...(outagesOf.get(o.monitorId) ?? []), o]);

  const monitors: ReportMonitor[] = [];
  const incidentList: Report['incidentList'] = [];
  const excludedOf = new Map<number, Interval[]>();
  for (const m of subject.monitors) {
    const a = avail.get(m.id);
    const [total, ...periods] = a?.periods ?? [];
    if (!a || !total) continue;
    const excluded = [
      ...a.maintenance,
      ...a.corrections.map((c) => ({ start: c.startsAt, end: c.endsAt })),
    ];
    excludedOf.set(m.id, excluded);
    const out = outageFigures(outagesOf.get(m.id) ?? [], whole, excluded, total.countedMs);
    const latency = periodPercentiles(latencyOf.get(m.id) ?? [], range.periods);
    monitors.push({
      id: m.id,
      name: m.name,
      uptime: total.uptime,
      downtimeMs: total.downtimeMs,
      checks: total.checks,
      excludedChecks: total.excludedChecks,
      maintenanceMs: total.maintenanceMs,
      correctedMs: total.correctedMs,
      incidents: out.count,
      mttrMs: out.mttrMs,
      mtbfMs: out.mtbfMs,
      latency: latency.total,
      periods: periods.map((p, i) => ({
        label: range.periods[i]?.label ?? '',
        from: iso(p.from),
        to: iso(range.periods[i]?.end ?? p.to),
        uptime: p.uptime,
        downtimeMs: p.downtimeMs,
        checks: p.checks,
        excludedChecks: p.excludedChecks,
        latency: latency.periods[i] ?? { p50: null, p95: null, p99: null },
      })),
    });
  }
  for (const o of outages) {
    const f = outageFigures([o], whole, excludedOf.get(o.monitorId) ?? [], 0);
    if (f.count === 0) continue;
    incidentList.push({
      id: o.incidentId,
      monitorId: o.monitorId,
      title: o.title,
      startedAt: iso(o.start),
      resolvedAt: o.end >= now ? null : iso(o.end),
      durationMs: f.totalMs,
    });
  }
  const report = summarize(subject, range, q, monitors, incidentList, avail, now);
  return { ...report, slos: await reportSlos(deps, ids, whole) };
}

function groupBy(rows: readonly LatencyBucket[]): Map<number, LatencyBucket[]> {
  const out = new Map<number, LatencyBucket[]>();
  for (const r of rows) {
    const l = out.get(r.monitorId);
    if (l) l.push(r);
    else out.set(r.monitorId, [r]);
  }
  return out;
}

/** The subject's figures: checks summed over its monitors; downtime the mean per monitor. */
function summarize(
  subject: Awaited<ReturnType<typeof resolveSubject>>,
  range: Exclude<ReturnType<typeof reportRange>, string>,
  q: ReportRequest,
  monitors: ReportMonitor[],
  incidentList: Report['incidentList'],
  avail: Awaited<ReturnType<typeof availabilityOver>>,
  now: number,
): Omit<Report, 'slos'> {
  let checks = 0;
  let good = 0;
  let counted = 0;
  for (const id of monitors.map((m) => m.id)) {
    const t = avail.get(id)?.periods[0];
    if (!t) continue;
    checks += t.checks;
    good += t.up + (q.degradedIsDown ? 0 : t.degraded);
    counted += t.countedMs;
  }
  const n = monitors.length;
  const incidents = incidentList.length;
  const outageMs = incidentList.reduce((s, i) => s + i.durationMs, 0);
  return {
    subject: { kind: subject.kind, id: subject.id, name: subject.name },
    from: iso(range.start),
    to: iso(range.end),
    timeZone: q.timeZone,
    label: range.label,
    periodKind: range.periodKind,
    degradedIsDown: q.degradedIsDown,
    uptime: checks === 0 ? null : Math.round((good / checks) * 100_000) / 1000,
    downtimeMs: n === 0 ? 0 : Math.round(monitors.reduce((s, m) => s + m.downtimeMs, 0) / n),
    incidents,
    mttrMs: incidents === 0 ? null : Math.round(outageMs / incidents),
    mtbfMs: incidents === 0 ? null : Math.round(Math.max(0, counted - outageMs) / incidents),
    monitors,
    incidentList,
    corrections: [...avail.values()].flatMap((a) =>
      a.corrections.map((c) => ({
        id: c.id,
        monitorId: c.monitorId,
        startsAt: iso(c.startsAt),
        endsAt: iso(c.endsAt),
        reason: c.reason,
        createdBy: c.createdBy,
      })),
    ),
    generatedAt: iso(now),
  };
}
