import { ButtonLink } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';

export function NotFound({ what = 'page' }: { what?: string }) {
  return (
    <>
      <title>Not found · Pagewatch</title>
      <EmptyState
        icon="search"
        title={`This ${what} does not exist`}
        action={
          <ButtonLink to="/" variant="primary">
            Go to the dashboard
          </ButtonLink>
        }
      >
        The link may be mistyped, or the {what} was deleted.
      </EmptyState>
    </>
  );
}

export { NotFound as Component };
