import '../../styles/status-pages.css';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { Button } from '../../components/ui/Button';
import { ErrorNotice } from '../../components/ui/Notice';
import { LoadingBlock } from '../../components/ui/Skeleton';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { ManagedByConfig } from '../../features/config/ManagedByConfig';
import { usePageId } from '../../features/status-pages/usePageId';
import { statusPageQuery } from '../../features/status-pages/api/status-pages';
import { StatusPageEditor } from '../../features/status-pages/components/StatusPageEditor';
import { isApiError } from '../../lib/api';
import { NotFound } from './not-found';

function Loaded({ id }: { id: number }) {
  const { data, error, isPending, refetch, isRefetching } = useQuery(statusPageQuery(id));
  const saved = (useLocation().state as { saved?: boolean } | null)?.saved === true;
  if (isPending) return <LoadingBlock label="Loading status page…" rows={6} />;
  if (isApiError(error) && error.kind === 'not_found') return <NotFound what="status page" />;
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
    <ManagedByConfig kind="statusPages" id={data.id}>
      <StatusPageEditor page={data} saved={saved} />
    </ManagedByConfig>
  );
}

function StatusPageEdit() {
  const id = usePageId();
  if (id === null) return <NotFound what="status page" />;
  return (
    <RequireRole role="editor" doing="Editing status pages">
      <Loaded key={id} id={id} />
    </RequireRole>
  );
}

export { StatusPageEdit as Component };
