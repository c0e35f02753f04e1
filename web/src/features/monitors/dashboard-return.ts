/** Where "Monitors" leads back to: the dashboard with the filters it had (they live in the URL). */
const KEY = 'pagewatch.dashboard.search';

export function rememberDashboard(search: string): void {
  try {
    sessionStorage.setItem(KEY, search);
  } catch {
    // Storage may be off (private mode); the link then leads to the plain dashboard.
  }
}

export function dashboardHref(): string {
  try {
    return `/${sessionStorage.getItem(KEY) ?? ''}`;
  } catch {
    return '/';
  }
}
