import { createHash } from 'node:crypto';
import type { Report } from '@pagewatch/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { duration, millis, percent, when } from './format.js';

/**
 * The report a customer link opens (ADR 65): the same Report object as the PDF and CSV, as a
 * self-contained page (no script, one hashed inline style). React escapes every text.
 */
const CSS = `:root{color-scheme:light dark;--fg:#111827;--bg:#f8fafc;--card:#fff;--line:#d1d5db;--muted:#4b5563;--accent:#2563eb;--good:#15803d;--bad:#b91c1c}
@media (prefers-color-scheme:dark){:root{--fg:#f3f4f6;--bg:#0b1120;--card:#111827;--line:#374151;--muted:#9ca3af;--accent:#60a5fa;--good:#4ade80;--bad:#f87171}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:60rem;margin:2rem auto;padding:0 1rem}h1{font-size:1.5rem;margin:0}h2{font-size:1.1rem;margin:1.75rem 0 .5rem}
.muted{color:var(--muted);font-size:.9rem}a{color:var(--accent)}a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.75rem;margin:1.25rem 0}
.figure{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem 1rem}.figure b{display:block;font-size:1.35rem}
.table{overflow-x:auto;background:var(--card);border:1px solid var(--line);border-radius:10px}
table{border-collapse:collapse;width:100%;font-size:.92rem}th,td{padding:.45rem .75rem;text-align:left;border-bottom:1px solid var(--line);white-space:nowrap}
td.name{white-space:normal;min-width:10rem}th{font-weight:600;color:var(--muted)}tr:last-child td{border-bottom:0}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.met{color:var(--good);font-weight:600}.missed{color:var(--bad);font-weight:600}.downloads a{margin-right:1rem}`;

/** The CSP that lets exactly this inline style apply. */
export const reportPageCsp = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="icon" href="data:," />
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}

/** The SLO verdicts a report carries (issue 20 item 3's met/missed). */
interface ShownSlo {
  id: number;
  name: string;
  target: number;
  attainment: number | null;
  met: boolean | null;
}

/** The report as a page; `files` is the link's own path, to which .pdf/.csv are appended. */
export function reportPage(r: Report, files: string): string {
  const slos = (r as { slos?: ShownSlo[] }).slos ?? [];
  return `<!doctype html>${renderToStaticMarkup(
    <Shell title={`${r.subject.name}: availability ${r.label}`}>
      <p className="muted">Availability report</p>
      <h1 dir="auto">{r.subject.name}</h1>
      <p className="muted">
        {r.label} · {when(r.from, r.timeZone)} – {when(r.to, r.timeZone)} ({r.timeZone})
      </p>
      <div className="figures">
        <div className="figure">
          <span className="muted">Uptime</span>
          <b>{percent(r.uptime)}</b>
        </div>
        <div className="figure">
          <span className="muted">Downtime</span>
          <b>{duration(r.downtimeMs)}</b>
        </div>
        <div className="figure">
          <span className="muted">Incidents</span>
          <b>{r.incidents}</b>
        </div>
        <div className="figure">
          <span className="muted">MTTR</span>
          <b>{duration(r.mttrMs)}</b>
        </div>
      </div>
      <p className="downloads">
        <a href={`${files}/report.pdf`}>Download PDF</a>
        <a href={`${files}/report.csv`}>Download CSV</a>
      </p>
      {slos.length > 0 ? (
        <>
          <h2>Objectives</h2>
          <div className="table">
            <table>
              <thead>
                <tr>
                  <th>Objective</th>
                  <th className="num">Target</th>
                  <th className="num">Attained</th>
                  <th>Result</th>
                </tr>
              </thead>
              <tbody>
                {slos.map((s) => (
                  <tr key={s.id}>
                    <td className="name" dir="auto">
                      {s.name}
                    </td>
                    <td className="num">{s.target} %</td>
                    <td className="num">{percent(s.attainment)}</td>
                    <td className={s.met === null ? '' : s.met ? 'met' : 'missed'}>
                      {s.met === null ? 'No checks' : s.met ? 'Met' : 'Missed'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <h2>Monitors</h2>
      <div className="table">
        <table>
          <thead>
            <tr>
              <th>Monitor</th>
              <th className="num">Uptime</th>
              <th className="num">Downtime</th>
              <th className="num">Incidents</th>
              <th className="num">p95</th>
            </tr>
          </thead>
          <tbody>
            {r.monitors.map((m) => (
              <tr key={m.id}>
                <td className="name" dir="auto">
                  {m.name}
                </td>
                <td className="num">{percent(m.uptime)}</td>
                <td className="num">{duration(m.downtimeMs)}</td>
                <td className="num">{m.incidents}</td>
                <td className="num">{millis(m.latency.p95)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {r.incidentList.length > 0 ? (
        <>
          <h2>Incidents</h2>
          <div className="table">
            <table>
              <thead>
                <tr>
                  <th>Incident</th>
                  <th>Started</th>
                  <th className="num">Duration</th>
                </tr>
              </thead>
              <tbody>
                {r.incidentList.map((i) => (
                  <tr key={`${i.id}-${i.monitorId}`}>
                    <td className="name" dir="auto">
                      {i.title}
                    </td>
                    <td>{when(i.startedAt, r.timeZone)}</td>
                    <td className="num">{duration(i.durationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      {r.corrections.length > 0 ? (
        <>
          <h2>Periods left out</h2>
          <div className="table">
            <table>
              <thead>
                <tr>
                  <th>From</th>
                  <th>To</th>
                  <th>Reason</th>
                </tr>
              </thead>
              <tbody>
                {r.corrections.map((c) => (
                  <tr key={c.id}>
                    <td>{when(c.startsAt, r.timeZone)}</td>
                    <td>{when(c.endsAt, r.timeZone)}</td>
                    <td className="name" dir="auto">
                      {c.reason}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <p className="muted">
        Maintenance windows and corrected periods are left out of the figures. Generated{' '}
        {when(r.generatedAt, r.timeZone)} by Pagewatch.
      </p>
    </Shell>,
  )}`;
}

/** The one page for every link that opens nothing: it says nothing about any report. */
export function linkGonePage(): string {
  return `<!doctype html>${renderToStaticMarkup(
    <Shell title="Report not found">
      <h1>Report not found</h1>
      <p className="muted">This link does not open a report. Ask whoever sent it for a new one.</p>
    </Shell>,
  )}`;
}
