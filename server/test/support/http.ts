import type { TestApp } from './app.js';

/** POST over real HTTP as the owner's API key, as a script would call the API. */
export async function post(t: TestApp, url: string, body?: unknown) {
  const res = await fetch(`${t.url}${url}`, {
    method: 'POST',
    headers: {
      ...t.owner.headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}
