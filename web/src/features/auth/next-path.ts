const AUTH_PATHS = ['/login', '/setup'];

/**
 * Where to go after signing in: a path on this site from `?next=`, never another origin
 * (`//evil.example`, `https://…`, `/\evil`) nor back to the sign-in screens.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  let url: URL;
  try {
    url = new URL(next, 'http://pagewatch.invalid');
  } catch {
    return '/';
  }
  if (url.origin !== 'http://pagewatch.invalid') return '/';
  if (AUTH_PATHS.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in screen, remembering where the person was (nothing for the dashboard itself). */
export function loginPath(location: { pathname: string; search: string; hash: string }): string {
  const here = `${location.pathname}${location.search}${location.hash}`;
  if (here === '/' || AUTH_PATHS.includes(location.pathname)) return '/login';
  return `/login?next=${encodeURIComponent(here)}`;
}
