import type { DomainRegistration } from '@pagewatch/contract';
import type { ReactNode } from 'react';
import { Icon } from '../../../components/ui/Icon';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { formatDateTime, plural } from '../../../lib/format';
import { daysLeft } from './CertificatePanel';

/** Below this many days left the registration's expiry is shown as a warning. */
const DOMAIN_WARN_DAYS = 30;

function expiry(expiresAt: string | null): ReactNode {
  if (expiresAt === null) return 'Not known';
  const days = daysLeft(expiresAt);
  const tone = days < 0 ? 'danger' : days < DOMAIN_WARN_DAYS ? 'warning' : 'ok';
  const left =
    days < 0
      ? `expired ${plural(-days, 'day')} ago`
      : days === 0
        ? 'expires today'
        : `${plural(days, 'day')} left`;
  return (
    <>
      {formatDateTime(expiresAt)}{' '}
      <span className={`certdays certdays--${tone}`} data-testid="domain-days">
        {tone !== 'ok' && <Icon name="alertTriangle" size={13} />}
        {left}
      </span>
    </>
  );
}

/**
 * The registration the last RDAP lookup found: for domain monitors, and HTTP monitors that
 * watch their domain. A failed lookup is named beside the last answer that stands in for it.
 */
export function DomainRegistrationPanel({ registration: r }: { registration: DomainRegistration }) {
  const rows: [string, ReactNode][] = [
    ['Domain', <span className="mono">{r.domain}</span>],
    ['Expires', expiry(r.expiresAt)],
    ['Registrar', r.registrar ?? '—'],
    ['Registry asked', r.checkedAt ? <RelativeTime iso={r.checkedAt} /> : 'No answer yet'],
    ['RDAP service', r.server ? <span className="mono">{r.server}</span> : 'None for this TLD'],
  ];
  if (r.errorMessage !== null) rows.push(['Last lookup', r.errorMessage]);
  return (
    <section
      className="panel"
      aria-labelledby="domain-heading"
      data-testid="domain-registration-panel"
    >
      <div className="panel__head">
        <h2 id="domain-heading" className="panel__title">
          Domain registration
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
