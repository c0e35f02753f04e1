import { describe, expect, it } from 'vitest';
import { countActiveOwners, userControls } from './user-rules';

const owner = { id: 1, role: 'owner' as const };
const admin = { id: 2, role: 'admin' as const };

describe('what a manager may do to an account', () => {
  it('leaves your own account to the Account screen', () => {
    const c = userControls(owner, { id: 1, role: 'owner', disabled: false }, 2);
    expect(c.locked).toMatch(/this is you/i);
    expect(c.canChangeRole || c.canDisable || c.canResetPassword).toBe(false);
  });

  it('keeps admins away from owners', () => {
    const c = userControls(admin, { id: 3, role: 'owner', disabled: false }, 2);
    expect(c.locked).toBe('Only an owner can change an owner');
  });

  it('offers roles up to your own', () => {
    expect(userControls(admin, { id: 3, role: 'viewer', disabled: false }, 1).roleOptions).toEqual([
      'viewer',
      'editor',
      'admin',
    ]);
    expect(userControls(owner, { id: 3, role: 'viewer', disabled: false }, 1).roleOptions).toEqual([
      'viewer',
      'editor',
      'admin',
      'owner',
    ]);
  });

  it('keeps the last active owner an active owner, but lets their password be reset', () => {
    const c = userControls(owner, { id: 3, role: 'owner', disabled: false }, 1);
    expect(c).toMatchObject({ canChangeRole: false, canDisable: false, canResetPassword: true });
    expect(c.limited).toMatch(/last owner/i);
    // A disabled owner is not the last active one: enabling them is fine.
    expect(userControls(owner, { id: 3, role: 'owner', disabled: true }, 1).canDisable).toBe(true);
  });

  it('counts only active owners', () => {
    expect(
      countActiveOwners([
        { role: 'owner', disabled: false },
        { role: 'owner', disabled: true },
        { role: 'admin', disabled: false },
      ]),
    ).toBe(1);
  });
});
