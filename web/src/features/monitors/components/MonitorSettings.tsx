import type { Monitor } from '@pagewatch/contract';
import type { ReactNode } from 'react';
import { formatCount, formatSeconds, plural } from '../../../lib/format';

function keywordText(k: NonNullable<Monitor['keyword']>): string {
  const verb = k.mode === 'present' ? 'Must contain' : 'Must not contain';
  return `${verb} “${k.value}”${k.caseSensitive ? '' : ', any case'}`;
}

/** What the check does, at a glance. Header values are left out: they often hold secrets. */
export function MonitorSettings({ monitor: m }: { monitor: Monitor }) {
  const rows: [string, ReactNode][] = [
    ['Interval', `Every ${formatSeconds(m.interval)}`],
    ['Timeout', formatSeconds(m.timeout)],
    [
      'Confirm failures',
      m.retries === 0
        ? 'Down on the first failure'
        : `${plural(m.retries, 'retry', 'retries')}${m.retryInterval ? `, every ${formatSeconds(m.retryInterval)}` : ''}`,
    ],
    ['Accepted status', m.acceptedStatusCodes.join(', ')],
    ['Redirects', m.followRedirects ? `Followed, up to ${m.maxRedirects}` : 'Not followed'],
    ['Keyword', m.keyword ? keywordText(m.keyword) : 'None'],
    [
      'Degraded above',
      m.degradedThresholdMs === null ? 'No threshold' : `${formatCount(m.degradedThresholdMs)} ms`,
    ],
    ['Headers', m.headers.length ? m.headers.map((h) => h.name).join(', ') : 'None'],
    ['Body', m.body ? `${plural(new TextEncoder().encode(m.body).length, 'byte')}` : 'None'],
    [
      'TLS certificate',
      // Redirects may still lead to https, so the setting matters even on an http:// URL.
      m.ignoreTls ? (
        <span className="text-warning">Not verified</span>
      ) : m.url.startsWith('https:') ? (
        'Verified'
      ) : (
        'Verified if redirected to HTTPS'
      ),
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
