import '../../styles/coverage.css';
import type { CoverageNotice } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { ButtonLink } from '../../components/ui/Button';
import { Notice } from '../../components/ui/Notice';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../auth/api/session';

/** Locations named in the banner; the rest are counted (Settings → Locations has them all). */
const SHOWN = 4;

function useCoverageNotice(enabled: boolean) {
  return useQuery({
    queryKey: ['locations', 'coverage'],
    queryFn: ({ signal }) => api<CoverageNotice>('/locations/coverage', { signal }),
    enabled,
    // The server's sweep passes every few seconds; the banner follows at a calmer pace.
    refetchInterval: 30_000,
  });
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * For admins: one notice for every monitor that is UNKNOWN because too few of its locations
 * report (ADR 73), naming the silent locations. Nothing shows while coverage is whole.
 */
export function CoverageBanner() {
  const isAdmin = useCan('admin');
  const { data } = useCoverageNotice(isAdmin);
  if (!isAdmin || !data || data.monitors === 0) return null;
  const shown = data.locations.slice(0, SHOWN);
  const more = data.locations.length - shown.length;
  return (
    <Notice
      tone="warning"
      className="coverage-banner"
      title={`Coverage lost: ${plural(data.monitors, 'monitor is', 'monitors are')} unknown`}
      action={
        <div className="coverage-banner__links">
          <ButtonLink size="sm" to="/?status=unknown">
            Show them
          </ButtonLink>
          <ButtonLink size="sm" variant="ghost" to="/settings/locations">
            Locations
          </ButtonLink>
        </div>
      }
    >
      <p>
        Too few of their locations have sent a recent result, so Pagewatch cannot say whether they
        are up{data.since ? ` (since ${formatDateTime(data.since)})` : ''}. Silent:
      </p>
      <ul className="coverage-banner__locations">
        {shown.map((l) => (
          <li key={l.id}>
            <strong>{l.name}</strong> — {plural(l.monitors, 'monitor', 'monitors')}
          </li>
        ))}
        {more > 0 && <li>…and {plural(more, 'more location', 'more locations')}</li>}
      </ul>
    </Notice>
  );
}
