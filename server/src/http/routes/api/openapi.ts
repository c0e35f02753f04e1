import { Problem } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AnyRouteDef, ApiRegistry } from '../../route.js';

type Json = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): Json =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

function parameters(def: AnyRouteDef): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ['path', def.params],
    ['query', def.query],
  ] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input') as {
      properties?: Record<string, Json>;
      required?: string[];
    };
    for (const [name, s] of Object.entries(json.properties ?? {})) {
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        schema: s,
      });
    }
  }
  return out;
}

function operation(def: AnyRouteDef): Json {
  const responses: Json = {};
  for (const [status, schema] of Object.entries(def.responses)) {
    responses[status] = schema
      ? {
          description: 'Success',
          content: { 'application/json': { schema: toSchema(schema, 'output') } },
        }
      : def.produces && Number(status) < 300
        ? {
            description: 'Success',
            content: { [def.produces]: { schema: { type: 'string', format: 'binary' } } },
          }
        : { description: 'Success, no content' };
  }
  responses.default = {
    description: 'An RFC 9457 problem with a stable type (SPEC §8)',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
  return {
    summary: def.summary,
    tags: [def.tag],
    'x-access': def.access,
    parameters: parameters(def),
    ...(def.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: toSchema(def.body, 'input') } },
          },
        }
      : def.consumes
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                def.consumes.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
              ),
            },
          }
        : {}),
    responses,
  };
}

/** OpenAPI 3.1 built from the same zod schemas that validate requests. */
export function buildOpenApi(api: ApiRegistry, version: string): Json {
  const paths: Record<string, Json> = {};
  for (const def of api.routes) {
    const path = def.url.replace(/:([A-Za-z]+)/g, '{$1}');
    paths[path] = { ...(paths[path] ?? {}), [def.method.toLowerCase()]: operation(def) };
  }
  paths['/api/v1/events'] = {
    get: {
      summary: 'Live events (Server-Sent Events), resumable with Last-Event-ID',
      tags: ['events'],
      'x-access': 'viewer',
      responses: {
        200: { description: 'text/event-stream of result, status, monitor and reset events' },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Pagewatch API', version },
    servers: [{ url: '/' }],
    paths,
    components: { schemas: { Problem: toSchema(Problem, 'output') } },
  };
}

export function openApiRoute(app: FastifyInstance, api: ApiRegistry, version: string): void {
  let doc: Json | null = null;
  app.get(
    '/api/v1/openapi.json',
    { config: { access: 'public' } },
    async () => (doc ??= buildOpenApi(api, version)),
  );
}
