import os from 'node:os';

export interface OwnOriginOptions {
  /** PAGEWATCH_PUBLIC_URL, when set. */
  publicUrl?: string | undefined;
  /** Where the server listens, once it does. */
  listening(): { host: string; port: number } | null;
}

/**
 * Whether a URL points at this Pagewatch: its public origin, or its listening port on any
 * address of this machine. Browser checks may not load it (its API and session cookies).
 */
export function ownOriginGuard(options: OwnOriginOptions): (url: URL) => boolean {
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : null;
  return (url) => {
    if (publicOrigin !== null && url.origin === publicOrigin) return true;
    const listen = options.listening();
    if (!listen) return false;
    const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (port !== listen.port) return false;
    return isThisMachine(url.hostname.replace(/^\[(.*)\]$/, '$1'), listen.host);
  };
}

function isThisMachine(host: string, listenHost: string): boolean {
  const h = host.toLowerCase();
  if (h === listenHost || h === 'localhost' || h.endsWith('.localhost')) return true;
  if (/^127\./.test(h) || h === '::1' || h === '0.0.0.0' || h === '::') return true;
  return Object.values(os.networkInterfaces())
    .flat()
    .some((i) => i?.address.toLowerCase() === h);
}
