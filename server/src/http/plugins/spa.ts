import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { answerUnrouted } from './unrouted.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A path whose last segment has an extension names a file; anything else is a client-side route. */
const namesFile = (pathname: string): boolean => path.posix.basename(pathname).includes('.');

/**
 * Serves the built SPA: hashed assets cached forever, index.html revalidated every time so
 * a deploy is picked up at once, and index.html for client-side routes. A missing file —
 * say an old asset after a redeploy — is a 404, never index.html served as script.
 */
export async function registerSpa(app: FastifyInstance, dist: string | null): Promise<void> {
  app.setNotFoundHandler(answerUnrouted);
  const indexFile = dist ? path.join(dist, 'index.html') : null;
  if (!dist || !indexFile || !(await fs.stat(indexFile).catch(() => null))) {
    app.log.warn({ dist }, 'no built web app found: run `npm run build` to serve the UI');
    return;
  }
  await app.register(fastifyStatic, {
    root: dist,
    serve: false,
    cacheControl: false,
    index: false,
    setHeaders: (res, file) => {
      const hashed = file.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('cache-control', hashed ? IMMUTABLE : 'no-cache');
    },
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    config: { access: 'public' },
    logLevel: 'warn',
    handler: async (request, reply) => {
      const pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
      if (pathname.startsWith('/api/')) return answerUnrouted(request, reply);
      // Source maps are not published, even if a build left some in the folder.
      if (pathname.endsWith('.map')) return answerUnrouted(request, reply);
      if (namesFile(pathname)) return reply.sendFile(pathname.slice(1));
      // Read per request (it is tiny and in the page cache) so a rebuild needs no restart.
      const html = await fs.readFile(indexFile);
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
    },
  });
}
