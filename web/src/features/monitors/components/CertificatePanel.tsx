import type { Certificate } from '@pagewatch/contract';
import type { ReactNode } from 'react';
import { Icon } from '../../../components/ui/Icon';
import { formatDateTime, plural } from '../../../lib/format';

const DAY_MS = 86_400_000;
/** Below this many days left the expiry is shown as a warning. */
export const CERT_WARN_DAYS = 14;

/** Whole days until `notAfter`; negative once expired. */
export function daysLeft(notAfter: string, now: number = Date.now()): number {
  return Math.floor((Date.parse(notAfter) - now) / DAY_MS);
}

function expiry(notAfter: string | null): ReactNode {
  if (notAfter === null) return '—';
  const days = daysLeft(notAfter);
  const tone = days < 0 ? 'danger' : days < CERT_WARN_DAYS ? 'warning' : 'ok';
  const left =
    days < 0
      ? `expired ${plural(-days, 'day')} ago`
      : days === 0
        ? 'expires today'
        : `${plural(days, 'day')} left`;
  return (
    <>
      {formatDateTime(notAfter)}{' '}
      <span className={`certdays certdays--${tone}`} data-testid="cert-days">
        {tone !== 'ok' && <Icon name="alertTriangle" size={13} />}
        {left}
      </span>
    </>
  );
}

/** The certificate the last check was shown, for any monitor type that speaks TLS. */
export function CertificatePanel({ certificate: c }: { certificate: Certificate }) {
  // Long values (names, the fingerprint) take a whole row on narrow screens.
  const rows: [string, ReactNode, boolean?][] = [
    ['Subject', c.subject ?? '—'],
    ['Issuer', c.issuer ?? '—'],
    [
      'Names',
      c.sans.length === 0 ? (
        'None listed'
      ) : (
        <ul className="settings__list mono">
          {c.sans.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      ),
      true,
    ],
    ['Valid from', c.notBefore === null ? '—' : formatDateTime(c.notBefore)],
    ['Valid until', expiry(c.notAfter)],
    ['SHA-256 fingerprint', <code className="certfp">{c.fingerprint256 ?? '—'}</code>, true],
  ];
  return (
    <section className="panel" aria-labelledby="cert-heading" data-testid="certificate-panel">
      <div className="panel__head">
        <h2 id="cert-heading" className="panel__title">
          TLS certificate
        </h2>
        {c.trusted ? (
          <span className="certtrust certtrust--ok">
            <Icon name="shield" size={14} />
            Trusted
          </span>
        ) : (
          <span className="certtrust certtrust--bad">
            <Icon name="alertTriangle" size={14} />
            Not trusted{c.verifyError ? `: ${c.verifyError}` : ''}
          </span>
        )}
      </div>
      <dl className="settings">
        {rows.map(([term, value, wide]) => (
          <div key={term} className={wide ? 'settings__row settings__row--wide' : 'settings__row'}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
