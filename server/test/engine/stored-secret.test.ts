import { describe, expect, it } from 'vitest';
import { cachedOpener } from '../../src/engine/checks/stored-secret.js';
import { redactRun, REDACTED, sentSecrets } from '../../src/engine/checks/redact-secrets.js';
import { noPhases } from '../../src/domain/check-run.js';
import { SecretBox } from '../../src/lib/crypto.js';

const box = new SecretBox(Buffer.alloc(32, 3));

describe('opened secrets', () => {
  it('are decrypted once per sealed text, and a new seal of the same value is opened anew', () => {
    const opened: string[] = [];
    const open = cachedOpener((sealed) => {
      opened.push(sealed);
      return box.open(sealed);
    });
    const first = box.seal('key-1');
    for (let i = 0; i < 1000; i++) expect(open(first)).toBe('key-1');
    const resaved = box.seal('key-1');
    expect(open(resaved)).toBe('key-1');
    expect(opened).toEqual([first, resaved]);
  });

  it('forget the oldest beyond their bound, and never remember a failure', () => {
    let calls = 0;
    const open = cachedOpener((sealed) => {
      calls++;
      return box.open(sealed);
    }, 2);
    const [a, b, c] = ['a', 'b', 'c'].map((v) => box.seal(v));
    [a, b, c, a].forEach((s) => open(s!));
    expect(calls).toBe(4);
    expect(() => open('v1.AAAA.AAAA.AAAA')).toThrow();
    expect(() => open('v1.AAAA.AAAA.AAAA')).toThrow();
    expect(calls).toBe(6);
  });
});

describe('what a check sent', () => {
  it('is masked wherever a result could repeat it, the Basic header form included', () => {
    const secrets = sentSecrets(
      [
        { name: 'X-Api-Key', secret: true },
        { name: 'Accept', secret: false, value: 'application/json' },
        { name: 'X-Pin', secret: true },
      ],
      [
        { name: 'X-Api-Key', value: 'abcd-1234' },
        { name: 'Accept', value: 'application/json' },
        { name: 'X-Pin', value: '42' },
      ],
      { username: 'ann', secret: 'pa55word' },
    );
    const basic = Buffer.from('ann:pa55word').toString('base64');
    // Too short to mask without garbling the evidence: "42".
    expect(secrets.sort()).toEqual(['abcd-1234', basic, 'pa55word'].sort());
    const run = redactRun(
      {
        outcome: 'down',
        latencyMs: 5,
        phases: noPhases,
        httpStatus: 200,
        errorCode: 'keyword_missing',
        errorMessage: 'Body was {"key":"abcd-1234","auth":"Basic ' + basic + '"}',
        responseSize: 10,
        certExpiresAt: null,
        details: {
          certificate: null,
          assertions: [
            {
              kind: 'json',
              target: '$.key',
              expected: 'equals "x"',
              actual: '"abcd-1234"',
              passed: false,
              soft: false,
            },
          ],
        },
      },
      secrets,
    );
    expect(run.errorMessage).toBe(`Body was {"key":"${REDACTED}","auth":"Basic ${REDACTED}"}`);
    expect(run.details?.assertions[0]).toMatchObject({ actual: `"${REDACTED}"` });
  });
});
