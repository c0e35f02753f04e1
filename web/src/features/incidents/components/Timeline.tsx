import type { IncidentUpdate } from '@pagewatch/contract';
import { Icon } from '../../../components/ui/Icon';
import { formatDateTime, formatShortDateTime } from '../../../lib/format';
import { StateBadge } from './IncidentBadges';

/** The incident's updates, newest first: state, words, who wrote them and who can see them. */
export function Timeline({ updates }: { updates: readonly IncidentUpdate[] }) {
  return (
    <ol className="timeline" aria-label="Updates, newest first">
      {updates.map((u) => (
        <li
          key={u.id}
          className={`timeline__item timeline__item--${u.state}`}
          data-testid="incident-update"
        >
          <span className="timeline__dot" aria-hidden="true" />
          <div className="timeline__head">
            <StateBadge state={u.state} />
            <time dateTime={u.at} title={formatDateTime(u.at)} className="timeline__time">
              {formatShortDateTime(u.at)}
            </time>
            <span className={`vis vis--${u.public ? 'public' : 'private'}`}>
              <Icon name={u.public ? 'eye' : 'lock'} size={12} />
              {u.public ? 'Public' : 'Private'}
            </span>
          </div>
          <p className="timeline__message">{u.message}</p>
          <p className="timeline__author">
            {u.automatic ? 'Written by Pagewatch' : `By ${u.author.label}`}
          </p>
        </li>
      ))}
    </ol>
  );
}
