import { Problem } from '@pagewatch/contract';
import type { ApiRegistry } from '../route.js';
import { apiOperation, nameRouteSchemas } from './api-operations.js';
import { headers, problemResponses, securitySchemes } from './components.js';
import type { DocumentedRoute } from './documented.js';
import { serviceRoutes } from './public-routes.js';
import { SchemaComponents, type Json } from './schemas.js';
import { statusPageRoutes } from './status-page-routes.js';
import { tagGroups, tags } from './tags.js';

const description = `The API of one Pagewatch instance: monitors, incidents, maintenance, status pages,
notification channels, users and keys under \`/api/v1\`, plus the public endpoints (push, status
pages, feeds, badges, health, metrics).

**Authentication.** Scripts send an API key: \`Authorization: Bearer pw_…\` (Settings → API keys).
The web app uses the session cookie; its state-changing requests also send \`X-CSRF-Token\`.
Each operation's \`x-access\` is the least role it needs (viewer < editor < admin < owner).

**Errors** are RFC 9457 \`application/problem+json\` with a stable \`type\` (SPEC §8):
\`validation_failed\` lists each field in \`errors\`; \`rate_limited\` comes with \`Retry-After\`.

The interactive reference is at \`/api/docs\`.`;

/** OpenAPI 3.1 built from the same zod schemas that validate requests. */
export function buildOpenApi(api: ApiRegistry, version: string): Json {
  const schemas = new SchemaComponents();
  for (const def of api.routes) nameRouteSchemas(def, schemas);
  schemas.build();
  const routes: DocumentedRoute[] = [
    ...api.routes.map((def) => ({
      method: def.method.toLowerCase() as DocumentedRoute['method'],
      path: def.url.replace(/:([A-Za-z]+)/g, '{$1}'),
      operation: apiOperation(def, schemas),
    })),
    ...serviceRoutes(schemas),
    ...statusPageRoutes(schemas),
  ];
  const paths: Record<string, Json> = {};
  for (const { method, path, operation } of routes) {
    const at = (paths[path] ??= {});
    if (at[method]) throw new Error(`${method.toUpperCase()} ${path} is described twice`);
    at[method] = operation;
  }
  const responses = problemResponses();
  schemas.ref(Problem, 'output'); // the shared problem responses' schema
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pagewatch API',
      version,
      description,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This Pagewatch instance' }],
    tags,
    'x-tagGroups': tagGroups,
    paths,
    components: {
      schemas: schemas.components(),
      responses,
      headers,
      securitySchemes,
    },
  };
}
