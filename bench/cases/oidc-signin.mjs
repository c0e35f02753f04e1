// oidc-signin: what an OpenID Connect sign-in costs the server beyond the provider's own time
// (issue 21). oidc-provider runs in this process on loopback and times every request it
// serves; the server is the built one in its own process. Each round walks the redirects as a
// browser would: the start (server), the provider's authorization and interaction (not
// counted), then the callback (server), during which the server calls the provider's token
// and userinfo endpoints. Server time = start + callback wall time − the provider's time
// serving the requests made during the callback. Target: ≤ 50 ms per sign-in (median).
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import {
  ensureSignedIn,
  freePort,
  now,
  request,
  runBench,
  spawnServer,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import { printEnvironment, printTable, summarize, verdict, writeResult } from '../lib/stats.mjs';

const require = createRequire(new URL('../../server/package.json', import.meta.url));
const { default: Provider } = await import(require.resolve('oidc-provider'));

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const WARMUP = 10;
const TARGET_MS = 50;

/** oidc-provider on loopback that signs in whoever is asked and times what it serves. */
async function startProvider(redirectUri) {
  let providerMs = 0;
  let handler = (_req, res) => res.end();
  const server = http.createServer((req, res) => {
    const t0 = now();
    res.on('finish', () => (providerMs += now() - t0));
    handler(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = { ...privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'RS256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'bench',
        client_secret: 'bench-client-secret-0123456789',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [key] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: `${sub}@example.com`, email_verified: true, name: sub }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, i) => `/interaction/${i.uid}` },
    cookies: { keys: ['bench-key'] },
  });
  const callback = provider.callback();
  handler = async (req, res) => {
    if (!req.url.startsWith('/interaction/')) return callback(req, res);
    const details = await provider.interactionDetails(req, res);
    const accountId = 'person-1';
    const grant = new provider.Grant({ accountId, clientId: 'bench' });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } });
  };
  return {
    issuer,
    elapsed: () => providerMs,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

/** One GET with cookies kept per host; no redirect followed. */
function get(url, jar) {
  const u = new URL(url);
  const cookies = jar.get(u.host) ?? new Map();
  return new Promise((resolve, reject) => {
    const t0 = now();
    const req = http.get(
      u,
      { agent: false, headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } },
      (res) => {
        res.resume();
        res.on('end', () => {
          for (const line of [res.headers['set-cookie'] ?? []].flat()) {
            const [pair] = line.split(';');
            const at = pair.indexOf('=');
            cookies.set(pair.slice(0, at), pair.slice(at + 1));
          }
          jar.set(u.host, cookies);
          resolve({ status: res.statusCode, location: res.headers.location, ms: now() - t0 });
        });
      },
    );
    req.on('error', reject);
  });
}

/** A whole sign-in; answers the server's time in it and the provider's during the callback. */
async function signIn(appUrl, providerId, provider) {
  const jar = new Map();
  const start = await get(`${appUrl}/api/v1/auth/oidc/${providerId}/start?returnTo=/`, jar);
  if (start.status !== 302) throw new Error(`start → ${start.status}`);
  let url = start.location;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(`${appUrl}/api/v1/auth/oidc/callback`)) break;
    const res = await get(url, jar);
    url = new URL(res.location, url).href;
  }
  const before = provider.elapsed();
  const callback = await get(url, jar);
  const providerMs = provider.elapsed() - before;
  if (callback.status !== 302 || callback.location !== '/')
    throw new Error(`callback → ${callback.status} ${callback.location}`);
  return {
    serverMs: start.ms + callback.ms - providerMs,
    providerMs,
    wallMs: start.ms + callback.ms,
  };
}

await runBench('oidc-signin', async () => {
  const env = printEnvironment();
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const provider = await startProvider(`${appUrl}/api/v1/auth/oidc/callback`);
  const server = spawnServer({ dataDir: tempDir('oidc-signin'), port });
  try {
    await waitHealthy(port, server);
    await ensureSignedIn(port);
    const created = await request(port, '/api/v1/settings/sign-in/providers', {
      method: 'POST',
      body: {
        name: 'Bench ID',
        issuer: provider.issuer,
        clientId: 'bench',
        clientSecret: 'bench-client-secret-0123456789',
        signUp: 'create',
      },
    });
    if (created.status !== 201) throw new Error(`provider → ${created.status}: ${created.body}`);
    const { id } = JSON.parse(String(created.body));
    const server_ = [];
    const providerTimes = [];
    for (let i = 0; i < ROUNDS + WARMUP; i++) {
      const r = await signIn(appUrl, id, provider);
      if (i < WARMUP) continue; // the first makes the account and fetches the keys
      server_.push(r.serverMs);
      providerTimes.push(r.providerMs);
    }
    const s = summarize(server_);
    const p = summarize(providerTimes);
    printTable(`OIDC sign-in, ${ROUNDS} rounds after ${WARMUP} warm-up (existing account)`, [
      ['', 'p50', 'p95', 'p99', 'max', 'target', 'verdict'],
      [
        'server (start + callback − provider)',
        `${s.p50.toFixed(1)} ms`,
        `${s.p95.toFixed(1)} ms`,
        `${s.p99.toFixed(1)} ms`,
        `${s.max.toFixed(1)} ms`,
        `≤ ${TARGET_MS} ms`,
        verdict(s.p50 <= TARGET_MS),
      ],
      [
        'provider during the callback',
        `${p.p50.toFixed(1)} ms`,
        `${p.p95.toFixed(1)} ms`,
        `${p.p99.toFixed(1)} ms`,
        `${p.max.toFixed(1)} ms`,
        '',
        '',
      ],
    ]);
    writeResult(
      'oidc-signin',
      { rounds: ROUNDS, serverMs: s, providerMs: p, met: s.p50 <= TARGET_MS },
      env,
    );
  } finally {
    await stopChild(server);
    await provider.close();
  }
});
