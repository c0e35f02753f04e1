import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { Icon } from '../components/ui/Icon';
import { useMe } from '../features/auth/api/session';
import { atLeast } from '../features/auth/roles';

interface Section {
  to: string;
  label: string;
  end?: boolean;
}

/** The app's sections in the order of the top bar; channels only for those who manage them. */
function useSections(): Section[] {
  const me = useMe();
  return [
    { to: '/', label: 'Monitors', end: true },
    { to: '/incidents', label: 'Incidents' },
    { to: '/maintenance', label: 'Maintenance' },
    { to: '/status-pages', label: 'Status pages' },
    { to: '/slos', label: 'SLOs' },
    { to: '/reports', label: 'Reports' },
    ...(atLeast(me.role, 'admin') ? [{ to: '/notifications', label: 'Notifications' }] : []),
    { to: '/settings', label: 'Settings' },
  ];
}

/** The row of sections in the top bar (wide screens; CSS hides it on phones). */
export function TopNav() {
  return (
    <nav aria-label="Main" className="topnav">
      {useSections().map((s) => (
        <NavLink key={s.to} to={s.to} end={s.end} className="topnav__link">
          {s.label}
        </NavLink>
      ))}
    </nav>
  );
}

/**
 * Phones: every section behind one "Menu" button instead of a row that scrolls sideways and
 * hides the last ones (CSS shows it only at phone widths). Closes on a choice, Escape or outside.
 */
export function MainMenu() {
  const sections = useSections();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const { pathname } = useLocation();
  const current = sections.find((s) =>
    s.end ? pathname === s.to : pathname === s.to || pathname.startsWith(`${s.to}/`),
  );

  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="mainmenu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="mainmenu__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name={open ? 'x' : 'menu'} size={18} />
        <span className="mainmenu__label">Menu</span>
        {current && <span className="visually-hidden">, now in {current.label}</span>}
      </button>
      <nav id={panelId} aria-label="Sections" className="mainmenu__panel" hidden={!open}>
        <ul>
          {sections.map((s) => (
            <li key={s.to}>
              <NavLink
                to={s.to}
                end={s.end}
                className="mainmenu__link"
                onClick={() => setOpen(false)}
              >
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
