import { RelativeTime } from '../../../components/ui/RelativeTime';
import { formatDateTime } from '../../../lib/format';
import { useMe } from '../api/session';
import { roleLabel, roleSummary } from '../roles';

/** Who is signed in, and what their role lets them do. */
export function ProfilePanel() {
  const me = useMe();
  return (
    <section className="panel" aria-labelledby="profile-title">
      <h3 id="profile-title" className="panel__title">
        Profile
      </h3>
      <dl className="settings">
        <div className="settings__row">
          <dt>Name</dt>
          <dd>{me.name}</dd>
        </div>
        <div className="settings__row">
          <dt>Email</dt>
          <dd>{me.email}</dd>
        </div>
        <div className="settings__row">
          <dt>Role</dt>
          <dd>
            {roleLabel[me.role]} <span className="muted">· {roleSummary[me.role]}</span>
          </dd>
        </div>
        <div className="settings__row">
          <dt>Member since</dt>
          <dd>{formatDateTime(me.createdAt)}</dd>
        </div>
        <div className="settings__row">
          <dt>Last sign-in</dt>
          <dd>
            <RelativeTime iso={me.lastLoginAt} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
