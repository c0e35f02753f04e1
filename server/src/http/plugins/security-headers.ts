import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { apiCacheControl, frameOptionsFor, PERMISSIONS_POLICY } from './response-policies.js';

/**
 * A strict Content-Security-Policy (no inline script anywhere, no framing), nosniff, a
 * conservative referrer policy and a deny-all Permissions-Policy on every response; HSTS only
 * when the request came over TLS; API answers are not stored (response-policies.ts).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    hsts: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // Set per answer below, from the CSP the answer ends up with.
    frameguard: false,
  });
  app.addHook('onSend', async (request, reply) => {
    void reply.header('permissions-policy', PERMISSIONS_POLICY);
    const frameOptions = frameOptionsFor(reply.getHeader('content-security-policy'));
    if (frameOptions) void reply.header('x-frame-options', frameOptions);
    if (request.url.startsWith('/api/'))
      void reply.header('cache-control', apiCacheControl(request, reply));
    if (request.protocol === 'https') {
      void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
  });
}
