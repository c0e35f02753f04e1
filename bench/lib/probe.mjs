// The remote-probe benches' shared pieces (issue 16): the real `pagewatch probe` from the
// build under test, a location with one probe made through the API, and a bounded wait.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request, serverMain, sleep, spawnNode } from './run.mjs';

export const cliMain = path.join(path.dirname(serverMain), 'cli/main.js');

/** `pagewatch probe …` from the build, as the bin runs it without dev dependencies. */
export function spawnProbe(args, label = 'probe') {
  const code = `const { main } = await import(${JSON.stringify(pathToFileURL(cliMain).href)});
process.exitCode = await main(${JSON.stringify(['probe', ...args])});`;
  return spawnNode(['--input-type=module', '-e', code], { label });
}

/** One API call as the bench's owner; anything but 2xx throws with the answer. */
export async function api(port, method, urlPath, body) {
  const res = await request(port, urlPath, { method, body });
  if (res.status >= 300) throw new Error(`${method} ${urlPath} → ${res.status}: ${res.body}`);
  return JSON.parse(String(res.body));
}

/** A location with one probe (`<name>-1`): its id and the probe's token. */
export async function addProbeLocation(port, name) {
  const loc = await api(port, 'POST', '/api/v1/locations', { name });
  const made = await api(port, 'POST', `/api/v1/locations/${loc.id}/probes`, { name: `${name}-1` });
  return { locationId: loc.id, token: made.token };
}

/** Polls `fn` until it returns something truthy, which it returns; throws after `timeoutMs`. */
export async function until(what, fn, timeoutMs, everyMs = 200) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
