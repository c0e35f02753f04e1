import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Notice } from '../../../components/ui/Notice';
import { useCan } from '../../auth/api/session';
import { unannouncedQuery } from '../api/unannounced';

const list = (names: readonly string[]) =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
const quoted = (titles: readonly string[]) => list(titles.map((t) => `“${t}”`));

/**
 * Asks editors to say something in public when a component a published page shows went down
 * and its incident has no public update: visitors meanwhile read only “We’re looking into it.”
 * On the dashboard (every such incident), an incident (that one) or a page's editor (its own).
 */
export function UnannouncedBanner({
  incidentId,
  pageId,
  announced = false,
  className,
}: {
  incidentId?: number;
  pageId?: number;
  /** The screen already knows a public update exists (the incident's own timeline). */
  announced?: boolean;
  className?: string;
}) {
  const canEdit = useCan('editor');
  const query = useQuery({ ...unannouncedQuery(), enabled: canEdit && !announced });
  if (!canEdit || announced) return null;
  const items = (query.data?.items ?? []).filter(
    (i) =>
      (incidentId === undefined || i.incidentId === incidentId) &&
      (pageId === undefined || i.pages.some((p) => p.id === pageId)),
  );
  if (items.length === 0) return null;
  return (
    <div className={`unannounced ${className ?? ''}`} data-testid="unannounced">
      {items.map((i) => {
        const pages = pageId === undefined ? i.pages : i.pages.filter((p) => p.id === pageId);
        const monitors = list(i.monitors.map((m) => m.name));
        const onPages = `${pages.length === 1 ? 'page' : 'pages'} ${quoted(pages.map((p) => p.title))}`;
        return (
          <Notice
            key={i.incidentId}
            tone="warning"
            title={`${monitors} ${i.monitors.length === 1 ? 'is' : 'are'} down on the public ${onPages}`}
            action={
              incidentId === undefined ? (
                <Link className="btn btn--sm" to={`/incidents/${i.incidentId}`}>
                  Post a public update
                </Link>
              ) : (
                <a className="btn btn--sm" href="#post-update-title">
                  Post a public update
                </a>
              )
            }
          >
            Visitors read only “We’re looking into it.” until you post a public update
            {incidentId === undefined ? ` on “${i.title}”` : ''}.
          </Notice>
        );
      })}
    </div>
  );
}
