import { NavLink } from 'react-router';

/** Channels and their delivery log, side by side under one heading. */
export function NotificationTabs() {
  return (
    <nav aria-label="Notifications" className="ntabs">
      <NavLink to="/notifications" end className="ntabs__link">
        Channels
      </NavLink>
      <NavLink to="/notifications/deliveries" className="ntabs__link">
        Deliveries
      </NavLink>
      <NavLink to="/notifications/escalation" className="ntabs__link">
        Escalation
      </NavLink>
      <NavLink to="/notifications/oncall" className="ntabs__link">
        On call
      </NavLink>
    </nav>
  );
}
