import { describe, expect, it } from 'vitest';
import { domainAllowed, mappedRole, readPerson } from '../../src/domain/oidc/claims.js';
import { safeReturnTo } from '../../src/services/oidc/flow.js';

const names = { emailClaim: 'email', nameClaim: 'name', groupsClaim: 'groups' };

describe('reading a person out of OIDC claims', () => {
  it('reads email (lower-cased), verification, name and groups', () => {
    expect(
      readPerson(
        {
          sub: 's1',
          email: 'Ana@Example.COM',
          email_verified: true,
          name: ' Ana ',
          groups: ['ops', 7],
        },
        names,
      ),
    ).toEqual({
      subject: 's1',
      email: 'ana@example.com',
      emailVerified: true,
      name: 'Ana',
      groups: ['ops'],
    });
  });

  it('reaches nested claims by a dotted name and takes a single group as a list', () => {
    const p = readPerson(
      { sub: 's2', mail: 'b@example.com', realm_access: { roles: 'admins' } },
      { emailClaim: 'mail', nameClaim: 'name', groupsClaim: 'realm_access.roles' },
    );
    expect(p).toMatchObject({ groups: ['admins'], name: 'b', emailVerified: false });
  });

  it('refuses a missing email claim; only true (or "true") verifies', () => {
    expect(readPerson({ sub: 's3' }, names)).toEqual({ refused: 'oidc_email_missing' });
    expect(readPerson({ sub: 's3', email: 'no-at-sign' }, names)).toEqual({
      refused: 'oidc_email_missing',
    });
    for (const v of ['true', true]) {
      expect(readPerson({ sub: 's', email: 'a@b.co', email_verified: v }, names)).toMatchObject({
        emailVerified: true,
      });
    }
    for (const v of ['yes', 1, false, undefined]) {
      expect(readPerson({ sub: 's', email: 'a@b.co', email_verified: v }, names)).toMatchObject({
        emailVerified: false,
      });
    }
  });
});

describe('domains and roles', () => {
  it('allows any domain when none is listed, else exactly the listed ones', () => {
    expect(domainAllowed('a@example.com', [])).toBe(true);
    expect(domainAllowed('a@example.com', ['example.com'])).toBe(true);
    expect(domainAllowed('a@sub.example.com', ['example.com'])).toBe(false);
    expect(domainAllowed('a@example.com.evil.org', ['example.com'])).toBe(false);
  });

  it('maps to the highest matching role, the default when none matches, nothing without mappings', () => {
    const mappings = [
      { value: 'dev', role: 'editor' as const },
      { value: 'ops', role: 'admin' as const },
    ];
    expect(mappedRole(['dev', 'ops'], mappings, 'viewer')).toBe('admin');
    expect(mappedRole(['dev'], mappings, 'viewer')).toBe('editor');
    expect(mappedRole(['sales'], mappings, 'viewer')).toBe('viewer');
    // A match below the default still decides: the mapping says what the group is worth.
    expect(mappedRole(['dev'], mappings, 'admin')).toBe('editor');
    expect(mappedRole(['ops'], [], 'viewer')).toBeNull();
  });
});

describe('where a sign-in returns to', () => {
  it('keeps paths of this app and refuses anything that leaves it', () => {
    expect(safeReturnTo('/monitors?x=1')).toBe('/monitors?x=1');
    for (const bad of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example',
      'monitors',
      '/a\nb',
      undefined,
    ]) {
      expect(safeReturnTo(bad)).toBe('/');
    }
  });
});
