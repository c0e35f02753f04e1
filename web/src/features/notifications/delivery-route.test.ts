import { AlertEvent } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { deliveryRoute } from './delivery-route';

const down = AlertEvent.parse({
  kind: 'monitor.down',
  at: '2026-11-28T02:00:00.000Z',
  monitor: { id: 1, name: 'Checkout', type: 'http', target: 'https://shop.example/' },
  status: 'down',
  previousStatus: 'up',
  cause: null,
  outageMs: null,
  downChecks: 1,
  certificate: null,
  incident: null,
});

describe('the Deliveries screen says why a delivery went elsewhere', () => {
  it('says nothing of a delivery that went where it was meant to', () => {
    expect(deliveryRoute(down)).toBeNull();
    expect(deliveryRoute({ ...down, rerouted: null, fallback: null })).toBeNull();
  });

  it('names the quiet channel a message was rerouted from, in order', () => {
    expect(
      deliveryRoute({ ...down, rerouted: { from: [{ channelId: 2, channelName: 'Ops pager' }] } }),
    ).toBe('Rerouted from Ops pager (quiet hours)');
    expect(
      deliveryRoute({
        ...down,
        rerouted: {
          from: [
            { channelId: 2, channelName: 'Ops pager' },
            { channelId: 3, channelName: 'SMS' },
          ],
        },
      }),
    ).toBe('Rerouted from Ops pager, then SMS (quiet hours)');
  });

  it('names the failing channel a fallback carried the message for', () => {
    expect(
      deliveryRoute({
        ...down,
        fallback: { channelId: 4, channelName: 'Slack', failures: 3, lastError: 'HTTP 500' },
      }),
    ).toBe('Fallback for Slack (3 failed in a row)');
  });
});
