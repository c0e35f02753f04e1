import { describe, expect, it } from 'vitest';
import type { ConfigPlan } from '@pagewatch/contract';
import { describePlan, painter } from '../../src/cli/plan-output.js';

const plan: ConfigPlan = {
  token: 'v1.abc',
  mode: 'upsert',
  prune: false,
  entries: [
    { kind: 'monitors', key: 'new', action: 'create', changes: [] },
    {
      kind: 'monitors',
      key: 'db',
      action: 'update',
      changes: [
        { path: 'port', before: 5432, after: 5433 },
        { path: 'description', after: 'Primary' },
      ],
    },
    { kind: 'channels', key: 'hook', action: 'unchanged', changes: [] },
    { kind: 'statusPages', key: 'old', action: 'delete', changes: [] },
  ],
  drift: [],
  summary: { create: 1, update: 1, unchanged: 1, skip: 0, detach: 0, delete: 1, drift: 0 },
};

describe('the plan as text', () => {
  it('is plain without a terminal, unchanged resources only counted', () => {
    const text = describePlan(plan, painter(false));
    expect(text).toBe(
      [
        '  + monitor new: create',
        '  ~ monitor db: update',
        '      port: 5432 → 5433',
        '      description: (none) → "Primary"',
        '  - status page old: delete',
        '',
        'Plan: 1 to create, 1 to update, 1 unchanged, 0 to detach, 1 to delete, 0 skipped; 0 drifted. (removed resources are detached; --prune deletes them)',
        'Plan token: v1.abc',
        '',
      ].join('\n'),
    );
  });

  it('colours creates green, updates yellow and deletions red on a terminal', () => {
    const text = describePlan(plan, painter(true));
    expect(text).toContain('\u001b[32m  + monitor new: create\u001b[0m');
    expect(text).toContain('\u001b[33m  ~ monitor db: update\u001b[0m');
    expect(text).toContain('\u001b[31m  - status page old: delete\u001b[0m');
  });
});
