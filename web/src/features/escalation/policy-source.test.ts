import { describe, expect, it } from 'vitest';
import { policySource } from './policy-source';

// As the API lists them: sorted by tag in the database's order.
const list = [
  { tag: 'api', policyId: 2 },
  { tag: 'prod', policyId: 3 },
  { tag: 'web', policyId: 4 },
];

describe('policySource (ADR 61)', () => {
  it('keeps the monitor’s own policy, whatever its tags carry', () => {
    expect(policySource({ tags: ['web'], escalationPolicyId: 9 }, list)).toEqual({
      kind: 'monitor',
      policyId: 9,
      tagged: [{ tag: 'web', policyId: 4 }],
    });
  });

  it('takes the tag that sorts first, not the one typed first', () => {
    expect(policySource({ tags: ['web', 'prod', 'eu'], escalationPolicyId: null }, list)).toEqual({
      kind: 'tag',
      policyId: 3,
      tag: 'prod',
      tagged: [
        { tag: 'prod', policyId: 3 },
        { tag: 'web', policyId: 4 },
      ],
    });
  });

  it('is none without an own policy or a tag that carries one', () => {
    expect(policySource({ tags: ['eu'], escalationPolicyId: null }, list)).toEqual({
      kind: 'none',
    });
    expect(policySource({ tags: [], escalationPolicyId: null }, [])).toEqual({ kind: 'none' });
  });
});
