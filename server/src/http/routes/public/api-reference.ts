import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { negotiate } from '../../presenters/cached-body.js';

// The package exports no browser entry; its stylesheet export locates dist/.
const dist = path.dirname(
  createRequire(import.meta.url).resolve('@scalar/api-reference/style.css'),
);
const scalarVersion = (
  JSON.parse(readFileSync(path.join(dist, '../package.json'), 'utf8')) as { version: string }
).version;
const SCRIPT = `/api/docs/standalone.js`;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Scalar reads its settings from the page: nothing fetched from elsewhere (no web fonts, no
 * proxy, no telemetry, no hosted client or AI agent), the document from this server.
 */
const configuration = {
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: 'json',
  persistAuth: false,
  authentication: { preferredSecurityScheme: 'apiKey' },
  metaData: { title: 'Pagewatch API reference' },
};

// Scalar's zod probes for eval (caught, but still a CSP violation); jitless skips the probe.
const SETUP = 'globalThis.__zod_globalConfig = { jitless: true };';
const setupHash = `'sha256-${createHash('sha256').update(SETUP).digest('base64')}'`;

const attr = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pagewatch API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<script>${SETUP}</script>
<script id="api-reference" type="application/json" data-url="/api/v1/openapi.json" data-configuration="${attr(JSON.stringify(configuration))}"></script>
<script src="${SCRIPT}?v=${scalarVersion}"></script>
</body>
</html>
`;

/**
 * Scalar injects its stylesheets and sets inline styles at run time, so this page alone allows
 * inline styles; scripts are 'self' and the one setup line by hash (no eval), and it talks to
 * this server only.
 */
export const referenceCsp = [
  "default-src 'none'",
  `script-src 'self' ${setupHash}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Bundle {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

/** The 4 MB bundle, compressed once (brotli at its default quality would take seconds a request). */
async function loadBundle(): Promise<Bundle> {
  const identity = await fs.readFile(path.join(dist, 'browser/standalone.js'));
  const [gzip, br] = await Promise.all([
    promisify(zlib.gzip)(identity, { level: 9 }),
    promisify(zlib.brotliCompress)(identity, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    }),
  ]);
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`;
  return { identity, gzip, br, etag };
}

/**
 * The interactive API reference at `/api/docs`: Scalar, bundled and served from here (no CDN),
 * reading `/api/v1/openapi.json`. Public, like the document it shows.
 */
export function apiReferenceRoutes(app: FastifyInstance): void {
  let bundle: Promise<Bundle> | null = null;

  app.get('/api/docs', { config: { access: 'public' } }, async (_request, reply) =>
    reply
      .header('content-security-policy', referenceCsp)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(page),
  );

  app.get(
    SCRIPT,
    { config: { access: 'public' }, compress: false, logLevel: 'warn' },
    async (request, reply) => {
      bundle ??= loadBundle().catch((err: unknown) => {
        bundle = null;
        throw err;
      });
      const b = await bundle;
      void reply
        .header('cache-control', IMMUTABLE)
        .header('etag', b.etag)
        .header('vary', 'Accept-Encoding')
        .type('text/javascript; charset=utf-8');
      if (request.headers['if-none-match'] === b.etag) return reply.code(304).send();
      const encoding = negotiate(request.headers['accept-encoding']);
      if (encoding !== 'identity') void reply.header('content-encoding', encoding);
      return reply.send(encoding === 'identity' ? b.identity : b[encoding]);
    },
  );
}
