import type { Report } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ButtonLink } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice } from '../../../components/ui/Notice';
import { TimeZonePicker } from '../../../components/ui/TimeZonePicker';
import { isApiError } from '../../../lib/api';
import { useCan } from '../../auth/api/session';
import { displayTimeZone, formatInstantIn, formatMs, formatPercent } from '../../../lib/format';
import { monitorNamesQuery } from '../../monitors/api/queries';
import { SelectField, TextInputField } from '../../monitors/components/form/controls';
import { formatSpan } from '../../slos/describe';
import { statusPageListQuery } from '../../status-pages/api/status-pages';
import { reportFileUrl, reportQuery, type ReportParams } from '../api/reports';
import { daysBefore, recentPeriods, today } from '../range';
import { UptimeBars } from './UptimeBars';

const subjectOptions = [
  { value: 'monitor', label: 'A monitor (or group)' },
  { value: 'tag', label: 'Every monitor with a tag' },
  { value: 'status_page', label: 'A status page' },
] as const;

const rangeOptions = [
  { value: 'month', label: 'A month' },
  { value: 'quarter', label: 'A quarter' },
  { value: 'custom', label: 'Dates' },
] as const;

const span = (ms: number | null) => (ms === null ? '—' : ms === 0 ? '0 s' : formatSpan(ms));

/** Reports (issue 20, ADR 55/71): a subject's figures over a range, with CSV and PDF downloads. */
export function ReportsScreen() {
  const canEdit = useCan('editor');
  const monitors = useQuery(monitorNamesQuery());
  const pages = useQuery(statusPageListQuery());
  const [zone, setZone] = useState(displayTimeZone);
  const [subject, setSubject] = useState<ReportParams['subject']>('monitor');
  const [monitor, setMonitor] = useState('');
  const [page, setPage] = useState('');
  const [tag, setTag] = useState('');
  const [range, setRange] = useState<ReportParams['range']>('month');
  const [month, setMonth] = useState(() => recentPeriods('month', zone)[1]!);
  const [quarter, setQuarter] = useState(() => recentPeriods('quarter', zone)[1]!);
  const [to, setTo] = useState(() => today(zone));
  const [from, setFrom] = useState(() => daysBefore(today(zone), 29));

  const firstMonitor = monitors.data?.items[0];
  const monitorId = monitor || (firstMonitor ? String(firstMonitor.id) : '');
  const pageId = page || String(pages.data?.items[0]?.id ?? '');
  const id = subject === 'monitor' ? monitorId : subject === 'tag' ? tag.trim() : pageId;
  const params: ReportParams = {
    subject,
    id,
    range,
    period: range === 'quarter' ? quarter : month,
    from,
    to,
    timeZone: zone,
  };
  const report = useQuery({ ...reportQuery(params), enabled: id !== '' });
  const fieldError = (path: string) =>
    isApiError(report.error)
      ? report.error.fieldErrors.find((e) => e.path === path)?.message
      : undefined;

  return (
    <>
      <title>Reports · Pagewatch</title>
      <div className="page-head reports-head">
        <div>
          <h1 className="page-title">Reports</h1>
          <p className="page-sub">
            What was delivered: uptime, downtime, incidents, latency and SLOs over a month, a
            quarter or dates, to read here or send as CSV or PDF.
          </p>
        </div>
        {canEdit && (
          <ButtonLink to="/reports/delivery" icon="clock">
            Monthly emails and customer links
          </ButtonLink>
        )}
      </div>
      <form className="panel report-form" aria-label="Report" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          name="subject"
          label="About"
          value={subject}
          options={subjectOptions}
          onChange={setSubject}
        />
        {subject === 'monitor' && (
          <SelectField
            name="monitorId"
            label="Monitor"
            value={monitorId}
            options={(monitors.data?.items ?? []).map((m) => ({
              value: String(m.id),
              label: m.name,
            }))}
            onChange={setMonitor}
          />
        )}
        {subject === 'status_page' && (
          <SelectField
            name="statusPageId"
            label="Status page"
            value={pageId}
            options={(pages.data?.items ?? []).map((p) => ({
              value: String(p.id),
              label: p.title,
            }))}
            onChange={setPage}
          />
        )}
        {subject === 'tag' && (
          <TextInputField
            name="tag"
            label="Tag"
            kind="text"
            error={fieldError('id')}
            input={{ value: tag, onChange: (e) => setTag(e.target.value), placeholder: 'api' }}
          />
        )}
        <SelectField
          name="range"
          label="Range"
          value={range}
          options={rangeOptions}
          onChange={setRange}
        />
        {range === 'month' && (
          <SelectField
            name="month"
            label="Month"
            value={month}
            options={recentPeriods('month', zone)}
            onChange={setMonth}
          />
        )}
        {range === 'quarter' && (
          <SelectField
            name="quarter"
            label="Quarter"
            value={quarter}
            options={recentPeriods('quarter', zone)}
            onChange={setQuarter}
          />
        )}
        {range === 'custom' && (
          <>
            <Field name="from" label="From" error={fieldError('from')}>
              {(p) => (
                <input
                  {...p}
                  type="date"
                  className="input"
                  value={from}
                  max={to}
                  onChange={(e) => setFrom(e.target.value)}
                />
              )}
            </Field>
            <Field name="to" label="To (inclusive)" error={fieldError('to') ?? fieldError('range')}>
              {(p) => (
                <input
                  {...p}
                  type="date"
                  className="input"
                  value={to}
                  min={from}
                  onChange={(e) => setTo(e.target.value)}
                />
              )}
            </Field>
          </>
        )}
        <Field name="timeZone" label="Time zone" hint="Days and months start at midnight here.">
          {(p) => <TimeZonePicker {...p} value={zone} onChange={setZone} />}
        </Field>
      </form>
      {report.error && !fieldError('from') && !fieldError('to') && !fieldError('id') ? (
        <ErrorNotice error={report.error} className="section-gap" />
      ) : null}
      {id === '' && !monitors.isPending && (
        <p className="muted section-gap">Choose what the report is about.</p>
      )}
      {report.data && !report.error && (
        <ReportView report={report.data} params={params} busy={report.isFetching} />
      )}
    </>
  );
}

