import { describe, expect, it } from 'vitest';
import { expiryFor } from './expiry';

const now = Date.parse('2026-03-10T12:00:00.000Z');

describe('API key expiry', () => {
  it('never expires, or after a preset number of days', () => {
    expect(expiryFor('never', '', now)).toEqual({ expiresAt: null });
    expect(expiryFor('30', '', now)).toEqual({ expiresAt: '2026-04-09T12:00:00.000Z' });
  });

  it('ends on the chosen day, local time', () => {
    const r = expiryFor('date', '2026-12-31', now);
    expect('expiresAt' in r && r.expiresAt).toBe(new Date(2026, 11, 31, 23, 59, 59).toISOString());
  });

  it('asks for a date in the future', () => {
    expect(expiryFor('date', '', now)).toEqual({ error: 'Choose a date' });
    expect(expiryFor('date', '2020-01-01', now)).toEqual({ error: 'Choose a date in the future' });
  });
});
