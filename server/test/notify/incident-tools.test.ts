import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import {
  downEvent,
  expectHttpErrorMapping,
  incidentEvent,
  PUBLIC_URL,
  send,
  targetOf,
  upEvent,
} from './support.js';

let r: HttpReceiver;
beforeEach(async () => {
  r = await startHttpReceiver();
});
afterEach(() => r.close());

describe('pagerduty', () => {
  const pd = () =>
    targetOf('pagerduty', { eventsUrl: `${r.url}/v2/enqueue` }, { routingKey: 'R0UT1NG' });

  it('triggers an Events API v2 alert keyed by monitor', async () => {
    r.answer(202, { body: '{"status":"success","dedup_key":"pagewatch-monitor-42"}' });
    await send(pd(), downEvent());
    const req = r.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', path: '/v2/enqueue' });
    expect(req.json()).toEqual({
      routing_key: 'R0UT1NG',
      event_action: 'trigger',
      dedup_key: 'pagewatch-monitor-42',
      payload: {
        summary: 'Shop API is down',
        source: 'https://shop.example/health',
        severity: 'critical',
        timestamp: '2026-11-22T06:05:31.000Z',
        component: 'Shop API',
        group: 'http',
        class: 'http_status',
        custom_details: expect.objectContaining({
          event: 'monitor.down',
          Cause: 'HTTP 503 Service Unavailable (http_status)',
        }),
      },
      links: [{ href: `${PUBLIC_URL}/monitors/42`, text: 'Open monitor' }],
      client: 'Pagewatch',
      client_url: PUBLIC_URL,
    });
  });

  it('resolves on recovery and keys incidents and certificates apart', async () => {
    await send(pd(), upEvent());
    expect(r.requests[0]!.json()).toEqual({
      routing_key: 'R0UT1NG',
      event_action: 'resolve',
      dedup_key: 'pagewatch-monitor-42',
    });
    await send(pd(), incidentEvent('incident.created'));
    expect(r.requests[1]!.json()).toMatchObject({
      event_action: 'trigger',
      dedup_key: 'pagewatch-incident-7',
    });
    await send(pd(), incidentEvent('incident.resolved'));
    expect(r.requests[2]!.json()).toMatchObject({
      event_action: 'resolve',
      dedup_key: 'pagewatch-incident-7',
    });
    const cert = downEvent({
      kind: 'certificate.expiring',
      certificate: { expiresAt: '2026-12-01T00:00:00.000Z', daysLeft: 9 },
    });
    await send(pd(), cert);
    expect(r.requests[3]!.json()).toMatchObject({
      dedup_key: 'pagewatch-cert-42',
      payload: { severity: 'warning' },
    });
  });

  it('maps errors', async () => {
    await expectHttpErrorMapping(r, pd());
  });
});

describe('opsgenie', () => {
  const og = () => targetOf('opsgenie', { apiUrl: r.url, priority: 'P1' }, { apiKey: 'genie-key' });

  it('creates an alert with GenieKey auth, an alias per monitor and details', async () => {
    r.answer(202, { body: '{"result":"Request will be processed","requestId":"x"}' });
    await send(og(), downEvent());
    const req = r.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', path: '/v2/alerts' });
    expect(req.headers.authorization).toBe('GenieKey genie-key');
    expect(req.json()).toEqual({
      message: 'Shop API is down',
      alias: 'pagewatch-monitor-42',
      description: expect.stringContaining('Shop API is down: HTTP 503'),
      priority: 'P1',
      source: 'Pagewatch',
      tags: ['pagewatch', 'monitor.down', 'http'],
      details: expect.objectContaining({
        event: 'monitor.down',
        Target: 'https://shop.example/health',
        link: `${PUBLIC_URL}/monitors/42`,
      }),
    });
  });

  it('keeps the message within 130 characters', async () => {
    const name = 'n'.repeat(200);
    await send(og(), downEvent({ monitor: { id: 1, name, type: 'http', target: 't' } }));
    expect(r.requests[0]!.json().message).toHaveLength(130);
  });

  it('closes the alert by alias on recovery', async () => {
    await send(og(), upEvent());
    const req = r.requests[0]!;
    expect(req).toMatchObject({
      method: 'POST',
      path: '/v2/alerts/pagewatch-monitor-42/close',
      query: { identifierType: 'alias' },
    });
    expect(req.json()).toMatchObject({
      source: 'Pagewatch',
      note: 'Shop API is up again after 2 h 5 min of downtime.',
    });
  });

  it('maps errors', async () => {
    await expectHttpErrorMapping(r, og());
  });
});
