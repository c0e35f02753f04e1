import '../../../../styles/coverage.css';
import type { MonitorTrialResult } from '@pagewatch/contract';
import { useEffect, useRef } from 'react';
import { Icon } from '../../../../components/ui/Icon';
import { formatMs } from '../../../../lib/format';
import { errorLabel } from '../../error-codes';
import { phaseLabel, phases } from '../chart-data';
import { ResultRow } from '../LastCheckPanel';

const OUTCOME = {
  up: { label: 'Up', icon: 'checkCircle', tone: 'pass' },
  degraded: { label: 'Degraded', icon: 'alertTriangle', tone: 'soft' },
  down: { label: 'Down', icon: 'xCircle', tone: 'fail' },
} as const;

/** What "Test" saw with the unsaved settings: outcome, time per phase, every assertion. */
export function TrialResult({ result: r }: { result: MonitorTrialResult }) {
  const ref = useRef<HTMLElement>(null);
  // "Test" sits in the sticky footer: bring each new result into view above it.
  useEffect(() => {
    // Newer browsers return a promise here; an effect must return nothing or a cleanup.
    void ref.current?.scrollIntoView({ block: 'nearest' });
  }, [r]);
  const o = OUTCOME[r.outcome];
  const parts = phases.filter((p) => r.phases[p] !== null);
  return (
    <section
      ref={ref}
      className="panel trial"
      aria-labelledby="trial-heading"
      data-testid="trial-result"
    >
      <div className="panel__head">
        <h2 id="trial-heading" className="panel__title">
          Test result
        </h2>
        <span className="panel__meta">Not saved; the monitor’s history is unchanged.</span>
      </div>
      <p className={`trial__outcome arow__badge arow__badge--${o.tone}`} role="status">
        <Icon name={o.icon} size={16} />
        {o.label}
        {r.httpStatus !== null && ` · HTTP ${r.httpStatus}`}
        {r.latencyMs !== null && ` · ${formatMs(r.latencyMs)}`}
      </p>
      {r.errorCode && (
        <p className="trial__error">
          <strong>{errorLabel(r.errorCode)}</strong>
          {r.errorMessage && `: ${r.errorMessage}`}
        </p>
      )}
      {parts.length > 0 && (
        <dl className="lastphases" aria-label="Time per phase of the test">
          {parts.map((p) => (
            <div key={p} className="lastphases__item">
              <dt>
                <span className={`lastphases__dot lastphases__dot--${p}`} aria-hidden="true" />
                {phaseLabel[p]}
              </dt>
              <dd>{formatMs(r.phases[p])}</dd>
            </div>
          ))}
          <div className="lastphases__item lastphases__item--total">
            <dt>Total</dt>
            <dd>{formatMs(r.latencyMs)}</dd>
          </div>
        </dl>
      )}
      {r.details.assertions.length > 0 && (
        <div className="ctable-wrap">
          <table className="ctable atable">
            <caption className="visually-hidden">Assertion results of the test</caption>
            <thead>
              <tr>
                <th scope="col">Result</th>
                <th scope="col">Check</th>
                <th scope="col">Expected</th>
                <th scope="col">Actual</th>
              </tr>
            </thead>
            <tbody>
              {r.details.assertions.map((a, i) => (
                <ResultRow key={i} result={a} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
