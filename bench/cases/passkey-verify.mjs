// passkey-verify: what checking a passkey assertion costs the server (issue 21). A P-256 key
// made with node:crypto plays the authenticator; each round signs a fresh challenge and the
// server's library (@simplewebauthn/server, with the options the sign-in service passes)
// verifies it. The database reads and the counter update around it are not in the figure.
// Target: ≤ 5 ms per verification (median).
import { Buffer } from 'node:buffer';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { runBench } from '../lib/run.mjs';
import { printEnvironment, printTable, summarize, verdict, writeResult } from '../lib/stats.mjs';

// The server workspace's copy, as the running server loads it.
const require = createRequire(new URL('../../server/package.json', import.meta.url));
const { verifyAuthenticationResponse } = await import(require.resolve('@simplewebauthn/server'));

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2000);
const TARGET_MS = 5;
const RP_ID = 'status.example.com';
const ORIGIN = `https://${RP_ID}`;

const b64 = (b) => Buffer.from(b).toString('base64url');
const sha = (b) => createHash('sha256').update(b).digest();

/** CBOR of the COSE EC2 key: {1: 2, 3: -7, -1: 1, -2: x, -3: y}. */
function coseKey(jwk) {
  const x = Buffer.from(jwk.x, 'base64url');
  const y = Buffer.from(jwk.y, 'base64url');
  return Buffer.concat([
    Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
    x,
    Buffer.from([0x22, 0x58, 0x20]),
    y,
  ]);
}

function assertion(key, credentialId, challenge, counter) {
  const c = Buffer.alloc(4);
  c.writeUInt32BE(counter);
  const authData = Buffer.concat([sha(RP_ID), Buffer.from([0x05]), c]);
  const clientData = Buffer.from(
    JSON.stringify({ type: 'webauthn.get', challenge, origin: ORIGIN, crossOrigin: false }),
  );
  return {
    id: credentialId,
    rawId: credentialId,
    type: 'public-key',
    response: {
      clientDataJSON: b64(clientData),
      authenticatorData: b64(authData),
      signature: b64(sign('sha256', Buffer.concat([authData, sha(clientData)]), key)),
    },
    clientExtensionResults: {},
  };
}

await runBench('passkey-verify', async () => {
  const env = printEnvironment();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = b64(Buffer.from('bench-credential'));
  const credential = {
    id: credentialId,
    publicKey: new Uint8Array(coseKey(publicKey.export({ format: 'jwk' }))),
    counter: 0,
  };
  const times = [];
  for (let i = 0; i < ROUNDS + 100; i++) {
    const challenge = b64(Buffer.from(`challenge-${i}-${Math.random()}`));
    const response = assertion(privateKey, credentialId, challenge, i + 1);
    const t0 = performance.now();
    const out = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential,
      requireUserVerification: true,
    });
    const took = performance.now() - t0;
    if (!out.verified) throw new Error('assertion not verified');
    credential.counter = out.authenticationInfo.newCounter;
    if (i >= 100) times.push(took); // warm-up
  }
  const s = summarize(times);
  printTable(`verifyAuthenticationResponse, ES256, ${ROUNDS} assertions after 100 warm-up`, [
    ['p50', 'p95', 'p99', 'max', 'target', 'verdict'],
    [
      `${s.p50.toFixed(3)} ms`,
      `${s.p95.toFixed(3)} ms`,
      `${s.p99.toFixed(3)} ms`,
      `${s.max.toFixed(3)} ms`,
      `≤ ${TARGET_MS} ms`,
      verdict(s.p50 <= TARGET_MS),
    ],
  ]);
  writeResult('passkey-verify', { rounds: ROUNDS, verifyMs: s, met: s.p50 <= TARGET_MS }, env);
});
