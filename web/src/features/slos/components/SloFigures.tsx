import type { Slo } from '@pagewatch/contract';
import { formatPercent } from '../../../lib/format';
import { formatBurn, formatSpan, healthLabels, windowLabels } from '../describe';
import { BudgetBar } from './BudgetBar';

/** Healthy, at risk, spent or without data, as a coloured chip. */
export function HealthChip({ slo }: { slo: Slo }) {
  const h = slo.status.health;
  return (
    <span className={`slo-health slo-health--${h}`} data-testid="slo-health">
      {healthLabels[h]}
    </span>
  );
}

/** One SLO's figures: attainment against target, budget left, burn rate and runway. */
export function SloFigures({ slo }: { slo: Slo }) {
  const s = slo.status;
  return (
    <div className="slo-figures">
      <dl className="slo-stats">
        <div>
          <dt>Attainment</dt>
          <dd data-testid="slo-attainment">
            {formatPercent(s.attainment)} <span className="muted">of {slo.target}%</span>
          </dd>
        </div>
        <div>
          <dt>Burn rate (1 h)</dt>
          <dd>{formatBurn(s.burnRate)}</dd>
        </div>
        <div>
          <dt>Runs out in</dt>
          <dd>
            {s.remainingMs <= 0
              ? 'Spent'
              : s.exhaustionMs === null
                ? 'Not burning'
                : formatSpan(s.exhaustionMs)}
          </dd>
        </div>
        {slo.latency && s.latency && (
          <div>
            <dt>
              p{slo.latency.percent} under {slo.latency.thresholdMs} ms
            </dt>
            <dd className={s.latency.met === false ? 'text-down' : ''}>
              {s.latency.observedMs === null ? '—' : `${Math.round(s.latency.observedMs)} ms`}
            </dd>
          </div>
        )}
      </dl>
      <BudgetBar status={s} />
      <p className="muted slo-window">
        {windowLabels[slo.window]}
        {slo.window === 'month' || slo.window === 'quarter'
          ? ` (${slo.timeZone.replaceAll('_', ' ')})`
          : ''}
        {' · '}
        {s.checks} checks, {s.badChecks} failed
      </p>
    </div>
  );
}
