import type { AuditEvent } from '@pagewatch/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Button } from '../../../../components/ui/Button';
import { EmptyState } from '../../../../components/ui/EmptyState';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { formatDateTime, formatShortDateTime } from '../../../../lib/format';
import { auditActions, auditQuery } from '../../api/audit';

const actorKind: Record<AuditEvent['actor']['type'], string> = {
  user: 'person',
  api_key: 'API key',
  system: 'system',
  anonymous: 'not signed in',
};

function AuditRow({ e }: { e: AuditEvent }) {
  return (
    <tr className="arow" data-testid="audit-row">
      <td className="arow__time">
        <time dateTime={e.at} title={formatDateTime(e.at)}>
          {formatShortDateTime(e.at)}
        </time>
      </td>
      <td className="arow__actor" data-label="By">
        {e.actor.type === 'anonymous' ? (
          <span className="muted">Not signed in</span>
        ) : (
          <>
            {e.actor.label}
            {e.actor.type !== 'user' && (
              <span className="arow__kind"> ({actorKind[e.actor.type]})</span>
            )}
          </>
        )}
      </td>
      <td className="arow__action">
        <code className={`action action--${e.action.split('.')[0] ?? ''}`}>{e.action}</code>
      </td>
      <td className="arow__target" data-label="Target">
        {e.target
          ? `${e.target.type.replace('_', ' ')}${e.target.id ? ` #${e.target.id}` : ''}`
          : '—'}
      </td>
      <td className="arow__ip mono" data-label="IP">
        {e.ip ?? '—'}
      </td>
      <td className="arow__summary">{e.summary}</td>
    </tr>
  );
}

/** Who did what, newest first, with a filter by action and older pages on demand. */
export function AuditScreen() {
  const [params, setParams] = useSearchParams();
  const action = params.get('action') || null;
  const query = useInfiniteQuery(auditQuery(action));
  const events = query.data?.pages.flatMap((p) => p.items);

  return (
    <>
      <div className="settings-head">
        <div>
          <h2 className="settings-title">Audit log</h2>
          <p className="page-sub">Sign-ins, changes to people and keys, and monitor changes.</p>
        </div>
        <label className="select-label">
          <span>Action</span>
          <select
            className="input select"
            value={action ?? ''}
            onChange={(e) =>
              setParams(e.target.value ? { action: e.target.value } : {}, { replace: true })
            }
          >
            <option value="">All actions</option>
            {auditActions.map((g) => (
              <optgroup key={g.group} label={g.group}>
                {g.actions.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
      </div>
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
          {action ? `No “${action}” events yet.` : 'No events yet.'}
        </EmptyState>
      )}
      {events && events.length > 0 && (
        <div className="dtable-wrap">
          <table className="dtable atable">
            <caption className="visually-hidden">Audit events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">By</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">IP</th>
                <th scope="col">Summary</th>
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
