import '../../styles/config.css';
import type { ConfigFileStatus } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Notice } from '../../components/ui/Notice';
import { api } from '../../lib/api';
import { useCan } from '../auth/api/session';
import { formatDateTime } from '../../lib/format';

/** Problems listed in the banner; the rest are counted (the log and the API have them all). */
const SHOWN = 5;

function useConfigFileStatus(enabled: boolean) {
  return useQuery({
    queryKey: ['config', 'status'],
    queryFn: ({ signal }) => api<ConfigFileStatus>('/config/status', { signal }),
    enabled,
    // The server reads the files every 30 s at most; the banner follows at that pace.
    refetchInterval: 30_000,
  });
}

const place = (p: ConfigFileStatus['errors'][number]) =>
  `${p.file}:${p.line}:${p.column}${p.path ? ` ${p.path}` : ''}:`;

/**
 * For admins: the server's configuration files (PAGEWATCH_CONFIG) failed to apply, so the
 * configuration running is the one applied before. Nothing shows while they apply.
 */
export function ConfigFileBanner() {
  const isAdmin = useCan('admin');
  const { data } = useConfigFileStatus(isAdmin);
  if (!isAdmin || !data?.enabled || data.ok !== false) return null;
  const since = data.lastAppliedAt
    ? `the configuration applied ${formatDateTime(data.lastAppliedAt)} keeps running`
    : 'nothing from them is applied yet';
  return (
    <Notice
      tone="danger"
      title="The configuration files could not be applied"
      className="config-file-banner"
    >
      <p>
        The server reads <code>{data.source}</code>; {since}. Fix these and save, and it applies
        them:
      </p>
      <ul className="config-file-banner__errors">
        {data.errors.slice(0, SHOWN).map((p, i) => (
          <li key={i}>
            <code>{place(p)}</code> {p.message}
          </li>
        ))}
      </ul>
      {data.errors.length > SHOWN && <p>…and {data.errors.length - SHOWN} more, in the log.</p>}
    </Notice>
  );
}
