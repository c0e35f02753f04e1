import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { LoadingBlock } from '../../../components/ui/Skeleton';
import { useMe } from '../../auth/api/session';
import { atLeast } from '../../auth/roles';
import { statusPageListQuery } from '../api/status-pages';

/** Every status page with its state and counts; editors create and open them from here. */
export function StatusPagesScreen() {
  const me = useMe();
  const canEdit = atLeast(me.role, 'editor');
  const list = useQuery(statusPageListQuery());
  const deleted = (useLocation().state as { deleted?: string } | null)?.deleted;
  const items = list.data?.items;
  return (
    <>
      <title>Status pages · Pagewatch</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Status pages</h1>
          <p className="page-sub">Public pages that show your monitors’ state to your users.</p>
        </div>
        {canEdit && items && items.length > 0 && (
          <ButtonLink to="/status-pages/new" variant="primary" icon="plus">
            New status page
          </ButtonLink>
        )}
      </div>
      {deleted && <Notice title={`Deleted “${deleted}”.`} className="section-gap" live />}
      {list.isPending && <LoadingBlock label="Loading status pages…" rows={3} />}
      {list.error && (
        <ErrorNotice
          error={list.error}
          action={
            <Button size="sm" busy={list.isRefetching} onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {items && items.length === 0 && (
        <EmptyState
          icon="eye"
          title="No status pages yet"
          action={
            canEdit && (
              <ButtonLink to="/status-pages/new" variant="primary" icon="plus">
                Create a status page
              </ButtonLink>
            )
          }
        >
          Group monitors into sections and publish them at /status/your-name, or on your own domain,
          so users see what is up without asking.
        </EmptyState>
      )}
      {items && items.length > 0 && (
        <div className="sp-table-wrap">
          <table className="sp-table">
            <caption className="visually-hidden">Status pages</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Address</th>
                <th scope="col">State</th>
                <th scope="col">Components</th>
                <th scope="col">Subscribers</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {items.map((p) => (
                <tr key={p.id} data-testid="status-page-row">
                  <th scope="row" className="sp-table__title">
                    {canEdit ? <Link to={`/status-pages/${p.id}/edit`}>{p.title}</Link> : p.title}
                  </th>
                  <td data-label="Address">
                    <a
                      className="mono sp-table__slug"
                      href={`/status/${p.slug}`}
                      target="_blank"
                      rel="noreferrer"
                    >
                      /status/{p.slug}
                      <Icon name="external" size={12} label="(opens in a new tab)" />
                    </a>
                    {p.customDomain && (
                      <span className="sp-table__domain mono muted">{p.customDomain}</span>
                    )}
                  </td>
                  <td data-label="State">
                    <span className={`sp-badge sp-badge--${p.published ? 'published' : 'draft'}`}>
                      {p.published ? 'Published' : 'Draft'}
                    </span>
                  </td>
                  <td data-label="Components">{p.componentCount}</td>
                  <td data-label="Subscribers">{p.subscriberCount}</td>
                  <td data-label="Updated">
                    <RelativeTime iso={p.updatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
