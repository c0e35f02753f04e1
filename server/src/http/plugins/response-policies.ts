import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Powerful browser features no Pagewatch page uses, denied to every document and frame
 * (only names Chromium recognises: an unknown one is a console error).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/**
 * X-Frame-Options says what the answer's CSP `frame-ancestors` says, for browsers that read
 * only the older header: 'none' is DENY, 'self' SAMEORIGIN; any other list has no equivalent.
 */
export function frameOptionsFor(csp: unknown): 'DENY' | 'SAMEORIGIN' | null {
  const policy = typeof csp === 'string' ? csp : '';
  const directive = /frame-ancestors\s+([^;]*)/i.exec(policy)?.[1]?.trim();
  if (directive === undefined || directive === "'none'") return 'DENY';
  return directive === "'self'" ? 'SAMEORIGIN' : null;
}

/**
 * API answers are not kept by browsers or proxies: an authenticated one is `no-store` unless its
 * route chose `private` caching (content-addressed images, wiped at sign-out by Clear-Site-Data);
 * a public one keeps the caching its route chose, and is `no-store` when it chose none.
 */
export function apiCacheControl(request: FastifyRequest, reply: FastifyReply): string {
  const header = reply.getHeader('cache-control');
  const chosen = typeof header === 'string' ? header : '';
  const authenticated = (request.routeOptions.config?.access ?? 'public') !== 'public';
  if (authenticated) return chosen.startsWith('private') ? chosen : 'no-store';
  return chosen || 'no-store';
}
