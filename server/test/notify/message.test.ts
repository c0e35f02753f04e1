import { alertEventKinds, type AlertEvent } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { humanDuration, renderMessage, testEvent } from '../../src/notify/message.js';
import { downEvent, incidentEvent, PUBLIC_URL, upEvent } from './support.js';

const noTemplate = { title: '', body: '' };

/** A burn-rate alert of the workbook's first rule (ADR 53). */
function sloEvent(name = 'Checkout'): AlertEvent {
  return {
    ...downEvent(),
    kind: 'slo.burning',
    monitor: null,
    status: null,
    cause: null,
    slo: {
      id: 7,
      name,
      subject: 'Shop API',
      target: 99.9,
      severity: 'page',
      rule: { budgetPercent: 2, longMs: 3_600_000, shortMs: 300_000 },
      burnRate: 16.7,
      remainingMs: 1_992_000,
      remainingPercent: 76.9,
      exhaustionMs: 7_200_000,
    },
  };
}

describe('default message', () => {
  it('says what went down, why, in which phase, and links to the monitor', () => {
    const m = renderMessage(downEvent(), noTemplate, PUBLIC_URL);
    expect(m.title).toBe('Shop API is down');
    expect(m.tone).toBe('critical');
    expect(m.color).toBe('#d1242f');
    expect(m.url).toBe(`${PUBLIC_URL}/monitors/42`);
    expect(m.text).toBe(
      [
        'Shop API is down: HTTP 503 Service Unavailable (http_status).',
        [
          'Monitor: Shop API',
          'Target: https://shop.example/health',
          'Status: down (was up)',
          'Cause: HTTP 503 Service Unavailable (http_status)',
          'Failed while: checking the response',
          'Down since: 2026-11-22 06:04 UTC',
          'At: 2026-11-22 06:05 UTC',
        ].join('\n'),
        `${PUBLIC_URL}/monitors/42`,
      ].join('\n\n'),
    );
    expect(m.markdown).toContain(`[Open monitor](${PUBLIC_URL}/monitors/42)`);
    expect(m.html).toContain(`<a href="${PUBLIC_URL}/monitors/42">Open monitor</a>`);
  });

  it('gives the outage duration of a recovery in words, in green', () => {
    const m = renderMessage(upEvent(), noTemplate, PUBLIC_URL);
    expect(m.title).toBe('Shop API is up');
    expect(m.summary((s) => s)).toBe('Shop API is up again after 2 h 5 min of downtime.');
    expect(m.fields).toContainEqual({ label: 'Outage', value: '2 h 5 min' });
    expect(m.tone).toBe('ok');
  });

  it('links incidents to their page and has no link without a public URL', () => {
    const m = renderMessage(incidentEvent('incident.created'), noTemplate, PUBLIC_URL);
    expect(m.title).toBe('Incident: Checkout errors');
    expect(m.url).toBe(`${PUBLIC_URL}/incidents/7`);
    expect(renderMessage(incidentEvent('incident.resolved'), noTemplate, null)).toMatchObject({
      title: 'Resolved: Checkout errors',
      url: null,
      tone: 'ok',
    });
  });

  it('has a title for every event kind', () => {
    const titles = alertEventKinds.map((kind) => {
      const base = kind.startsWith('incident.')
        ? incidentEvent('incident.created')
        : kind.startsWith('slo.')
          ? sloEvent()
          : downEvent();
      const event: AlertEvent = {
        ...base,
        kind,
        ...(kind.startsWith('channel.')
          ? {
              channelHealth: {
                channelId: 3,
                channelName: 'Ops hook',
                failures: 3,
                lastError: null,
              },
            }
          : {}),
        certificate: { expiresAt: '2026-11-27T00:00:00.000Z', daysLeft: 5 },
        downChecks: 12,
      };
      return renderMessage(kind === 'test' ? testEvent(new Date()) : event, noTemplate, null).title;
    });
    expect(titles).toEqual([
      'Shop API is down',
      'Shop API is up',
      'Shop API is degraded',
      'Shop API is down in some locations',
      'Shop API is still down',
      'Shop API is flapping',
      'Shop API settled: down',
      'Shop API missed its heartbeat',
      'Certificate of Shop API expires in 5 days',
      'Incident: Checkout errors',
      'Incident update: Checkout errors',
      'Resolved: Checkout errors',
      'SLO Checkout is burning its error budget',
      'SLO Checkout no longer burning',
      'Channel Ops hook is failing',
      'Channel Ops hook delivers again',
      'Test notification from Pagewatch',
    ]);
  });

  it('marks a fallback message first, whatever the template (ADR 62)', () => {
    const fallback = {
      channelId: 3,
      channelName: 'Ops <hook>',
      failures: 4,
      lastError: 'HTTP 500',
    };
    const m = renderMessage(
      { ...downEvent(), fallback },
      { title: '{{monitor.name}} down', body: 'Look at it' },
      null,
    );
    expect(m.title).toBe('[Fallback] Shop API down');
    expect(m.text.split('\n')[0]).toBe(
      'Fallback: sent here because the channel Ops <hook> failed 4 deliveries in a row (last error: HTTP 500).',
    );
    expect(m.html).toContain('channel Ops &lt;hook&gt; failed 4');
  });

  it('starts a message quiet hours rerouted with where it was meant to go, escaped (ADR 68)', () => {
    const rerouted = {
      from: [
        { channelId: 3, channelName: 'Ops <pager>' },
        { channelId: 4, channelName: 'Night desk' },
      ],
    };
    const m = renderMessage({ ...downEvent(), rerouted }, noTemplate, null);
    expect(m.title).toBe('[Rerouted] Shop API is down');
    expect(m.text.split('\n')[0]).toBe(
      'Rerouted: sent here from the channel Ops <pager> because of its quiet hours, passing Night desk (quiet too).',
    );
    expect(m.html).toContain('channel Ops &lt;pager&gt; because');
    const plain = renderMessage(downEvent(), noTemplate, null);
    expect(plain.title).toBe('Shop API is down');
    expect(plain.text).not.toContain('Rerouted');
  });

  it('says how much SLO budget is left and when it runs out (ADR 53)', () => {
    const m = renderMessage(sloEvent(), noTemplate, null);
    expect(m.tone).toBe('critical');
    expect(m.text).toContain(
      "Checkout (Shop API, target 99.9 %): it spent 2 % or more of its error budget in the last 1 h (burn rate 16.7×). 76.9 % of the error budget is left (33 min 12 s); at the last hour's burn rate it runs out in 2 h.",
    );
    const named = sloEvent('<b>x</b>');
    expect(renderMessage(named, noTemplate, null).html).not.toContain('<b>x</b>');
  });

  it('escapes a monitor named like a script in HTML and Markdown', () => {
    const event = downEvent({
      monitor: { id: 1, name: '<script>alert(1)</script>', type: 'http', target: 'x' },
    });
    const m = renderMessage(event, noTemplate, PUBLIC_URL);
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; is down');
    expect(m.markdown).toContain('\\<script\\>alert\\(1\\)\\</script\\> is down');
    expect(m.title).toBe('<script>alert(1)</script> is down');
  });
});

