import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkFiles, printProblem } from '../../src/config-as-code/check.js';
import { configJsonSchema } from '../../src/config-as-code/json-schema.js';
import { SAMPLE_YAML } from './sample.js';

const lines = (files: { file: string; text: string }[]) =>
  checkFiles(files).problems.map(printProblem);

describe('validating configuration files offline', () => {
  it('accepts the sample with every kind of resource, with no warning', () => {
    const checked = checkFiles([{ file: 'pagewatch.yaml', text: SAMPLE_YAML }]);
    expect(checked.problems).toEqual([]);
    expect(checked.document?.monitors.map((m) => m.key)).toEqual([
      'api',
      'db',
      'dns-www',
      'nightly',
    ]);
    // Defaults are filled in: what the server will store.
    expect(checked.document?.monitors[1]).toMatchObject({ interval: 60, timeout: 10, retries: 1 });
  });

  it('reports malformed YAML at its line and column', () => {
    const text = 'version: 1\nmonitors:\n  - key: a\n    name: [unclosed\n';
    const out = lines([{ file: 'bad.yaml', text }]);
    expect(out.length).toBeGreaterThan(0);
    expect(out[0]).toMatch(/^bad\.yaml:\d+:\d+: /);
    expect(checkFiles([{ file: 'bad.yaml', text }]).document).toBeNull();
  });

  it('reports malformed JSON at its line and column', () => {
    const text = '{\n  "version": 1,\n  "monitors": [\n    { "key": "a", }\n  ]\n  "x": 1\n}\n';
    const out = lines([{ file: 'bad.json', text }]);
    expect(out[0]).toMatch(/^bad\.json:\d+:\d+: /);
  });

  it('points at unknown fields and wrong types where they are written', () => {
    const text = [
      'version: 1',
      'monitors:',
      '  - key: api',
      '    type: http',
      '    name: API',
      '    url: https://example.com',
      '    intervall: 30',
      '    retries: many',
      '',
    ].join('\n');
    expect(lines([{ file: 'm.yaml', text }])).toEqual([
      'm.yaml:7:5: monitors.0.intervall: Unknown field "intervall"',
      expect.stringMatching(/^m\.yaml:8:14: monitors\.0\.retries: .*number/i),
    ]);
  });

  it('applies the monitor input’s own rules across fields', () => {
    const text = [
      'version: 1',
      'monitors:',
      '  - key: api',
      '    type: http',
      '    name: API',
      '    url: https://example.com',
      '    interval: 10',
      '    timeout: 20',
      '',
    ].join('\n');
    expect(lines([{ file: 'm.yaml', text }])).toEqual([
      'm.yaml:8:14: monitors.0.timeout: The timeout must be shorter than the interval',
    ]);
  });

  it('reports keys used twice across the files of a folder, naming the first', () => {
    const a =
      'version: 1\nmonitors:\n  - { key: api, type: tcp, name: A, host: a.example.com, port: 1 }\n';
    const b =
      'version: 1\nmonitors:\n  - { key: other, type: tcp, name: B, host: b.example.com, port: 1 }\n' +
      '  - { key: api, type: tcp, name: C, host: c.example.com, port: 1 }\n';
    expect(
      lines([
        { file: 'a.yaml', text: a },
        { file: 'b.yaml', text: b },
      ]),
    ).toEqual([
      'b.yaml:4:12: monitors.1.key: Another monitor already has the key "api" (first at a.yaml:3:12)',
    ]);
  });

  it('reports references to keys the files do not define', () => {
    const text = [
      'version: 1',
      'monitors:',
      '  - { key: api, type: tcp, name: A, host: a.example.com, port: 1, channels: [nope] }',
      'statusPages:',
      '  - key: page',
      '    slug: page',
      '    title: Page',
      '    sections: [{ title: S, components: [{ monitor: ghost }] }]',
      'maintenance:',
      '  - key: w',
      '    title: W',
      '    timezone: UTC',
      '    scope: { kind: monitors, monitors: [api, gone] }',
      "    schedule: { kind: once, startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T01:00:00Z' }",
      '',
    ].join('\n');
    expect(lines([{ file: 'r.yaml', text }])).toEqual([
      'r.yaml:3:78: monitors.0.channels.0: No channel has the key "nope"',
      'r.yaml:8:52: statusPages.0.sections.0.components.0.monitor: No monitor has the key "ghost"',
      'r.yaml:13:46: maintenance.0.scope.monitors.1: No monitor has the key "gone"',
    ]);
  });

  it('warns about inline secrets without failing', () => {
    const text = [
      'version: 1',
      'channels:',
      '  - key: slack',
      '    kind: slack',
      '    name: Slack',
      '    config: {}',
      '    secrets:',
      '      webhookUrl: https://hooks.slack.com/services/T/B/X',
      '',
    ].join('\n');
    const checked = checkFiles([{ file: 's.yaml', text }]);
    expect(checked.document).not.toBeNull();
    expect(checked.problems.map(printProblem)).toEqual([
      's.yaml:8:19: channels.0.secrets.webhookUrl: warning: This secret is written inline; refer to it as ${env:NAME} instead',
    ]);
  });

  it('asks for the version and a known kind', () => {
    const out = lines([
      { file: 'v.yaml', text: 'monitors:\n  - { key: a, type: ftp, name: A }\n' },
    ]);
    expect(out).toEqual([
      'v.yaml:1:1: version: Write version: 1',
      expect.stringMatching(/^v\.yaml:2:21: monitors\.0\.type: Choose a monitor type/),
    ]);
  });

  it('has a JSON Schema that editors can use', () => {
    const schema = configJsonSchema();
    expect(schema.$schema).toMatch(/json-schema\.org/);
    expect(JSON.stringify(schema)).toContain('"statusPages"');
  });
});

describe('the examples of docs/config-as-code.md', () => {
  const docs = fs.readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/config-as-code.md'),
    'utf8',
  );
  const examples = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .filter((text) => /^version: 1$/m.test(text));

  it('has one for every kind of resource', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(examples.map((text, i) => [i + 1, text] as const))('example %i is valid', (_i, text) => {
    expect(checkFiles([{ file: 'example.yaml', text }]).problems.map(printProblem)).toEqual([]);
  });
});
