import { defaultAlertRules, type Monitor } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { emptyValues, fromMonitor, newHeaderRow, toDraft, type FormValues } from './form-values';
import { validate } from './validate';

const browser = (over: Partial<FormValues> = {}): FormValues => ({
  ...emptyValues('browser'),
  name: 'Shop',
  url: 'https://shop.example.com/',
  interval: '300',
  timeout: '30',
  ...over,
});

const saved: Extract<Monitor, { type: 'browser' }> = {
  id: 9,
  type: 'browser',
  name: 'Shop',
  url: 'https://shop.example.com/',
  viewport: 'phone',
  waitFor: 'selector',
  waitSelector: '#app .ready',
  requiredText: 'Add to basket',
  requiredSelector: 'button.buy',
  lcpThresholdMs: 2500,
  failOnJsError: false,
  basicAuth: { username: 'staging', hasSecret: true },
  headers: [
    { name: 'X-Env', secret: true, hasValue: true },
    { name: 'Accept', secret: false, hasValue: true, value: 'text/html' },
  ],
  interval: 120,
  timeout: 45,
  retries: 1,
  retryInterval: null,
  degradedThresholdMs: 4000,
  tags: [],
  description: '',
  paused: false,
  status: 'up',
  statusChangedAt: null,
  lastCheck: null,
  lastDetails: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  alerts: defaultAlertRules,
  channelIds: [],
};

describe('browser form values', () => {
  it('builds a browser draft with only browser settings', () => {
    const { draft, headerKeys } = toDraft(
      browser({
        host: 'ignored',
        lcpThresholdMs: '2500',
        headers: [newHeaderRow('X-Env', 'staging'), newHeaderRow('', '')],
      }),
    );
    expect(draft).toEqual({
      type: 'browser',
      name: 'Shop',
      url: 'https://shop.example.com/',
      viewport: 'desktop',
      waitFor: 'load',
      waitSelector: '',
      requiredText: '',
      requiredSelector: '',
      lcpThresholdMs: 2500,
      failOnJsError: true,
      basicAuth: null,
      headers: [{ name: 'X-Env', secret: true, value: 'staging' }],
      interval: 300,
      timeout: 30,
      retries: 1,
      retryInterval: null,
      degradedThresholdMs: null,
      tags: [],
      description: '',
      paused: false,
      alerts: defaultAlertRules,
    });
    expect(headerKeys).toHaveLength(1);
    expect(validate(browser()).valid).toBe(true);
  });

  it('validates with the contract messages: scheme, interval, selector, auth', () => {
    expect(validate(browser({ url: 'file:///etc/passwd' })).errors.url).toMatch(/http:\/\//);
    expect(validate(browser({ interval: '30' })).errors.interval).toBe(
      'Browser checks run at most every 60 seconds',
    );
    expect(validate(browser({ waitFor: 'selector' })).errors.waitSelector).toBe(
      'Enter the CSS selector to wait for, e.g. #app .ready',
    );
    expect(validate(browser({ basicAuthEnabled: true })).errors['basicAuth.username']).toBe(
      'Enter the user name',
    );
    expect(validate(browser({ lcpThresholdMs: 'fast' })).errors.lcpThresholdMs).toBe(
      'Enter a number',
    );
  });

  it('sends no wait selector unless waiting for one', () => {
    const { draft } = toDraft(browser({ waitFor: 'load', waitSelector: '#stale' }));
    expect(draft).toMatchObject({ waitFor: 'load', waitSelector: '' });
  });

  it('round-trips a saved browser monitor through the form', () => {
    const values = fromMonitor(saved);
    expect(values).toMatchObject({
      viewport: 'phone',
      waitFor: 'selector',
      waitSelector: '#app .ready',
      lcpThresholdMs: '2500',
      failOnJsError: false,
      basicAuthEnabled: true,
      basicAuthUsername: 'staging',
      basicAuthPassword: '',
      basicAuthSaved: true,
      interval: '120',
    });
    const { draft } = toDraft(values);
    const {
      id: _id,
      status: _s,
      statusChangedAt: _c,
      lastCheck: _l,
      lastDetails: _d,
      createdAt: _a,
      updatedAt: _u,
      ...settings
    } = saved;
    // The saved password and secret header are never sent back: left out, they are kept.
    expect(draft).toEqual({
      ...settings,
      basicAuth: { username: 'staging' },
      headers: [
        { name: 'X-Env', secret: true },
        { name: 'Accept', secret: false, value: 'text/html' },
      ],
    });
  });

  it('sends a typed password, and an empty one only when none is saved', () => {
    const on = { basicAuthEnabled: true, basicAuthUsername: 'staging' };
    const replaced = toDraft({ ...fromMonitor(saved), basicAuthPassword: 'new-pass' }).draft;
    expect(replaced).toMatchObject({ basicAuth: { username: 'staging', password: 'new-pass' } });
    expect(toDraft(browser({ ...on, basicAuthPassword: 's3cret' })).draft).toMatchObject({
      basicAuth: { username: 'staging', password: 's3cret' },
    });
    expect(toDraft(browser(on)).draft).toMatchObject({
      basicAuth: { username: 'staging', password: '' },
    });
    const off = toDraft({ ...fromMonitor(saved), basicAuthEnabled: false }).draft;
    expect(off).toMatchObject({ basicAuth: null });
    expect(validate({ ...fromMonitor(saved), basicAuthPassword: '' }).valid).toBe(true);
  });
});
