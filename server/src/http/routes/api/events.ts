import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { EventHub, HubEvent } from '../../../lib/event-hub.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { guardStream } from '../../stream-guard.js';

// A client this far behind is dropped; it reconnects and resumes with Last-Event-ID.
const MAX_BUFFERED = 1 << 20;

const frame = (e: HubEvent) =>
  `id: ${e.id}\nevent: ${e.event.kind}\ndata: ${JSON.stringify(e.event)}\n\n`;

/**
 * Server-Sent Events of SPEC §7, resumable with Last-Event-ID. A stream ends as soon as the
 * credential that opened it is revoked, lowered or expires (stream-guard.ts); heartbeats keep
 * proxies from closing idle streams and re-check the credential as a backstop.
 */
export function eventRoutes(
  app: FastifyInstance,
  hub: EventHub,
  deps: ServiceDeps,
  pingMs = 15_000,
): void {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', (done) => {
    for (const res of open) res.end();
    done();
  });

  app.get('/api/v1/events', { config: { access: 'viewer' } }, (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // HEAD has no body: an open stream would hold the client's keep-alive socket forever.
    if (request.method === 'HEAD') return void res.end();
    const send = (e: HubEvent) => {
      if (res.writableLength > MAX_BUFFERED) return void res.destroy();
      res.write(frame(e));
    };
    res.write('retry: 2000\n\n');
    const header = request.headers['last-event-id'];
    const lastId = Array.isArray(header) ? header[0] : header;
    if (lastId) {
      const missed = hub.since(lastId);
      if (missed === null) res.write(`event: reset\ndata: {"kind":"reset"}\n\n`);
      else missed.forEach(send);
    }
    const unsubscribe = hub.subscribe(send);
    const guard = guardStream(deps, request, () => res.end());
    const ping = setInterval(() => {
      res.write(': ping\n\n');
      guard.check();
    }, pingMs);
    open.add(res);
    res.on('close', () => {
      clearInterval(ping);
      guard.stop();
      unsubscribe();
      open.delete(res);
    });
  });
}
