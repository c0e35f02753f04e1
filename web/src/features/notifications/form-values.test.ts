import {
  ChannelCreateInput,
  ChannelUpdateInput,
  type NotificationChannel,
} from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { emptyChannel, fromChannel, toChannelInput } from './form-values';
import { channelKindSpecs } from './kinds';

const saved: NotificationChannel = {
  id: 7,
  name: 'Mail ops',
  kind: 'email',
  isDefault: true,
  enabled: true,
  template: { title: '', body: '' },
  config: {
    host: 'smtp.example.com',
    port: 465,
    security: 'tls',
    ignoreTlsErrors: false,
    username: 'ops',
    from: 'pagewatch@example.com',
    to: ['a@example.com', 'b@example.com'],
  },
  secretsSet: ['password'],
  monitorCount: 2,
  fallbackChannelId: null,
  failThreshold: 3,
  quietHours: { windows: [], rerouteChannelId: null },
  health: { consecutiveFailures: 0, failing: false, lastError: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('channel form values', () => {
  it('has a field table for every kind, each naming a setting of its schema', () => {
    for (const [kind, spec] of Object.entries(channelKindSpecs)) {
      const values = emptyChannel(kind as NotificationChannel['kind']);
      expect(Object.keys(values.fields)).toHaveLength(spec.fields.length);
    }
  });

  it('round-trips a saved email channel, leaving the stored password out', () => {
    const input = toChannelInput(fromChannel(saved));
    expect(input).toMatchObject({
      kind: 'email',
      config: { host: 'smtp.example.com', port: 465, to: ['a@example.com', 'b@example.com'] },
      secrets: {},
    });
    expect(ChannelUpdateInput.safeParse(input).success).toBe(true);
  });

  it('reads webhook headers typed one per line and names the fields the schema refuses', () => {
    const v = emptyChannel('webhook');
    v.name = 'Hook';
    v.fields['config.url'] = 'https://hooks.example.com/x';
    v.fields['config.headers'] = 'X-Team: ops\nAuthorization: Bearer abc';
    expect(toChannelInput(v).config).toMatchObject({
      headers: [
        { name: 'X-Team', value: 'ops' },
        { name: 'Authorization', value: 'Bearer abc' },
      ],
    });
    expect(ChannelCreateInput.safeParse(toChannelInput(v)).success).toBe(true);
    const bad = emptyChannel('telegram');
    const issues = ChannelCreateInput.safeParse(toChannelInput(bad)).error?.issues ?? [];
    expect(issues.map((i) => i.path.join('.')).sort()).toEqual([
      'config.chatId',
      'name',
      'secrets.botToken',
    ]);
  });
});
