import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../src/lib/event-hub.js';
import { RenderCache, type Rendered } from '../../src/status-pages/cache.js';

const DAY = 86_400_000;

function setup(options: { maxEntries?: number } = {}) {
  const clock = { t: Date.UTC(2026, 10, 22, 12), now: () => clock.t };
  const hub = new EventHub();
  const cache = new RenderCache(hub, clock, options);
  let renders = 0;
  const page =
    (extra: Partial<Rendered> = {}) =>
    async (): Promise<Rendered> => {
      renders += 1;
      return {
        body: `render ${renders}`,
        type: 'text/html',
        pageId: 1,
        monitorIds: [7],
        latency: false,
        ...extra,
      };
    };
  return { clock, hub, cache, page, renders: () => renders };
}

const status = (monitorId: number) =>
  ({
    kind: 'status',
    monitorId,
    from: 'up',
    to: 'down',
    at: new Date().toISOString(),
    errorCode: null,
    message: null,
  }) as const;

describe('the status page render cache', () => {
  it('renders once for concurrent requests and serves the copy until something changes', async () => {
    const { cache, page, renders } = setup();
    const [a, b] = await Promise.all([cache.get('k', page()), cache.get('k', page())]);
    expect(renders()).toBe(1);
    expect(a).toBe(b);
    expect((await cache.get('k', page()))?.identity.toString()).toBe('render 1');
    expect(renders()).toBe(1);
  });

  it('re-renders after a flip of one of its monitors, not of another', async () => {
    const { cache, hub, page, renders } = setup();
    await cache.get('k', page());
    hub.publish(status(8));
    await cache.get('k', page());
    expect(renders()).toBe(1);
    hub.publish(status(7));
    expect((await cache.get('k', page()))?.identity.toString()).toBe('render 2');
  });

  it('re-renders on an incident, a maintenance change and an edit of its page', async () => {
    const { cache, hub, page, renders } = setup();
    await cache.get('k', page());
    hub.publish({ kind: 'maintenance', change: 'updated', windowId: 1 });
    await cache.get('k', page());
    hub.publish({ kind: 'status-page', change: 'updated', pageId: 2 });
    await cache.get('k', page());
    expect(renders()).toBe(2);
    hub.publish({ kind: 'status-page', change: 'updated', pageId: 1 });
    await cache.get('k', page());
    expect(renders()).toBe(3);
  });

  it('re-renders at UTC midnight and after a minute, whatever happens', async () => {
    const { cache, clock, page, renders } = setup();
    clock.t = Date.UTC(2026, 10, 22, 23, 59, 50);
    await cache.get('k', page());
    clock.t += 20_000;
    await cache.get('k', page());
    expect(renders()).toBe(2);
    clock.t += 59_000;
    await cache.get('k', page());
    expect(renders()).toBe(2);
    clock.t += 2_000;
    await cache.get('k', page());
    expect(renders()).toBe(3);
    expect(clock.t - Date.UTC(2026, 10, 22)).toBeGreaterThan(DAY);
  });

  it('refreshes current latency from results at most every 30 s', async () => {
    const { cache, clock, hub, page, renders } = setup();
    const result = { kind: 'result', monitorId: 7 } as unknown as Parameters<
      EventHub['publish']
    >[0];
    await cache.get('k', page({ latency: true }));
    hub.publish(result);
    await cache.get('k', page({ latency: true }));
    expect(renders()).toBe(1);
    clock.t += 30_000;
    hub.publish(result);
    await cache.get('k', page({ latency: true }));
    expect(renders()).toBe(2);
  });

  it('keeps at most its bound of variants, dropping the least recently used', async () => {
    const { cache, page, renders } = setup({ maxEntries: 2 });
    await cache.get('a', page());
    await cache.get('b', page());
    await cache.get('a', page());
    await cache.get('c', page());
    expect(cache.size).toBe(2);
    await cache.get('a', page());
    expect(renders()).toBe(3);
    await cache.get('b', page());
    expect(renders()).toBe(4);
  });

  it('keeps nothing for a page that is not there', async () => {
    const { cache } = setup();
    expect(await cache.get('gone', async () => null)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('compresses each encoding once, when a client first asks for it, and shares it', async () => {
    const { cache, page } = setup();
    const body = (await cache.get('k', page({ body: 'status '.repeat(500) })))!;
    const br1 = body.encoded('br');
    expect(body.encoded('br')).toBe(br1);
    expect(zlib.brotliDecompressSync(br1).toString()).toBe('status '.repeat(500));
    expect(zlib.gunzipSync(body.encoded('gzip')).toString()).toBe('status '.repeat(500));
    expect(body.encoded('gzip')).toBe(body.encoded('gzip'));
    expect(br1.length).toBeLessThan(body.identity.length / 10);
  });
});
