import type { Monitor } from '@pagewatch/contract';
import type { ReactNode } from 'react';
import { formatCount, formatSeconds, plural } from '../../../lib/format';
import { displayOf } from '../kinds/display';

/** What the check does, at a glance. HTTP header values are left out: they often hold secrets. */
export function MonitorSettings({ monitor: m }: { monitor: Monitor }) {
  const kind = displayOf(m);
  const rows: [string, ReactNode][] = [
    ['Interval', kind.cadence?.(m) ?? `Every ${formatSeconds(m.interval)}`],
    ...(kind.passive ? [] : [['Timeout', formatSeconds(m.timeout)] as [string, ReactNode]]),
    [
      'Confirm failures',
      m.retries === 0
        ? 'Down on the first failure'
        : `${plural(m.retries, 'retry', 'retries')}${m.retryInterval ? `, every ${formatSeconds(m.retryInterval)}` : ''}`,
    ],
    ...kind.settings(m),
    [
      'Degraded above',
      m.degradedThresholdMs === null ? 'No threshold' : `${formatCount(m.degradedThresholdMs)} ms`,
    ],
  ];
  return (
    <section className="panel" aria-labelledby="settings-heading">
      <div className="panel__head">
        <h2 id="settings-heading" className="panel__title">
          Check settings
        </h2>
      </div>
      <dl className="settings">
        {rows.map(([term, value]) => (
          <div key={term} className="settings__row">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
