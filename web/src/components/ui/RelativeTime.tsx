import { formatDateTime, formatRelative } from '../../lib/format';
import { useNow } from '../../lib/now';

/** "3m ago" that keeps itself current; the exact time is in the title and datetime attribute. */
export function RelativeTime({ iso }: { iso: string | null | undefined }) {
  const now = useNow();
  if (!iso) return <span className="muted">Never</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso, now)}
    </time>
  );
}
