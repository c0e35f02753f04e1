import type { ApiKey } from '@pagewatch/contract';
import { memo } from 'react';
import { Button } from '../../../../components/ui/Button';
import { RelativeTime } from '../../../../components/ui/RelativeTime';
import { formatDate, formatDateTime } from '../../../../lib/format';
import { useNow } from '../../../../lib/now';
import { roleLabel } from '../../../auth/roles';

function Expiry({ iso }: { iso: string | null }) {
  const now = useNow();
  if (!iso) return <span className="muted">Never</span>;
  const expired = Date.parse(iso) <= now;
  return (
    <span className={expired ? 'text-down' : undefined}>
      {expired ? 'Expired ' : ''}
      <time dateTime={iso} title={formatDateTime(iso)}>
        {formatDate(iso)}
      </time>
    </span>
  );
}

export const ApiKeyRow = memo(function ApiKeyRow({
  apiKey: k,
  onRevoke,
}: {
  apiKey: ApiKey;
  onRevoke: (key: ApiKey) => void;
}) {
  return (
    <tr className="krow" data-testid="api-key-row">
      <td className="krow__name">{k.name}</td>
      <td className="krow__prefix" data-label="Key">
        <code className="mono">{k.prefix}…</code>
      </td>
      <td data-label="Role">
        <span className={`role role--${k.role}`}>{roleLabel[k.role]}</span>
      </td>
      <td data-label="Created by">{k.createdBy.name}</td>
      <td data-label="Created">
        <RelativeTime iso={k.createdAt} />
      </td>
      <td data-label="Last used">
        <RelativeTime iso={k.lastUsedAt} />
      </td>
      <td data-label="Expires">
        <Expiry iso={k.expiresAt} />
      </td>
      <td className="krow__actions">
        <Button size="sm" variant="danger" onClick={() => onRevoke(k)}>
          Revoke
          <span className="visually-hidden"> {k.name}</span>
        </Button>
      </td>
    </tr>
  );
});
