import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Skeleton } from '../../../components/ui/Skeleton';
import { isApiError } from '../../../lib/api';
import { maintenancePreviewQuery } from '../api/maintenance';
import { formatRangeIn } from '../../../lib/format';
import type { MaintenancePreviewInput } from '@pagewatch/contract';

/** `value` once it has stopped changing for `ms`: a rule typed key by key is asked about once. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
    // The key stands for the value: a new object with the same content is no change.
  }, [key, ms]);
  return settled;
}

/** The next occurrences of the schedule as it is typed, asked of the server that will run it. */
export function OccurrencePreview({ input }: { input: MaintenancePreviewInput | null }) {
  const deferred = useSettled(input, 300);
  const { data, error, isFetching } = useQuery(maintenancePreviewQuery(deferred));
  const zone = deferred?.timezone ?? 'UTC';
  const problem =
    error && isApiError(error) && error.fieldErrors[0] ? error.fieldErrors[0].message : null;

  return (
    <section className="mw-preview" aria-labelledby="mw-preview-title" aria-busy={isFetching}>
      <h3 id="mw-preview-title" className="mw-preview__title">
        Next occurrences
        <span className="mw-preview__zone">{zone}</span>
      </h3>
      {input === null ? (
        <p className="muted">Fill in the schedule to see when the window happens.</p>
      ) : error ? (
        <p className="field__error" role="status">
          {problem ?? 'The preview is not available right now.'}
        </p>
      ) : !data ? (
        <Skeleton height={80} />
      ) : data.occurrences.length === 0 ? (
        <p className="muted" role="status">
          This schedule has no occurrences left: it has ended.
        </p>
      ) : (
        <ol className="mw-preview__list" role="status" aria-live="polite">
          {data.occurrences.map((o) => (
            <li key={o.startsAt}>
              <time dateTime={o.startsAt}>{formatRangeIn(o.startsAt, o.endsAt, zone)}</time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