function ReportView({
  report: r,
  params,
  busy,
}: {
  report: Report;
  params: ReportParams;
  busy: boolean;
}) {
  const names = new Map(r.monitors.map((m) => [m.id, m.name]));
  const one = r.monitors.length === 1 ? r.monitors[0] : undefined;
  return (
    <section className="section-gap report" aria-labelledby="report-heading" aria-busy={busy}>
      <div className="report__head">
        <div>
          <h2 id="report-heading" className="report__title">
            {r.subject.name} · {r.label}
          </h2>
          <p className="muted">
            {formatInstantIn(r.from, r.timeZone)} to {formatInstantIn(r.to, r.timeZone)} (
            {r.timeZone}) · maintenance and corrections left out
          </p>
        </div>
        <div className="report__downloads">
          <a className="btn btn--secondary btn--sm" href={reportFileUrl(params, 'csv')} download>
            Download CSV
          </a>
          <a className="btn btn--secondary btn--sm" href={reportFileUrl(params, 'pdf')} download>
            Download PDF
          </a>
        </div>
      </div>
      <dl className="stats report__stats">
        <Stat label="Uptime" value={formatPercent(r.uptime)} testId="report-uptime" />
        <Stat
          label={r.monitors.length > 1 ? 'Downtime (mean)' : 'Downtime'}
          value={span(r.downtimeMs)}
          testId="report-downtime"
        />
        <Stat label="Incidents" value={String(r.incidents)} testId="report-incidents" />
        <Stat label="MTTR" value={span(r.mttrMs)} testId="report-mttr" />
        <Stat label="MTBF" value={span(r.mtbfMs)} testId="report-mtbf" />
      </dl>
      <div className="panel">
        <h3 className="panel__title">Uptime per {r.periodKind}</h3>
        {r.monitors.length === 0 ? (
          <p className="muted">No monitors.</p>
        ) : (
          <UptimeBars report={r} />
        )}
      </div>
      {r.slos.length > 0 && (
        <div className="panel section-gap">
          <h3 className="panel__title">SLOs</h3>
          <p className="muted">Each judged over this range by its own rules.</p>
          <ul className="report-slos">
            {r.slos.map((s) => (
              <li key={s.id} aria-label={s.name} data-testid="report-slo">
                <span className="report-slos__name">
                  {s.name} <span className="muted">· {s.subjectLabel}</span>
                </span>
                <span className="report-slos__figure">
                  {formatPercent(s.attainment)} <span className="muted">of {s.target}%</span>
                  {s.latency && (
                    <span className="muted">
                      {' '}
                      · p{s.latency.percent} {formatMs(s.latency.observedMs)} of{' '}
                      {s.latency.thresholdMs} ms
                    </span>
                  )}
                </span>
                <span
                  className={`slo-health slo-health--${s.met === null ? 'no_data' : s.met ? 'healthy' : 'exhausted'}`}
                >
                  {s.met === null ? 'No data' : s.met ? 'Met' : 'Missed'}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="panel section-gap">
        <h3 className="panel__title">
          {one ? (r.periodKind === 'day' ? 'Days' : 'Months') : 'Monitors'}
        </h3>
        <div className="report-table">
          <table className="ctable">
            <thead>
              <tr>
                <th scope="col">{one ? (r.periodKind === 'day' ? 'Day' : 'Month') : 'Monitor'}</th>
                <th scope="col" className="ctable__num">
                  Uptime
                </th>
                <th scope="col" className="ctable__num">
                  Downtime
                </th>
                <th scope="col" className="ctable__num">
                  Checks
                </th>
                <th scope="col" className="ctable__num">
                  p50
                </th>
                <th scope="col" className="ctable__num">
                  p95
                </th>
                <th scope="col" className="ctable__num">
                  p99
                </th>
              </tr>
            </thead>
            <tbody>
              {(one
                ? one.periods.map((p) => ({ ...p, key: p.label, name: p.label }))
                : r.monitors.map((m) => ({ ...m, key: String(m.id) }))
              ).map((row) => (
                <tr key={row.key}>
                  <td>{row.name}</td>
                  <td className="ctable__num">{formatPercent(row.uptime)}</td>
                  <td className="ctable__num">{span(row.downtimeMs)}</td>
                  <td className="ctable__num">{row.checks}</td>
                  <td className="ctable__num">{formatMs(row.latency.p50)}</td>
                  <td className="ctable__num">{formatMs(row.latency.p95)}</td>
                  <td className="ctable__num">{formatMs(row.latency.p99)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <div className="panel section-gap">
        <h3 className="panel__title">Incidents</h3>
        {r.incidentList.length === 0 ? (
          <p className="muted">No incidents in this range.</p>
        ) : (
          <ul className="report-list">
            {r.incidentList.map((i) => (
              <li key={i.id}>
                <span>
                  {i.title}
                  {r.monitors.length > 1 && (
                    <span className="muted"> · {names.get(i.monitorId)}</span>
                  )}
                </span>
                <span className="muted">
                  {formatInstantIn(i.startedAt, r.timeZone)} · {span(i.durationMs)}
                  {i.resolvedAt === null ? ' · still open' : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {r.corrections.length > 0 && (
        <div className="panel section-gap">
          <h3 className="panel__title">Corrections</h3>
          <p className="muted">These periods were left out of the figures, for these reasons.</p>
          <ul className="report-list" aria-label="Corrections in this report">
            {r.corrections.map((c) => (
              <li key={c.id}>
                <span>
                  {c.reason}
                  {r.monitors.length > 1 && (
                    <span className="muted"> · {names.get(c.monitorId)}</span>
                  )}
                </span>
                <span className="muted">
                  {formatInstantIn(c.startsAt, r.timeZone)} –{' '}
                  {formatInstantIn(c.endsAt, r.timeZone)} · by {c.createdBy}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="stat">
      <dt className="stat__label">{label}</dt>
      <dd className="stat__value" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
