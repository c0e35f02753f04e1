import type { SloStatus } from '@pagewatch/contract';
import { formatSpan } from '../describe';

/** The error budget left as a bar: full when untouched, empty once spent. */
export function BudgetBar({ status }: { status: SloStatus }) {
  const left = Math.max(0, Math.min(100, status.remainingPercent));
  const tone =
    status.remainingPercent <= 0 ? 'bad' : status.remainingPercent < 25 ? 'warn' : 'good';
  const text =
    status.remainingMs <= 0
      ? `Spent (${formatSpan(-status.remainingMs)} over)`
      : `${Math.floor(left * 10) / 10} % left · ${formatSpan(status.remainingMs)} of ${formatSpan(status.budgetMs)}`;
  return (
    <div className="budget">
      <div
        className="budget__track"
        role="meter"
        aria-label="Error budget left"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(left)}
        aria-valuetext={text}
      >
        <div className={`budget__fill budget__fill--${tone}`} style={{ width: `${left}%` }} />
      </div>
      <p className="budget__text" data-testid="slo-budget">
        {text}
      </p>
    </div>
  );
}
