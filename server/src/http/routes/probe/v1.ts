import type { ServerResponse } from 'node:http';
import {
  PROBE_MAX_BATCH_BYTES,
  PROBE_PROTOCOL_HEADER,
  ProbeHeartbeat,
  ProbeResultBatch,
  toFieldErrors,
  type ProbeStreamLine,
} from '@pagewatch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { PROBE_HEARTBEAT_MS } from '../../../domain/locations.js';
import { validationFailed } from '../../../lib/errors.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { AssignmentFeed, type FeedOptions } from '../../../services/locations/assignment.js';
import { recordHeartbeat } from '../../../services/locations/heartbeat.js';
import { ingestProbeResults } from '../../../services/locations/ingest.js';
import {
  authenticateProbe,
  checkProtocol,
  type ProbeCaller,
} from '../../../services/locations/probe-auth.js';

/** An assignment stream whose client stopped reading is cut rather than buffered. */
const MAX_BUFFERED = 8 * 1024 * 1024;

async function callerOf(deps: ServiceDeps, request: FastifyRequest): Promise<ProbeCaller> {
  checkProtocol(request.headers[PROBE_PROTOCOL_HEADER]);
  return authenticateProbe(deps, request.headers.authorization);
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null) throw validationFailed([], 'Send a JSON body');
  const r = schema.safeParse(body);
  if (!r.success) throw validationFailed(toFieldErrors(r.error.issues), 'The batch is malformed');
  return r.data;
}

/**
 * The probe protocol, version 1 (docs/probes.md, ADR 56): public routes whose bearer token is
 * the probe's credential (like push tokens, never a session), outside `/api/v1` so the API's
 * sessions, CSRF and OpenAPI document stay the people's.
 */
export function probeRoutes(app: FastifyInstance, deps: ServiceDeps, feed: FeedOptions = {}): void {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', (done) => {
    for (const res of open) {
      res.write(
        `${JSON.stringify({ type: 'closing', serverTime: Date.now(), reason: 'shutdown' })}\n`,
      );
      res.end();
    }
    done();
  });
  const config = { access: 'public' as const };

  app.get('/api/probe/v1/assignment', { config }, async (request, reply) => {
    const caller = await callerOf(deps, request);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
    });
    const send = (line: ProbeStreamLine) => {
      if (res.writableLength > MAX_BUFFERED) return void res.destroy();
      res.write(`${JSON.stringify(line)}\n`);
    };
    const stream = new AssignmentFeed(deps, caller, send, () => res.end(), feed);
    open.add(res);
    res.on('close', () => {
      stream.stop();
      open.delete(res);
    });
    try {
      await stream.start(PROBE_HEARTBEAT_MS);
    } catch (err) {
      request.log.warn({ err }, 'probe assignment could not be read');
      stream.stop();
      res.destroy();
    }
  });

  app.post('/api/probe/v1/heartbeat', { config }, async (request) => {
    const caller = await callerOf(deps, request);
    return recordHeartbeat(deps, caller, parse(ProbeHeartbeat, request.body));
  });

  app.post(
    '/api/probe/v1/results',
    { config, bodyLimit: PROBE_MAX_BATCH_BYTES },
    async (request) => {
      const caller = await callerOf(deps, request);
      const batch = parse(ProbeResultBatch, request.body);
      return ingestProbeResults(deps, deps.recordLocationResults, caller, batch);
    },
  );
}
