import { z } from 'zod';
import type { AnyRouteDef } from '../route.js';
import { answers415, problemRef, securityFor, type ProblemStatus } from './components.js';
import { parametersOf } from './documented.js';
import { deriveOperationId } from './operation-ids.js';
import type { Json, SchemaComponents } from './schemas.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const operationIdOf = (def: AnyRouteDef): string =>
  def.operationId ?? deriveOperationId(def.method, def.url);

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

/** Route-local shapes become components named after their operation, e.g. `CheckMonitorNowAnswer`. */
export function nameRouteSchemas(def: AnyRouteDef, schemas: SchemaComponents): void {
  const id = pascal(operationIdOf(def));
  if (def.body) schemas.name(def.body, `${id}Body`);
  for (const schema of Object.values(def.responses))
    if (schema) schemas.name(schema, `${id}Answer`);
}

/**
 * The problems a route can answer, read from its definition: 400 with a query or body, 401
 * unless public, 403 above viewer or when a session needs its CSRF token, 404 with path
 * parameters, 413 (and 415, once the server answers it) with a body; services' own (409,
 * 429…) come from `errors`.
 */
export function problemStatuses(def: AnyRouteDef): ProblemStatus[] {
  const found = new Set<ProblemStatus>(def.errors ?? []);
  const hasBody = Boolean(def.body ?? def.consumes);
  if (def.query || hasBody) found.add(400);
  if (def.access !== 'public') found.add(401);
  if (def.access !== 'public' && (def.access !== 'viewer' || UNSAFE.has(def.method)))
    found.add(403);
  // Malformed ids are 404 too: no object lives at that address.
  if (def.params) found.add(404);
  if (hasBody) found.add(413);
  if (hasBody && answers415) found.add(415);
  for (const status of Object.keys(def.responses).map(Number))
    if (status >= 400) found.add(status as ProblemStatus);
  return [...found].sort((a, b) => a - b);
}

function parameters(def: AnyRouteDef): Json[] {
  return [
    ...(def.params ? parametersOf(def.params, 'path') : []),
    ...(def.query ? parametersOf(def.query, 'query') : []),
  ];
}

const SUCCESS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: the work happens in the background',
  204: 'Done; no content',
};

function successResponse(
  def: AnyRouteDef,
  status: number,
  schema: z.ZodType | null,
  s: SchemaComponents,
): Json {
  const description = `${SUCCESS[status] ?? 'Success'}: ${def.summary[0]!.toLowerCase()}${def.summary.slice(1)}`;
  if (schema)
    return { description, content: { 'application/json': { schema: s.ref(schema, 'output') } } };
  if (def.produces)
    return {
      description,
      content: { [def.produces]: { schema: { type: 'string', format: 'binary' } } },
    };
  return { description };
}

function requestBody(def: AnyRouteDef, s: SchemaComponents): Json {
  if (def.body)
    return {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: s.ref(def.body, 'input') } },
      },
    };
  if (def.consumes)
    return {
      requestBody: {
        required: true,
        content: Object.fromEntries(
          def.consumes.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
        ),
      },
    };
  return {};
}

/** The OpenAPI operation of a registered API route. */
export function apiOperation(def: AnyRouteDef, s: SchemaComponents): Json {
  const responses: Json = {};
  for (const [status, schema] of Object.entries(def.responses))
    if (Number(status) < 400) responses[status] = successResponse(def, Number(status), schema, s);
  for (const status of problemStatuses(def)) responses[status] = problemRef(status);
  responses.default = problemRef('default');
  const params = parameters(def);
  return {
    operationId: operationIdOf(def),
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    tags: [def.tag],
    security: securityFor(def.access, def.method),
    'x-access': def.access,
    ...(params.length > 0 ? { parameters: params } : {}),
    ...requestBody(def, s),
    responses,
  };
}
