import { describe, expect, it } from 'vitest';
import { loginPath, safeNext } from './next-path';

describe('where sign-in leads', () => {
  it('keeps a path on this site with its query and hash', () => {
    expect(safeNext('/monitors/4?window=7d#checks')).toBe('/monitors/4?window=7d#checks');
    expect(safeNext('/settings/users')).toBe('/settings/users');
  });

  it('refuses other origins and odd forms, falling back to the dashboard', () => {
    for (const bad of [
      null,
      '',
      'monitors',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
    ]) {
      expect(safeNext(bad)).toBe('/');
    }
  });

  it('never leads back to the sign-in screens', () => {
    expect(safeNext('/login?next=/x')).toBe('/');
    expect(safeNext('/setup')).toBe('/');
  });

  it('remembers where the person was, except the dashboard', () => {
    expect(loginPath({ pathname: '/', search: '', hash: '' })).toBe('/login');
    expect(loginPath({ pathname: '/monitors/3', search: '?w=1', hash: '' })).toBe(
      '/login?next=%2Fmonitors%2F3%3Fw%3D1',
    );
  });
});
