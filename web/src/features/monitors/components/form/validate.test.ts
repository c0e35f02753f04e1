import { describe, expect, it } from 'vitest';
import { newAssertionRow } from './assertion-rows';
import { emptyValues, newHeaderRow, toDraft, type FormValues } from './form-values';
import { fieldKeyFor, mapErrors, validate } from './validate';

const valid = (over: Partial<FormValues> = {}): FormValues => ({
  ...emptyValues(),
  name: 'Shop',
  url: 'https://shop.example.com/health',
  ...over,
});

describe('monitor form validation', () => {
  it('accepts a minimal monitor and builds the draft the API expects', () => {
    const result = validate(valid({ tags: ' prod , api,, ', acceptedStatusCodes: '200-299, 301' }));
    expect(result.errors).toEqual({});
    expect(result.valid).toBe(true);
    expect(result.draft).toMatchObject({
      type: 'http',
      interval: 60,
      timeout: 10,
      retryInterval: null,
      degradedThresholdMs: null,
      tags: ['prod', 'api'],
      acceptedStatusCodes: ['200-299', '301'],
      bodyType: 'none',
      auth: { kind: 'none' },
      ipFamily: 'auto',
      assertions: [],
      maxBodyBytes: 1024 * 1024,
    });
  });

  it('puts the contract messages under the fields they belong to', () => {
    const { errors } = validate(valid({ name: ' ', url: 'ftp://x', interval: '5', timeout: '10' }));
    expect(errors.name).toBe('Give the monitor a name');
    expect(errors.url).toMatch(/http:\/\/ or https:\/\//);
    expect(errors.interval).toBe('Check at most every 10 seconds');
    expect(errors.timeout).toBe('The timeout must be shorter than the interval');
  });

  it('says "Enter a number" for text in a number field instead of a type error', () => {
    expect(validate(valid({ retries: 'two' })).errors.retries).toBe('Enter a number');
    expect(validate(valid({ maxRedirects: '1.5' })).errors.maxRedirects).toBe('Whole numbers only');
  });

  it('names the offending item of a comma-separated list', () => {
    const { errors } = validate(valid({ acceptedStatusCodes: '200, 7000' }));
    expect(errors.acceptedStatusCodes).toMatch(/^“7000”: /);
  });

  it('maps header errors to the row that holds them, skipping blank rows', () => {
    const blank = newHeaderRow();
    const bad = newHeaderRow('bad name', 'x');
    const result = validate(valid({ headers: [blank, bad] }));
    expect(result.draft).toMatchObject({ type: 'http' });
    expect('headers' in result.draft && result.draft.headers).toEqual([
      { name: 'bad name', secret: true, value: 'x' },
    ]);
    expect(result.errors[`headers.${bad.key}.name`]).toMatch(/Header names/);
  });

  it('maps assertion errors to the row and field that hold them', () => {
    const fine = { ...newAssertionRow('keyword'), value: 'ok' };
    const empty = newAssertionRow('keyword');
    const regex = { ...newAssertionRow('regex'), pattern: '(' };
    const json = { ...newAssertionRow('json'), path: 'items', jsonOp: 'exists' as const };
    const slow = { ...newAssertionRow('latency'), maxMs: 'soon' };
    const { errors } = validate(valid({ assertions: [fine, empty, regex, json, slow] }));
    expect(errors).toEqual({
      [`assertions.${empty.key}.value`]: 'Enter the text to look for',
      [`assertions.${regex.key}.pattern`]: 'This is not a valid JavaScript regular expression',
      [`assertions.${json.key}.path`]: expect.stringMatching(/^Use \$ then/),
      [`assertions.${slow.key}.maxMs`]: 'Enter a number of milliseconds',
    });
  });

  it('maps server field errors by path onto the same keys', () => {
    const values = valid({ tags: 'a, b' });
    const { headerKeys } = toDraft({ ...values, headers: [newHeaderRow('X', '1')] });
    const errors = mapErrors(
      [
        { path: 'headers.0.value', message: 'No', code: 'custom' },
        { path: 'tags.1', message: 'Taken', code: 'custom' },
        { path: '', message: 'Body too large', code: 'custom' },
      ],
      { headerKeys, assertionKeys: [] },
      values,
    );
    expect(errors[`headers.${headerKeys[0]}.value`]).toBe('No');
    expect(errors.tags).toBe('“b”: Taken');
    expect(errors['']).toBe('Body too large');
    const keys = { headerKeys: [], assertionKeys: [41, 42] };
    expect(fieldKeyFor('assertions.1.op', keys)).toBe('assertions.42.op');
    expect(fieldKeyFor('assertions', keys)).toBe('assertions');
    expect(fieldKeyFor('auth.token', keys)).toBe('auth.secret');
    expect(fieldKeyFor('auth.password', keys)).toBe('auth.secret');
    expect(fieldKeyFor('auth.username', keys)).toBe('auth.username');
  });
});
