import { ApiKey, ApiKeyCreated, type Role } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/crypto.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { expectProblem, json, jsonAs, sessionFor } from './helpers.js';

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

describe.each(engines)('API keys on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t?.stop());

  /** Creates a key through the API as `as` (the owner's key by default). */
  async function createKey(
    role: Role,
    as: Record<string, string> = t.owner.headers,
    extra: Record<string, unknown> = {},
  ) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      ...jsonAs(as, { name: `${role} key`, role, ...extra }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return ApiKeyCreated.parse(res.json());
  }

  const listKeys = async (as: Record<string, string> = t.owner.headers) => {
    const res = await t.inject({ url: '/api/v1/api-keys', headers: as });
    expect(res.statusCode).toBe(200);
    return {
      body: res.body,
      items: res.json<{ items: unknown[] }>().items.map((k) => ApiKey.parse(k)),
    };
  };
  const monitors = (secret: string) =>
    t.inject({ url: '/api/v1/monitors', headers: bearer(secret) });
  const createMonitor = (headers: Record<string, string>) =>
    t.inject({ method: 'POST', url: '/api/v1/monitors', ...jsonAs(headers, monitorInput()) });

  it('is pw_ and at least 32 base62 characters, shown once, stored only as a hash', async () => {
    const a = await createKey('viewer');
    const b = await createKey('viewer');
    for (const k of [a, b]) {
      expect(k.secret).toMatch(/^pw_[0-9A-Za-z]{32,}$/);
      expect(k.secret.startsWith(k.apiKey.prefix)).toBe(true);
      expect(k.apiKey.prefix.length).toBeLessThan(k.secret.length / 2);
    }
    expect(a.secret).not.toBe(b.secret);
    expect((await monitors(a.secret)).statusCode).toBe(200);
    const { body, items } = await listKeys();
    expect(items.map((k) => k.id)).toContain(a.apiKey.id);
    expect(body).not.toContain(a.secret);
    expect(body).not.toContain(b.secret);
    const rows = await t.database.db.selectFrom('api_keys').selectAll().execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(a.secret);
    expect(stored).not.toContain(b.secret);
    expect(stored).toContain(sha256(a.secret));
  });

  it("a viewer's key cannot create a monitor", async () => {
    const viewer = await t.identity('viewer');
    expectProblem(await createMonitor(viewer.headers), 403, 'forbidden');
    // Nor can a viewer-role key of the owner: a key acts with its own role.
    const ownersViewerKey = await createKey('viewer');
    expectProblem(await createMonitor(bearer(ownersViewerKey.secret)), 403, 'forbidden');
  });

  it("cannot be created with a role above its creator's", async () => {
    const viewer = await t.identity('viewer');
    const editor = await t.identity('editor');
    const editorSession = await sessionFor(t, editor.userId);
    const ownersViewerKey = await createKey('viewer');
    const cases: [Record<string, string>, Role][] = [
      [viewer.headers, 'editor'],
      [editorSession.headers, 'admin'],
      [editorSession.headers, 'owner'],
      // A key cannot mint a stronger key either, though its creator could.
      [bearer(ownersViewerKey.secret), 'editor'],
    ];
    for (const [as, role] of cases) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        ...jsonAs(as, { name: 'too strong', role }),
      });
      const problem = expectProblem(res, 400, 'validation_failed');
      expect(problem.errors?.map((e) => e.path)).toEqual(['role']);
    }
    // Up to one's own role is fine.
    await createKey('editor', editorSession.headers);
  });

  it('an expired key is refused', async () => {
    const k = await createKey('viewer');
    await t.database.db
      .updateTable('api_keys')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', k.apiKey.id)
      .execute();
    expectProblem(await monitors(k.secret), 401, 'unauthenticated');
    // An expiry in the past cannot even be asked for; one in the future works until then.
    const past = await t.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      ...json({
        name: 'stale',
        role: 'viewer',
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      }),
    });
    expect(expectProblem(past, 400, 'validation_failed').errors?.map((e) => e.path)).toEqual([
      'expiresAt',
    ]);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const later = await createKey('viewer', t.owner.headers, { expiresAt: until });
    expect(later.apiKey.expiresAt).toBe(until);
    expect((await monitors(later.secret)).statusCode).toBe(200);
  });

  it('a revoked key is refused at once, even right after it was used', async () => {
    const k = await createKey('viewer');
    expect((await monitors(k.secret)).statusCode).toBe(200);
    const del = await t.inject({ method: 'DELETE', url: `/api/v1/api-keys/${k.apiKey.id}` });
    expect(del.statusCode).toBe(204);
    expectProblem(await monitors(k.secret), 401, 'unauthenticated');
    expect((await listKeys()).items.map((x) => x.id)).not.toContain(k.apiKey.id);
    expectProblem(
      await t.inject({ method: 'DELETE', url: `/api/v1/api-keys/${k.apiKey.id}` }),
      404,
      'not_found',
    );
  });

  it("a disabled creator's key stops working", async () => {
    const editor = await t.identity('editor');
    expect((await t.inject({ url: '/api/v1/monitors', headers: editor.headers })).statusCode).toBe(
      200,
    );
    const res = await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${editor.userId}`,
      ...json({ disabled: true }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expectProblem(
      await t.inject({ url: '/api/v1/monitors', headers: editor.headers }),
      401,
      'unauthenticated',
    );
  });

  it("a demoted creator lowers the key's effective role", async () => {
    const editor = await t.identity('editor');
    expect((await createMonitor(editor.headers)).statusCode).toBe(201);
    const res = await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${editor.userId}`,
      ...json({ role: 'viewer' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expectProblem(await createMonitor(editor.headers), 403, 'forbidden');
    expect((await t.inject({ url: '/api/v1/monitors', headers: editor.headers })).statusCode).toBe(
      200,
    );
    // An admin's admin key loses the user list when its creator becomes an editor.
    const admin = await t.identity('admin');
    expect((await t.inject({ url: '/api/v1/users', headers: admin.headers })).statusCode).toBe(200);
    await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${admin.userId}`,
      ...json({ role: 'editor' }),
    });
    expectProblem(
      await t.inject({ url: '/api/v1/users', headers: admin.headers }),
      403,
      'forbidden',
    );
  });

  it('records when a key was last used', async () => {
    const k = await createKey('viewer');
    const before = (await listKeys()).items.find((x) => x.id === k.apiKey.id);
    expect(before?.lastUsedAt).toBeNull();
    const start = Date.now();
    expect((await monitors(k.secret)).statusCode).toBe(200);
    const after = (await listKeys()).items.find((x) => x.id === k.apiKey.id);
    expect(after?.lastUsedAt).not.toBeNull();
    expect(Date.parse(after!.lastUsedAt!)).toBeGreaterThanOrEqual(start - 1000);
  });

  it("people see and revoke only their own keys; admins reach everyone's", async () => {
    const viewer = await t.identity('viewer');
    const admin = await t.identity('admin');
    const ownerKey = await createKey('viewer');
    const viewerKey = await createKey('viewer', viewer.headers);
    const seen = (await listKeys(viewer.headers)).items;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((k) => k.createdBy.id === viewer.userId)).toBe(true);
    expectProblem(
      await t.inject({
        method: 'DELETE',
        url: `/api/v1/api-keys/${ownerKey.apiKey.id}`,
        headers: viewer.headers,
      }),
      404,
      'not_found',
    );
    expect((await monitors(ownerKey.secret)).statusCode).toBe(200);
    expect((await listKeys(admin.headers)).items.map((k) => k.id)).toContain(viewerKey.apiKey.id);
    const revoked = await t.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${viewerKey.apiKey.id}`,
      headers: admin.headers,
    });
    expect(revoked.statusCode).toBe(204);
    expectProblem(await monitors(viewerKey.secret), 401, 'unauthenticated');
  });

  it("admins cannot revoke an owner's key (SPEC §6: admins manage others, not owners)", async () => {
    const admin = await t.identity('admin');
    const ownerKey = await createKey('viewer');
    expectProblem(
      await t.inject({
        method: 'DELETE',
        url: `/api/v1/api-keys/${ownerKey.apiKey.id}`,
        headers: admin.headers,
      }),
      403,
      'forbidden',
    );
    expect((await monitors(ownerKey.secret)).statusCode).toBe(200);
    // Another admin's key is theirs to revoke; the owner can revoke any.
    const other = await t.identity('admin');
    const otherKey = await createKey('viewer', other.headers);
    const byAdmin = await t.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${otherKey.apiKey.id}`,
      headers: admin.headers,
    });
    expect(byAdmin.statusCode).toBe(204);
    const byOwner = await t.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${ownerKey.apiKey.id}`,
    });
    expect(byOwner.statusCode).toBe(204);
  });
});
