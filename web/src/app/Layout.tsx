import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Link, Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { BrandMark } from '../components/ui/BrandMark';
import { authKeys } from '../features/auth/api/keys';
import { useMe } from '../features/auth/api/session';
import { UserMenu } from '../features/auth/components/UserMenu';
import { ConfigFileBanner } from '../features/config/ConfigFileBanner';
import { CoverageBanner } from '../features/coverage/CoverageBanner';
import { useDisplayTimeZone } from '../features/settings/api/display-zone';
import { liveStore, startLiveUpdates, type LiveState } from '../features/monitors/api/live';
import { MainMenu, TopNav } from './MainMenu';

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
      <span className="live__text">{liveText[state]}</span>
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

/** One EventSource for the signed-in app, opened per person and closed when they leave. */
function useLiveUpdates() {
  const client = useQueryClient();
  const { id } = useMe();
  useEffect(() => startLiveUpdates(client), [client, id]);
  // A dropped stream may mean the session ended (signed out elsewhere): ask who is signed in.
  useEffect(() => {
    const unsubscribe = liveStore.subscribe(() => {
      if (liveStore.get() === 'reconnecting')
        void client.invalidateQueries({ queryKey: authKeys.me() });
    });
    return () => void unsubscribe();
  }, [client]);
}

const scrollKey = (location: { pathname: string; search: string; key: string }) =>
  location.pathname === '/' ? `/${location.search}` : location.key;

/** The signed-in shell: top bar with navigation and the person's menu, then the screen. */
export function Layout() {
  const navigation = useNavigation();
  useDisplayTimeZone();
  useFocusOnNavigate();
  useLiveUpdates();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {navigation.state !== 'idle' && <div className="route-progress" aria-hidden="true" />}
      <header className="topbar">
        <div className="topbar__inner">
          <MainMenu />
          <Link to="/" className="brand" aria-label="Pagewatch, dashboard">
            <BrandMark />
            <span className="brand__name">Pagewatch</span>
          </Link>
          <TopNav />
          <LiveIndicator />
          <UserMenu />
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        <ConfigFileBanner />
        <CoverageBanner />
        <Outlet />
      </main>
      {/* The dashboard by its filters: back from a monitor by its link or the browser, where it was. */}
      <ScrollRestoration getKey={scrollKey} />
    </>
  );
}
