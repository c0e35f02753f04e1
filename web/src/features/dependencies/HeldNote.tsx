import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { heldQuery } from './api';

/**
 * "down, parent X down" beside a monitor whose alerts a down parent holds (ADR 41). Every row
 * reads the same cached list: one request for the whole dashboard.
 */
export function HeldNote({ id, status }: { id: number; status: string }) {
  const { data } = useQuery({ ...heldQuery(), enabled: status === 'down' });
  if (status !== 'down') return null;
  const held = data?.items.find((h) => h.monitorId === id);
  if (!held) return null;
  return (
    <span className="held-note" data-testid={`held-${id}`}>
      down, parent{' '}
      <Link to={`/monitors/${held.parent.id}`} className="held-note__parent">
        {held.parent.name}
      </Link>{' '}
      down
    </span>
  );
}
