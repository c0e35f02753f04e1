import '../../styles/incidents.css';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../components/ui/Button';
import { ErrorNotice } from '../../components/ui/Notice';
import { LoadingBlock } from '../../components/ui/Skeleton';
import { incidentQuery } from '../../features/incidents/api/queries';
import { IncidentScreen } from '../../features/incidents/components/IncidentScreen';
import { useIncidentId } from '../../features/incidents/useIncidentId';
import { isApiError } from '../../lib/api';
import { NotFound } from './not-found';

function Loaded({ id }: { id: number }) {
  const { data, error, isPending, refetch, isRefetching } = useQuery(incidentQuery(id));
  if (isPending) return <LoadingBlock label="Loading incident…" rows={4} />;
  if (isApiError(error) && error.kind === 'not_found') return <NotFound what="incident" />;
  if (!data) {
    return (
      <ErrorNotice
        error={error}
        action={
          <Button size="sm" busy={isRefetching} onClick={() => void refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  return (
    <>
      <title>{`${data.title} · Incidents · Pagewatch`}</title>
      <IncidentScreen incident={data} />
    </>
  );
}

function Incident() {
  const id = useIncidentId();
  if (id === null) return <NotFound what="incident" />;
  return <Loaded key={id} id={id} />;
}

export { Incident as Component };
