import type { AssertionResult, Monitor } from '@pagewatch/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Icon } from '../../../components/ui/Icon';
import { formatDateTime, formatMs, formatRelative } from '../../../lib/format';
import { monitorChecksQuery } from '../api/queries';
import { errorLabel } from '../error-codes';
import { otherMs, phaseLabel, phases } from './chart-data';

const KIND_LABEL: Record<string, string> = {
  status: 'Status',
  keyword: 'Text',
  regex: 'Pattern',
  json: 'JSON',
  header: 'Header',
  latency: 'Time',
  size: 'Size',
  banner: 'Banner',
};

export function ResultRow({ result: r }: { result: AssertionResult }) {
  const state = r.passed ? 'pass' : r.soft ? 'soft' : 'fail';
  const label = r.passed ? 'Passed' : r.soft ? 'Failed (soft)' : 'Failed';
  return (
    <tr className={`arow arow--${state}`} data-testid="assertion-result" data-passed={r.passed}>
      <td className="arow__result">
        <span className={`arow__badge arow__badge--${state}`}>
          <Icon name={r.passed ? 'checkCircle' : r.soft ? 'alertTriangle' : 'xCircle'} size={14} />
          {label}
        </span>
      </td>
      <td className="arow__what">
        <span className="arow__kind">{KIND_LABEL[r.kind] ?? r.kind}</span>{' '}
        <span className="mono">{r.target}</span>
      </td>
      <td className="arow__value mono" data-label="Expected">
        {r.expected}
      </td>
      <td className="arow__value mono" data-label="Actual">
        {r.actual ?? '—'}
      </td>
    </tr>
  );
}

/** Time per phase of the newest check, from the history already loaded below. */
function LastPhases({ monitorId }: { monitorId: number }) {
  const { data } = useInfiniteQuery(monitorChecksQuery(monitorId));
  const last = data?.pages[0]?.items[0];
  if (!last) return null;
  const parts = phases.filter((p) => last.phases[p] !== null);
  if (parts.length === 0) return null;
  const other = otherMs(last);
  return (
    <dl className="lastphases" aria-label="Time per phase of the last check">
      {parts.map((p) => (
        <div key={p} className="lastphases__item">
          <dt>
            <span className={`lastphases__dot lastphases__dot--${p}`} aria-hidden="true" />
            {phaseLabel[p]}
          </dt>
          <dd>{formatMs(last.phases[p])}</dd>
        </div>
      ))}
      {other !== null && (
        <div
          className="lastphases__item"
          title="Time between the phases: redirects, writing the request, the check's own work"
        >
          <dt>
            <span className="lastphases__dot lastphases__dot--other" aria-hidden="true" />
            Other
          </dt>
          <dd>{formatMs(other)}</dd>
        </div>
      )}
      <div className="lastphases__item lastphases__item--total">
        <dt>Total</dt>
        <dd>{formatMs(last.latencyMs)}</dd>
      </div>
    </dl>
  );
}

/** What the last check found: time per phase and every assertion, expected against actual. */
export function LastCheckPanel({ monitor: m }: { monitor: Monitor }) {
  const details = m.lastDetails;
  const last = m.lastCheck;
  return (
    <section className="panel" aria-labelledby="lastcheck-heading">
      <div className="panel__head">
        <h2 id="lastcheck-heading" className="panel__title">
          Last check
        </h2>
        {last && (
          <span className="panel__meta">
            <time dateTime={last.at} title={formatDateTime(last.at)}>
              {formatRelative(last.at)}
            </time>
            {last.errorCode && ` · ${errorLabel(last.errorCode)}`}
          </span>
        )}
      </div>
      {!last ? (
        <p className="panel__empty muted">No check has run yet.</p>
      ) : (
        <>
          <LastPhases monitorId={m.id} />
          {details && details.assertions.length > 0 ? (
            <div className="ctable-wrap">
              <table className="ctable atable">
                <caption className="visually-hidden">Assertion results of the last check</caption>
                <thead>
                  <tr>
                    <th scope="col">Result</th>
                    <th scope="col">Check</th>
                    <th scope="col">Expected</th>
                    <th scope="col">Actual</th>
                  </tr>
                </thead>
                <tbody>
                  {details.assertions.map((r, i) => (
                    <ResultRow key={i} result={r} />
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="panel__empty muted">
              {details
                ? 'The check stopped before any assertion was evaluated.'
                : 'No assertion results were recorded for this check.'}
            </p>
          )}
        </>
      )}
    </section>
  );
}
