import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { check, keyword as kw } from './http-spec.js';

let server: TargetServer;

beforeAll(async () => {
  server = await startTargetServer();
});

afterAll(async () => {
  await server.close();
});

const MIB = 1024 * 1024;

function textUrl(body: string, route = 'text'): string {
  return `${server.url}/${route}?body=${encodeURIComponent(body)}`;
}

describe('keywords', () => {
  it('is up when a required keyword is present', async () => {
    const run = await check(textUrl('Hello World'), { assertions: [kw('World')] });
    expect(run).toMatchObject({ outcome: 'up', errorCode: null });
  });

  it('is keyword_missing when it is not, quoting the keyword', async () => {
    const run = await check(textUrl('Hello World'), { assertions: [kw('Goodbye')] });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'keyword_missing', httpStatus: 200 });
    expect(run.errorMessage).toBe('Keyword "Goodbye" was not found in the response body');
    expect(run.latencyMs).toBeGreaterThan(0);
    expect(run.responseSize).toBe('Hello World'.length);
  });

  it('shortens long keywords in messages', async () => {
    const long = 'x'.repeat(30) + 'y'.repeat(30);
    const run = await check(textUrl('nothing'), { assertions: [kw(long)] });
    expect(run.errorMessage).toBe(
      `Keyword "${'x'.repeat(30)}${'y'.repeat(10)}…" was not found in the response body`,
    );
  });

  it('matches case-insensitively only when asked', async () => {
    expect(
      (await check(textUrl('Hello World'), { assertions: [kw('hello world')] })).errorCode,
    ).toBe('keyword_missing');
    const loose = await check(textUrl('Hello WORLD'), {
      assertions: [kw('hello world', 'present', false)],
    });
    expect(loose.outcome).toBe('up');
  });

  it('fails a keyword that must be absent with keyword_present', async () => {
    const run = await check(textUrl('Fatal error: database down'), {
      assertions: [kw('fatal ERROR', 'absent', false)],
    });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'keyword_present' });
    expect(run.errorMessage).toBe('Keyword "fatal ERROR" was found but must be absent');
    expect(
      (await check(textUrl('All good'), { assertions: [kw('error', 'absent')] })).outcome,
    ).toBe('up');
  });

  it('matches non-ASCII text', async () => {
    expect((await check(textUrl('Grüße aus Köln'), { assertions: [kw('Köln')] })).outcome).toBe(
      'up',
    );
  });
});

describe('compressed bodies', () => {
  it.each(['gzip', 'br', 'deflate'])(
    'decodes %s for keywords and counts wire bytes',
    async (coding) => {
      const body = `<html>${'padding '.repeat(500)}<p>Status: operational</p></html>`;
      const run = await check(textUrl(body, coding), { assertions: [kw('Status: operational')] });
      expect(run.outcome).toBe('up');
      const wire =
        coding === 'gzip'
          ? zlib.gzipSync(body).length
          : coding === 'br'
            ? zlib.brotliCompressSync(body).length
            : zlib.deflateSync(body).length;
      expect(run.responseSize).toBe(wire);
      expect(run.responseSize).toBeLessThan(body.length);
      const missing = await check(textUrl(body, coding), { assertions: [kw('Status: degraded')] });
      expect(missing.errorCode).toBe('keyword_missing');
    },
  );
});

describe('the body cap', () => {
  it('reads a huge body only up to the cap when nothing asserts on it, and hangs up', async () => {
    const run = await check(`${server.url}/huge?mb=8`);
    expect(run).toMatchObject({ outcome: 'up', httpStatus: 200 });
    expect(run.responseSize).toBeGreaterThan(MIB);
    expect(run.responseSize).toBeLessThan(3 * MIB);
    expect(run.phases.download).not.toBeNull();
    await server.waitForNoConnections();
  });

  it('passes a keyword found before the cap', async () => {
    const run = await check(`${server.url}/huge?mb=8&head=BEGIN-MARK`, {
      assertions: [kw('BEGIN-MARK')],
    });
    expect(run.outcome).toBe('up');
    await server.waitForNoConnections();
  });

  it('is response_too_large when a required keyword lies past the cap', async () => {
    const run = await check(`${server.url}/huge?mb=3&tail=END-MARK`, {
      assertions: [kw('END-MARK')],
    });
    expect(run).toMatchObject({
      outcome: 'down',
      errorCode: 'response_too_large',
      httpStatus: 200,
    });
    expect(run.errorMessage).toBe(
      'Keyword "END-MARK" was not found in the first 1 MiB of the body, which is larger than the 1 MiB read limit',
    );
    await server.waitForNoConnections();
  });

  it('passes an absent-mode keyword on a huge body', async () => {
    const run = await check(`${server.url}/huge?mb=3&tail=END-MARK`, {
      assertions: [kw('error', 'absent')],
    });
    expect(run.outcome).toBe('up');
  });

  it('caps the decoded size of a compressed body, not its wire size', async () => {
    const run = await check(`${server.url}/huge?mb=16&gzip=1&tail=END-MARK`, {
      assertions: [kw('END-MARK')],
    });
    expect(run.errorCode).toBe('response_too_large');
    expect(run.responseSize).toBeLessThan(MIB / 4);
    await server.waitForNoConnections();
  });

  it('honours a custom cap', async () => {
    const body = `${'a'.repeat(100)}needle`;
    const capped = await check(textUrl(body), { assertions: [kw('needle')], maxBodyBytes: 50 });
    expect(capped.errorCode).toBe('response_too_large');
    expect(capped.errorMessage).toContain('first 50 bytes');
    const roomy = await check(textUrl(body), {
      assertions: [kw('needle')],
      maxBodyBytes: body.length,
    });
    expect(roomy.outcome).toBe('up');
  });
});
