import { z } from 'zod';
import { problemRef, type ProblemStatus } from './components.js';
import { inlineSchema, type Json } from './schemas.js';

/**
 * A route registered outside the API registry (plain Fastify: public pages, streams, the push
 * endpoint) described by hand next to the others; the route coverage test keeps the two lists
 * equal.
 */
export interface DocumentedRoute {
  method: 'get' | 'post';
  /** The OpenAPI path, `{name}` for parameters. */
  path: string;
  operation: Json;
}

export interface OperationSpec {
  id: string;
  tag: string;
  summary: string;
  description?: string;
  /** Public (`[]`) unless given. */
  security?: Json[];
  access?: string;
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  problems?: readonly ProblemStatus[];
}

export function documented(
  method: 'get' | 'post',
  path: string,
  spec: OperationSpec,
): DocumentedRoute {
  const responses: Json = { ...spec.responses };
  for (const status of spec.problems ?? []) responses[status] ??= problemRef(status);
  responses.default = problemRef('default');
  return {
    method,
    path,
    operation: {
      operationId: spec.id,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: [spec.tag],
      security: spec.security ?? [],
      'x-access': spec.access ?? 'public',
      ...(spec.parameters ? { parameters: spec.parameters } : {}),
      ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
      responses,
    },
  };
}

/** One parameter per property of a zod object, read as it is sent (defaults optional). */
export function parametersOf(schema: z.ZodType, where: 'path' | 'query'): Json[] {
  const json = inlineSchema(schema) as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

export const pathParam = (name: string, description: string, schema: Json): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});

export const text = (type: string, description: string, extra: Json = {}): Json => ({
  description,
  ...extra,
  content: { [type]: { schema: { type: 'string' } } },
});

export const header = (description: string, schema: Json = { type: 'string' }): Json => ({
  description,
  schema,
});

/** Validators of cached public bodies: a matching If-None-Match or If-Modified-Since gets 304. */
export const cacheHeaders = (cacheControl: string): Json => ({
  'Cache-Control': header(`\`${cacheControl}\``),
  ETag: header('Changes whenever the body does.'),
  'Last-Modified': header('When the body was rendered.'),
});

export const notModified: Json = {
  description: 'Not modified: the copy named by If-None-Match or If-Modified-Since is current.',
};
