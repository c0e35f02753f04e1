import type { CheckResult } from '@pagewatch/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { memo } from 'react';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { ErrorNotice } from '../../../components/ui/Notice';
import { LoadingBlock } from '../../../components/ui/Skeleton';
import { formatDateTime, formatMs, formatShortDateTime } from '../../../lib/format';
import { monitorChecksQuery } from '../api/queries';
import { errorLabel } from '../error-codes';
import { otherMs, phaseLabel, phases } from './chart-data';
import { outcomeLabel, statusMeta } from './status';

function phaseTitle(c: CheckResult): string | undefined {
  const parts = phases
    .filter((p) => c.phases[p] !== null)
    .map((p) => `${phaseLabel[p]} ${formatMs(c.phases[p])}`);
  const other = otherMs(c);
  if (parts.length && other !== null) parts.push(`Other ${formatMs(other)}`);
  return parts.length ? parts.join(' · ') : undefined;
}

const CheckRow = memo(function CheckRow({ check: c }: { check: CheckResult }) {
  const label = errorLabel(c.errorCode);
  return (
    <tr className="crow" data-testid="check-row" data-outcome={c.outcome}>
      <td className="crow__time">
        <time dateTime={c.at} title={formatDateTime(c.at)}>
          {formatShortDateTime(c.at)}
        </time>
      </td>
      <td className="crow__outcome">
        <span className={`outcome outcome--${c.outcome}`}>
          <Icon name={statusMeta[c.outcome].icon} size={14} />
          {outcomeLabel[c.outcome]}
        </span>
      </td>
      <td className="crow__num" data-label="HTTP">
        {c.httpStatus ?? '—'}
      </td>
      <td className="crow__num" data-label="Latency" title={phaseTitle(c)}>
        {formatMs(c.latencyMs)}
      </td>
      <td className="crow__error">
        {label ? (
          <>
            <span className="crow__code">
              {label} <code className="crow__raw">{c.errorCode}</code>
            </span>
            {c.errorMessage && <span className="crow__message">{c.errorMessage}</span>}
          </>
        ) : c.errorMessage ? (
          // A note the job sent with a good ping (push monitors).
          <span className="crow__message">{c.errorMessage}</span>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  );
});

/** Newest checks first; older pages load on request through the cursor. */
export function ChecksTable({ monitorId }: { monitorId: number }) {
  const query = useInfiniteQuery(monitorChecksQuery(monitorId));
  const checks = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="panel" aria-labelledby="checks-heading">
      <div className="panel__head">
        <h2 id="checks-heading" className="panel__title">
          Recent checks
        </h2>
      </div>
      {query.isPending && <LoadingBlock label="Loading checks…" />}
      {query.error && !query.data && (
        <ErrorNotice
          error={query.error}
          action={
            <Button size="sm" onClick={() => void query.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {query.data && checks.length === 0 && (
        <p className="muted panel__empty">No checks yet. The first one runs within one interval.</p>
      )}
      {checks.length > 0 && (
        <div className="ctable-wrap">
          <table className="ctable">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Outcome</th>
                <th scope="col" className="ctable__num">
                  HTTP
                </th>
                <th scope="col" className="ctable__num">
                  Latency
                </th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {checks.map((c) => (
                <CheckRow key={c.id} check={c} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {query.error && query.data && <ErrorNotice error={query.error} />}
      {query.hasNextPage && (
        <div className="panel__foot">
          <Button
            size="sm"
            busy={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            Load older checks
          </Button>
        </div>
      )}
    </section>
  );
}
