import { describe, expect, it } from 'vitest';
import { goDurationMs, mapCondition } from '../../src/config-as-code/importers/gatus/conditions.js';
import { GatusKeys } from '../../src/config-as-code/importers/gatus/keys.js';
import { mergeGatusFiles, substituteEnv } from '../../src/config-as-code/importers/gatus/read.js';

describe('Gatus conditions', () => {
  it.each([
    ['[STATUS] == 200', { kind: 'status', codes: ['200'] }],
    ['[STATUS] < 300', { kind: 'status', codes: ['100-299'] }],
    ['[STATUS] >= 500', { kind: 'status', codes: ['500-599'] }],
    ['[STATUS] == pat(2*)', { kind: 'status', codes: ['200-299'] }],
    ['[STATUS] == pat(30*)', { kind: 'status', codes: ['300-309'] }],
    ['[STATUS] == any(200, 301)', { kind: 'status', codes: ['200', '301'] }],
    ['[RESPONSE_TIME] < 500', { kind: 'latency', maxMs: 499 }],
    ['[RESPONSE_TIME] <= 500', { kind: 'latency', maxMs: 500 }],
    ['[CERTIFICATE_EXPIRATION] > 48h', { kind: 'certificate', hours: 48 }],
    ['[DOMAIN_EXPIRATION] > 720h', { kind: 'domain', hours: 720 }],
    ['[CONNECTED] == true', { kind: 'implied' }],
    [
      '[BODY].data.id == 1',
      {
        kind: 'assertion',
        assertion: { kind: 'json', path: '$.data.id', op: 'equals', value: '1' },
      },
    ],
    [
      'has([BODY].errors) == false',
      {
        kind: 'assertion',
        assertion: { kind: 'json', path: '$.errors', op: 'not_exists', value: '' },
      },
    ],
    [
      '[BODY] != pat(*error*)',
      {
        kind: 'assertion',
        assertion: { kind: 'regex', pattern: '^.*error.*$', flags: 's', mode: 'absent' },
      },
    ],
  ])('%s on an http endpoint', (condition, effect) => {
    expect(mapCondition(condition, 'http')).toEqual(effect);
  });

  it.each([
    ['[STATUS] == pat(2?1)', 'Pagewatch accepts status codes as codes and ranges only'],
    [
      '[BODY].name == pat(a*)',
      "Pagewatch's JSON assertions test equals, contains and exists, not pat()",
    ],
    ['[RESPONSE_TIME] > 10', 'Pagewatch bounds the response time from above only'],
    ['[DOMAIN_EXPIRATION] < 720h', 'Pagewatch warns of a domain registration expiring within days'],
    ['[CONNECTED] == false', 'Pagewatch has no monitor that is up when it cannot connect'],
  ])('%s is left out with its reason', (condition, reason) => {
    expect(mapCondition(condition, 'http')).toEqual({ kind: 'skipped', reason });
  });

  it('reads DNS conditions on a dns endpoint only', () => {
    expect(mapCondition('[DNS_RCODE] == NOERROR', 'dns')).toEqual({ kind: 'implied' });
    expect(mapCondition('[DNS_RCODE] == NXDOMAIN', 'dns').kind).toBe('skipped');
    expect(mapCondition('[BODY] == 1.2.3.4', 'dns')).toEqual({
      kind: 'dnsExpected',
      value: '1.2.3.4',
    });
    expect(mapCondition('[STATUS] == 200', 'tcp')).toEqual({
      kind: 'skipped',
      reason: "Pagewatch's tcp monitors cannot check [STATUS]",
    });
  });

  it('reads Go durations', () => {
    expect(goDurationMs('1h30m')).toBe(5_400_000);
    expect(goDurationMs('250ms')).toBe(250);
    expect(goDurationMs('2 days')).toBeNull();
  });
});

describe('Gatus [DOMAIN_EXPIRATION]', () => {
  it('is the domain registration option on HTTP endpoints only', () => {
    expect(mapCondition('[DOMAIN_EXPIRATION] < 720h', 'http')).toMatchObject({ kind: 'skipped' });
    expect(mapCondition('[DOMAIN_EXPIRATION] > 720h', 'tcp')).toEqual({
      kind: 'skipped',
      reason: 'Pagewatch watches domain registrations on HTTP and domain monitors',
    });
  });
});

describe('Gatus keys, environment and folders', () => {
  it('derives keys from group and name, numbering repeats', () => {
    const keys = new GatusKeys();
    expect(keys.next('Core API', 'Health check')).toBe('gatus-core-api-health-check');
    expect(keys.next('core-api', 'health_check')).toBe('gatus-core-api-health-check-2');
    expect(keys.next('', 'x'.repeat(80))).toHaveLength(60);
  });

  it('substitutes like os.ExpandEnv, but names what is not set', () => {
    expect(substituteEnv('a: ${A}\nb: $B/x\nc: $$C', { A: '1', B: '2' })).toBe(
      'a: 1\nb: 2/x\nc: $C',
    );
    expect(() => substituteEnv('a: 1\nb: ${NOPE}\n', {})).toThrow(
      'line 2: the environment variable NOPE is not set',
    );
  });

  it('merges maps, concatenates lists, refuses a conflicting setting', () => {
    expect(
      mergeGatusFiles([
        { name: 'a.yaml', value: { endpoints: [{ name: 'a' }], alerting: { slack: { x: 1 } } } },
        { name: 'b.yaml', value: { endpoints: [{ name: 'b' }], alerting: { ntfy: { y: 2 } } } },
      ]),
    ).toEqual({
      endpoints: [{ name: 'a' }, { name: 'b' }],
      alerting: { slack: { x: 1 }, ntfy: { y: 2 } },
    });
    expect(() =>
      mergeGatusFiles([
        { name: 'a.yaml', value: { ui: { title: 'A' } } },
        { name: 'b.yaml', value: { ui: { title: 'B' } } },
      ]),
    ).toThrow('"ui.title" is set differently in a.yaml and b.yaml');
  });
});
