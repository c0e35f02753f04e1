import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './errors.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * @fastify/static cannot pass route config, but marks each file route with its rootPath:
 * the built SPA's own files are public by nature.
 */
export function isSpaFileRoute(config: object | undefined, dist: string | null): boolean {
  const root = (config as { rootPath?: string } | undefined)?.rootPath;
  return dist !== null && root !== undefined && path.resolve(root) === path.resolve(dist);
}

/**
 * Serves the built SPA: hashed assets cached forever, index.html revalidated every
 * time so a deploy is picked up at once; unknown non-API paths get index.html.
 */
export async function registerSpa(app: FastifyInstance, dist: string | null): Promise<void> {
  const indexFile = dist ? path.join(dist, 'index.html') : null;
  const indexHtml = indexFile && fs.existsSync(indexFile) ? fs.readFileSync(indexFile) : null;
  if (indexHtml && dist) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      cacheControl: false,
      index: false,
      setHeaders: (res, file) => {
        res.setHeader(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ dist }, 'no built web app found: run `npm run build` to serve the UI');
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const wantsPage = request.method === 'GET' && !request.url.startsWith('/api/');
    if (wantsPage && indexHtml) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(indexHtml);
    }
    return sendProblem(
      reply,
      request,
      'not_found',
      `Nothing lives at ${request.method} ${request.url.split('?')[0]}`,
    );
  });
}
