import { localToInstant, type AuditEvent } from '@pagewatch/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../../components/ui/Button';
import { EmptyState } from '../../../../components/ui/EmptyState';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { displayTimeZone, formatDateTime, formatShortDateTime } from '../../../../lib/format';
import {
  actionFilterLabel,
  auditActionGroups,
  auditQuery,
  auditSentence,
  type AuditFilters,
} from '../../api/audit';
import { usersQuery } from '../../api/users';

/** Where a line's target lives in the app, when it has a screen of its own. */
const targetPath: Record<string, (id: string) => string> = {
  monitor: (id) => `/monitors/${id}`,
  incident: (id) => `/incidents/${id}`,
  status_page: (id) => `/status-pages/${id}/edit`,
  notification_channel: (id) => `/notifications/${id}`,
};

function AuditRow({ e }: { e: AuditEvent }) {
  const path = e.target?.id ? targetPath[e.target.type]?.(e.target.id) : undefined;
  const gone = e.action.endsWith('.deleted');
  return (
    <tr className="auditlog__row" data-testid="audit-row" data-action={e.action}>
      <td className="auditlog__time">
        <time dateTime={e.at} title={formatDateTime(e.at)}>
          {formatShortDateTime(e.at)}
        </time>
      </td>
      <td className="auditlog__what">
        {path && !gone ? <Link to={path}>{auditSentence(e)}</Link> : auditSentence(e)}
      </td>
      <td className="auditlog__summary" data-label="Details">
        {e.summary}
      </td>
      <td className="auditlog__ip mono" data-label="IP">
        {e.ip ?? '—'}
      </td>
    </tr>
  );
}

/** A `YYYY-MM-DD` day in the display zone as the instant it starts, `days` later. */
function dayStart(day: string | null, days = 0): string | null {
  if (!day) return null;
  const t = localToInstant(`${day}T00:00`, displayTimeZone());
  if (t === null) return null;
  // Whole days in the zone: step the wall clock, not 24 h (DST days are 23 or 25 h).
  if (days === 0) return new Date(t).toISOString();
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000);
  return dayStart(next.toISOString().slice(0, 10));
}

const PARAMS = ['person', 'action', 'from', 'to'] as const;

/** Who did what, newest first: by person, action or area and days, all filtered by the server. */
export function AuditScreen() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const person = params.get('person');
  const fromDay = params.get('from');
  const toDay = params.get('to');
  const filters: AuditFilters = {
    action: params.get('action') || null,
    userId: person && /^\d+$/.test(person) ? Number(person) : null,
    from: dayStart(fromDay),
    // "To 3 May" includes 3 May: the range ends when 4 May starts.
    to: dayStart(toDay, 1),
  };
  const query = useInfiniteQuery(auditQuery(filters));
  const people = useQuery(usersQuery());
  const events = query.data?.pages.flatMap((p) => p.items);
  const filtered = PARAMS.some((k) => params.get(k));

  const set = (key: (typeof PARAMS)[number], value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  return (
    <>
      <div className="settings-head">
        <div>
          <h2 className="settings-title">Audit log</h2>
          <p className="page-sub">
            Who changed what: sign-ins, people and keys, monitors, incidents, maintenance, status
            pages, channels and settings.
          </p>
        </div>
      </div>
      <form
        className="auditlog__filters"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="auditlog__filter">
          <label htmlFor={`${id}-person`}>Person</label>
          <select
            id={`${id}-person`}
            className="input select"
            value={person ?? ''}
            onChange={(e) => set('person', e.target.value)}
          >
            <option value="">Everyone</option>
            {people.data?.items.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name} ({u.email})
              </option>
            ))}
          </select>
        </div>
        <div className="auditlog__filter">
          <label htmlFor={`${id}-action`}>Action</label>
          <select
            id={`${id}-action`}
            className="input select"
            value={filters.action ?? ''}
            onChange={(e) => set('action', e.target.value)}
          >
            <option value="">All actions</option>
            {auditActionGroups.map((g) => (
              <optgroup key={g.group} label={g.group}>
                {g.areas.map((area) => (
                  <option key={area} value={`${area}.*`}>
                    {actionFilterLabel(`${area}.*`)}
                  </option>
                ))}
                {g.actions.map((a) => (
                  <option key={a.value} value={a.value}>
                    {a.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <div className="auditlog__filter auditlog__filter--date">
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            type="date"
            className="input"
            value={fromDay ?? ''}
            max={toDay ?? undefined}
            onChange={(e) => set('from', e.target.value)}
          />
        </div>
        <div className="auditlog__filter auditlog__filter--date">
          <label htmlFor={`${id}-to`}>To</label>
          <input
            id={`${id}-to`}
            type="date"
            className="input"
            value={toDay ?? ''}
            min={fromDay ?? undefined}
            onChange={(e) => set('to', e.target.value)}
          />
        </div>
        {filtered && (
          <Button
            variant="ghost"
            size="sm"
            className="auditlog__clear"
            onClick={() => setParams({}, { replace: true })}
          >
            Clear filters
          </Button>
        )}
      </form>
      {query.isPending && <LoadingBlock label="Loading the audit log…" rows={6} />}
      {query.error && !events && (
        <ErrorNotice
          error={query.error}
          action={
            <Button size="sm" busy={query.isRefetching} onClick={() => void query.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {events && events.length === 0 && (
        <EmptyState icon="list" title="Nothing recorded">
          {filtered ? 'Nothing matches these filters.' : 'No events yet.'}
        </EmptyState>
      )}
      {events && events.length > 0 && (
        <div className="dtable-wrap">
          <table className="dtable auditlog">
            <caption className="visually-hidden">Audit events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What happened</th>
                <th scope="col">Details</th>
                <th scope="col">IP</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <AuditRow key={e.id} e={e} />
              ))}
            </tbody>
          </table>
          {(query.hasNextPage || query.isFetchNextPageError) && (
            <div className="dtable__more">
              <Button busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                Load older
              </Button>
            </div>
          )}
        </div>
      )}
      {query.isFetchNextPageError && <ErrorNotice error={query.error} className="section-gap" />}
    </>
  );
}
