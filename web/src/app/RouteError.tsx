import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button, ButtonLink } from '../components/ui/Button';
import { EmptyState } from '../components/ui/EmptyState';

/** Last line of defence for a screen that crashed or a chunk that failed to load after a deploy. */
export function RouteError() {
  const error = useRouteError();
  const chunkFailed =
    error instanceof TypeError &&
    /dynamically imported module|Importing a module script/i.test(error.message);
  const title = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : chunkFailed
      ? 'Pagewatch was updated'
      : 'This screen hit an error';
  return (
    <main id="main" className="page">
      <EmptyState
        icon="alertTriangle"
        title={title}
        action={
          <>
            <Button variant="primary" onClick={() => window.location.reload()}>
              Reload
            </Button>
            <ButtonLink to="/" reloadDocument>
              Go to the dashboard
            </ButtonLink>
          </>
        }
      >
        {chunkFailed
          ? 'A newer version is available. Reload to continue.'
          : 'This is a bug in Pagewatch, not something you did. Reloading usually helps.'}
      </EmptyState>
    </main>
  );
}
