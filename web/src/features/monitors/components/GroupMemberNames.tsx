import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { monitorNamesQuery } from '../api/queries';

/** A group's members as links to their pages (ADR 47); ids no longer known are counted. */
export function GroupMemberNames({ ids }: { ids: readonly number[] }) {
  const { data } = useQuery(monitorNamesQuery());
  if (!data) return <>{ids.length}</>;
  const byId = new Map(data.items.map((m) => [m.id, m.name]));
  const known = ids.filter((id) => byId.has(id));
  const gone = ids.length - known.length;
  return (
    <>
      {known.map((id, i) => (
        <Fragment key={id}>
          {i > 0 && ', '}
          <Link to={`/monitors/${id}`}>{byId.get(id)}</Link>
        </Fragment>
      ))}
      {gone > 0 && ` (${gone} deleted)`}
    </>
  );
}
