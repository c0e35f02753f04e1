import { atLeast as contractAtLeast, roles } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { aRole, atLeast, describeRole, rolesUpTo } from './roles';

describe('roles in the web app', () => {
  it('rank exactly as the contract does (the app keeps its own copy to stay free of zod)', () => {
    for (const a of roles) for (const b of roles) expect(atLeast(a, b)).toBe(contractAtLeast(a, b));
  });

  it('offers roles up to your own', () => {
    expect(rolesUpTo('editor')).toEqual(['viewer', 'editor']);
    expect(rolesUpTo('owner')).toEqual(['viewer', 'editor', 'admin', 'owner']);
  });

  it('speaks of roles in plain words', () => {
    expect(aRole('viewer')).toBe('a viewer');
    expect(aRole('admin')).toBe('an admin');
    expect(describeRole('editor')).toBe('An editor can also create, edit and pause monitors.');
  });
});
