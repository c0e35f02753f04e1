import type { FastifyInstance } from 'fastify';
import { buildOpenApi } from '../../openapi/document.js';
import type { Json } from '../../openapi/schemas.js';
import type { ApiRegistry } from '../../route.js';

/** Serves the OpenAPI document, built once on first request from the registered routes. */
export function openApiRoute(app: FastifyInstance, api: ApiRegistry, version: string): void {
  let doc: Json | null = null;
  app.get(
    '/api/v1/openapi.json',
    { config: { access: 'public' } },
    async () => (doc ??= buildOpenApi(api, version)),
  );
}
