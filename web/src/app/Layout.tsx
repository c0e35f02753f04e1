import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Link, NavLink, Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { liveStore, type LiveState } from '../features/monitors/api/live';

const liveText: Record<LiveState, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  reconnecting: 'Reconnecting…',
  unsupported: 'No live updates',
};

function LiveIndicator() {
  const state = useSyncExternalStore(liveStore.subscribe, liveStore.get);
  return (
    <span className={`live live--${state}`} role="status" title="Live updates from the server">
      <span className="live__dot" aria-hidden="true" />
      {liveText[state]}
    </span>
  );
}

/** After client-side navigation, move focus to the new screen as a full page load would. */
function useFocusOnNavigate() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
}

export function Layout() {
  const navigation = useNavigation();
  useFocusOnNavigate();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {navigation.state !== 'idle' && <div className="route-progress" aria-hidden="true" />}
      <header className="topbar">
        <div className="topbar__inner">
          <Link to="/" className="brand" aria-label="Pagewatch, dashboard">
            <svg viewBox="0 0 32 32" width="22" height="22" aria-hidden="true">
              <rect width="32" height="32" rx="8" className="brand__mark" />
              <path
                d="M5 17h6l3-7 4 13 3-6h6"
                fill="none"
                stroke="#fff"
                strokeWidth="2.6"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            <span>Pagewatch</span>
          </Link>
          <nav aria-label="Main" className="topnav">
            <NavLink to="/" end className="topnav__link">
              Monitors
            </NavLink>
          </nav>
          <LiveIndicator />
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        <Outlet />
      </main>
      <ScrollRestoration />
    </>
  );
}
