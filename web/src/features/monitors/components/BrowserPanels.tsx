import type { BrowserRun } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ErrorNotice } from '../../../components/ui/Notice';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { Skeleton } from '../../../components/ui/Skeleton';
import { formatDateTime, formatMs } from '../../../lib/format';
import { browserRunsQuery } from '../api/queries';
import './browser.css';

// uPlot is only fetched when the chart is on screen.
const BrowserTrendChart = lazy(() => import('./BrowserTrendChart'));

type Rating = 'good' | 'fair' | 'poor';

/** Web Vitals' published "good" and "poor" limits. */
function rate(value: number | null, good: number, poor: number): Rating | null {
  if (value === null) return null;
  return value <= good ? 'good' : value <= poor ? 'fair' : 'poor';
}

const ratingWords: Record<Rating, string> = {
  good: 'good',
  fair: 'needs improvement',
  poor: 'poor',
};

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const screenshotUrl = (monitorId: number, checkId: number) =>
  `/api/v1/monitors/${monitorId}/checks/${checkId}/screenshot`;

/** A URL shortened to what tells resources apart: the path, and the host when it is another site. */
function shortUrl(url: string, pageUrl: string | null): string {
  try {
    const u = new URL(url);
    const sameHost = pageUrl !== null && new URL(pageUrl).host === u.host;
    return `${sameHost ? '' : u.host}${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** The browser monitor's own panels: vitals and screenshot, trend, waterfall, errors. */
export function BrowserPanels({ monitorId }: { monitorId: number }) {
  const { data, error, refetch } = useQuery(browserRunsQuery(monitorId));
  const runs = data?.items ?? [];
  const latest = runs[0];

  if (error) {
    return (
      <section className="panel">
        <ErrorNotice
          error={error}
          action={<Button onClick={() => void refetch()}>Try again</Button>}
        />
      </section>
    );
  }
  return (
    <>
      <section className="panel" aria-labelledby="vitals-heading">
        <div className="panel__head">
          <h2 id="vitals-heading" className="panel__title">
            Page delivery
          </h2>
          {latest && (
            <span className="muted bsmall">
              Last check <RelativeTime iso={latest.at} />
            </span>
          )}
        </div>
        {!data ? (
          <Skeleton width="100%" height={160} />
        ) : !latest ? (
          <p className="panel__empty muted">
            No browser checks yet. The first one runs within a minute of creating the monitor.
          </p>
        ) : (
          <LatestRun
            monitorId={monitorId}
            run={latest}
            shotRun={runs.find((r) => r.hasScreenshot)}
          />
        )}
      </section>

      {runs.length > 1 && (
        <section className="panel" aria-labelledby="trend-heading">
          <div className="panel__head">
            <h2 id="trend-heading" className="panel__title">
              Largest Contentful Paint and load over time
            </h2>
            <span className="muted bsmall">Last {runs.length} checks</span>
          </div>
          <Suspense fallback={<div className="chart chart--placeholder" />}>
            <BrowserTrendChart runs={runs} label="LCP and load time of recent browser checks" />
          </Suspense>
        </section>
      )}

      {latest && <Waterfall run={latest} />}
      {latest && <PageErrors run={latest} />}
    </>
  );
}

function LatestRun({
  monitorId,
  run,
  shotRun,
}: {
  monitorId: number;
  run: BrowserRun;
  shotRun: BrowserRun | undefined;
}) {
  const vitals: { label: string; value: string; rating: Rating | null; title?: string }[] = [
    {
      label: 'LCP',
      value: formatMs(run.lcpMs),
      rating: rate(run.lcpMs, 2500, 4000),
      title: 'Largest Contentful Paint',
    },
    {
      label: 'CLS',
      value: run.cls === null ? '—' : run.cls.toFixed(3),
      rating: rate(run.cls, 0.1, 0.25),
      title: 'Cumulative Layout Shift',
    },
    {
      label: 'INP (proxy)',
      value: formatMs(run.inpMs),
      rating: rate(run.inpMs, 200, 500),
      title: 'Time from a synthetic key press to the next frame',
    },
    { label: 'Load', value: formatMs(run.loadMs), rating: null },
    { label: 'DOM ready', value: formatMs(run.domContentLoadedMs), rating: null },
    { label: 'Transferred', value: formatBytes(run.transferBytes), rating: null },
    { label: 'Requests', value: String(run.requests), rating: null },
  ];
  return (
    <div className="bpage">
      <div className="bpage__shot">
        {shotRun ? (
          <Screenshot monitorId={monitorId} run={shotRun} isLatest={shotRun === run} />
        ) : (
          <div className="bshot bshot--none muted">No screenshot kept</div>
        )}
      </div>
      <div className="bpage__facts">
        <dl className="figures bvitals" aria-label="Web Vitals of the last check">
          {vitals.map((v) => (
            <div key={v.label} className="figure" title={v.title}>
              <dt>{v.label}</dt>
              <dd className={v.rating ? `bvital--${v.rating}` : undefined}>
                {v.value}
                {v.rating && <span className="visually-hidden"> ({ratingWords[v.rating]})</span>}
              </dd>
            </div>
          ))}
        </dl>
        {run.finalUrl && (
          <p className="muted bsmall bpage__final">
            Ended at <span className="mono">{run.finalUrl}</span>
            {run.redirects > 0 &&
              ` after ${run.redirects} redirect${run.redirects === 1 ? '' : 's'}`}
          </p>
        )}
      </div>
    </div>
  );
}

function Screenshot({
  monitorId,
  run,
  isLatest,
}: {
  monitorId: number;
  run: BrowserRun;
  isLatest: boolean;
}) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const src = screenshotUrl(monitorId, run.checkId);
  const alt = `The page as Chromium showed it at ${formatDateTime(run.at)}`;
  return (
    <>
      <button type="button" className="bshot" onClick={() => setOpen(true)}>
        <img src={src} alt={alt} loading="lazy" />
        <span className="bshot__caption">
          {isLatest ? (
            'Last check'
          ) : (
            <>
              Check of <RelativeTime iso={run.at} />
            </>
          )}{' '}
          · click to enlarge
        </span>
      </button>
      <dialog
        ref={dialog}
        className="dialog bshot-dialog"
        aria-label="Screenshot"
        onCancel={(e) => {
          e.preventDefault();
          setOpen(false);
        }}
        onClick={(e) => {
          if (e.target === dialog.current) setOpen(false);
        }}
      >
        {open && (
          <div className="dialog__panel">
            <img src={src} alt={alt} className="bshot-dialog__img" />
            <div className="dialog__actions">
              <Button onClick={() => setOpen(false)}>Close</Button>
            </div>
          </div>
        )}
      </dialog>
    </>
  );
}

function Waterfall({ run }: { run: BrowserRun }) {
  const end = Math.max(1, ...run.waterfall.map((r) => r.startMs + r.durationMs));
  return (
    <section className="panel" aria-labelledby="waterfall-heading">
      <div className="panel__head">
        <h2 id="waterfall-heading" className="panel__title">
          Slowest resources
        </h2>
        <span className="muted bsmall">Last check, from navigation start</span>
      </div>
      {run.waterfall.length === 0 ? (
        <p className="panel__empty muted">The page loaded no other resources.</p>
      ) : (
        <ol className="waterfall">
          {run.waterfall.map((r, i) => (
            <li key={`${r.url}-${i}`} className="waterfall__row">
              <span className="waterfall__name mono" title={r.url}>
                {shortUrl(r.url, run.finalUrl)}
              </span>
              <span className="waterfall__type">{r.type}</span>
              <span className="waterfall__track" aria-hidden="true">
                <span
                  className="waterfall__bar"
                  style={{
                    left: `${(r.startMs / end) * 100}%`,
                    width: `${Math.max(0.5, (r.durationMs / end) * 100)}%`,
                  }}
                />
              </span>
              <span className="waterfall__ms">
                {formatMs(r.durationMs)}
                <span className="visually-hidden"> starting at {formatMs(r.startMs)}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function PageErrors({ run }: { run: BrowserRun }) {
  return (
    <section className="panel" aria-labelledby="page-errors-heading">
      <div className="panel__head">
        <h2 id="page-errors-heading" className="panel__title">
          Failed requests and console errors
        </h2>
      </div>
      {run.failedRequests.length === 0 && run.console.length === 0 ? (
        <p className="panel__empty muted">None in the last check.</p>
      ) : (
        <div className="perrors">
          {run.failedRequests.length > 0 && (
            <div className="ctable-wrap">
              <table className="ctable">
                <caption className="visually-hidden">Failed requests</caption>
                <thead>
                  <tr>
                    <th scope="col">Failed request</th>
                    <th scope="col">Type</th>
                    <th scope="col">Result</th>
                  </tr>
                </thead>
                <tbody>
                  {run.failedRequests.map((f, i) => (
                    <tr key={`${f.url}-${i}`}>
                      <td className="mono perrors__url">{shortUrl(f.url, run.finalUrl)}</td>
                      <td>{f.type}</td>
                      <td className="text-down">{f.status ?? f.error}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {run.console.length > 0 && (
            <ul className="console" aria-label="Console errors">
              {run.console.map((c, i) => (
                <li key={i} className={`console__entry console__entry--${c.kind}`}>
                  <span className="console__kind">
                    {c.kind === 'exception' ? 'Uncaught' : 'Error'}
                  </span>
                  <span className="mono console__text">{c.text}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