describe('templates', () => {
  it('fills placeholders and leaves unknown ones empty', () => {
    const m = renderMessage(
      upEvent(),
      {
        title: '[{{status}}] {{ monitor.name }}{{nope}}',
        body: '{{monitor.name}} back after {{outage}} ({{event}}) {{url}}',
      },
      PUBLIC_URL,
    );
    expect(m.title).toBe('[up] Shop API');
    expect(m.text).toBe(
      `Shop API back after 2 h 5 min (monitor.up) ${PUBLIC_URL}/monitors/42\n\n${PUBLIC_URL}/monitors/42`,
    );
    expect(m.fields).toEqual([]);
  });

  it('keeps the default where a template fills to nothing', () => {
    const m = renderMessage(downEvent(), { title: '{{nope}} ', body: '{{ unknown }}' }, null);
    expect(m.title).toBe('Shop API is down');
    expect(m.summary((s) => s)).toBe(
      'Shop API is down: HTTP 503 Service Unavailable (http_status).',
    );
  });

  it('keeps the default where a template part is empty', () => {
    const m = renderMessage(
      downEvent(),
      { title: '', body: 'Cause: {{cause.code}} in {{cause.phase}}' },
      null,
    );
    expect(m.title).toBe('Shop API is down');
    expect(m.text).toBe('Cause: http_status in content');
  });

  it('escapes placeholder values per format, and the whole template in HTML', () => {
    const event = downEvent({
      monitor: { id: 1, name: '<script>x</script>', type: 'http', target: 't' },
    });
    const m = renderMessage(event, { title: '', body: '*{{monitor.name}}* <b>' }, null);
    expect(m.html).toBe('<p>*&lt;script&gt;x&lt;/script&gt;* &lt;b&gt;</p>');
    expect(m.markdown).toBe('*\\<script\\>x\\</script\\>* <b>');
  });

  it('offers every documented placeholder', () => {
    const event = downEvent({
      kind: 'certificate.expiring',
      certificate: { expiresAt: '2026-11-27T00:00:00.000Z', daysLeft: 5 },
    });
    const body =
      '{{monitor.type}}|{{monitor.target}}|{{previous_status}}|{{cause.message}}|{{at}}|{{certificate.days_left}}';
    expect(renderMessage(event, { title: '', body }, null).text).toBe(
      'http|https://shop.example/health|up|HTTP 503 Service Unavailable|2026-11-22 06:05 UTC|5',
    );
    const incident = renderMessage(
      incidentEvent('incident.created'),
      { title: '', body: '{{incident.title}}: {{incident.state}} – {{incident.message}}' },
      null,
    );
    expect(incident.text).toBe('Checkout errors: investigating – We are looking into it.');
  });
});

describe('durations', () => {
  it('reads like people say it', () => {
    expect(
      [450, 42_000, 125_000, 7_500_000, 3 * 86_400_000 + 4 * 3_600_000 + 5].map(humanDuration),
    ).toEqual(['450 ms', '42 s', '2 min 5 s', '2 h 5 min', '3 d 4 h']);
  });
});

describe('test event', () => {
  it('is a test at the given time with nothing else', () => {
    const e = testEvent(new Date('2026-01-01T00:00:00Z'));
    expect(e).toMatchObject({ kind: 'test', at: '2026-01-01T00:00:00.000Z', monitor: null });
    expect(renderMessage(e, noTemplate, PUBLIC_URL)).toMatchObject({
      title: 'Test notification from Pagewatch',
      url: PUBLIC_URL,
      tone: 'info',
    });
  });
});
