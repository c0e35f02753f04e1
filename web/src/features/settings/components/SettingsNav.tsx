import type { Role } from '@pagewatch/contract';
import { NavLink } from 'react-router';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { useMe } from '../../auth/api/session';
import { atLeast } from '../../auth/roles';

const sections: readonly { to: string; label: string; icon: IconName; role: Role }[] = [
  { to: 'general', label: 'General', icon: 'wrench', role: 'admin' },
  { to: 'account', label: 'Account', icon: 'user', role: 'viewer' },
  { to: 'api-keys', label: 'API keys', icon: 'key', role: 'viewer' },
  { to: 'users', label: 'Users', icon: 'users', role: 'admin' },
  { to: 'security', label: 'Security', icon: 'shield', role: 'admin' },
  { to: 'sign-in', label: 'Sign-in', icon: 'key', role: 'admin' },
  { to: 'retention', label: 'Data retention', icon: 'clock', role: 'admin' },
  { to: 'audit', label: 'Audit log', icon: 'list', role: 'admin' },
  { to: 'backups', label: 'Backups', icon: 'download', role: 'admin' },
  { to: 'import', label: 'Import', icon: 'plus', role: 'admin' },
  { to: 'export', label: 'Export', icon: 'download', role: 'admin' },
  { to: 'cluster', label: 'Cluster', icon: 'server', role: 'admin' },
  { to: 'locations', label: 'Locations', icon: 'server', role: 'admin' },
];

/** The settings sections this person may open; the others are not offered at all. */
export function SettingsNav() {
  const me = useMe();
  return (
    <nav aria-label="Settings" className="subnav">
      <ul className="subnav__list">
        {sections
          .filter((s) => atLeast(me.role, s.role))
          .map((s) => (
            <li key={s.to}>
              <NavLink to={s.to} className="subnav__link">
                <Icon name={s.icon} />
                {s.label}
              </NavLink>
            </li>
          ))}
      </ul>
    </nav>
  );
}
