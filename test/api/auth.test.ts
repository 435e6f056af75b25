import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { countRows, startApp, type TestApp } from '../helpers/app.js';
import { KEYS, callBody } from '../helpers/workspace.js';

/** Every protected operation, with a body that would succeed given the right key. */
const OPERATIONS = [
  { name: 'POST /v1/calls', method: 'POST', path: '/v1/calls', body: () => callBody() },
  {
    name: 'GET /v1/calls/{id}',
    method: 'GET',
    path: '/v1/calls/00000000-0000-4000-8000-000000000000',
    body: () => undefined,
  },
  {
    name: 'POST /v1/recordings',
    method: 'POST',
    path: '/v1/recordings',
    body: () => ({ content_type: 'audio/mpeg', size_bytes: 10 }),
  },
] as const;

describeEachDialect('authentication on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(async () => t?.close());

  describe.each(OPERATIONS)('$name', (op) => {
    it.each([
      ['no header', null, undefined, 401, 'invalid_api_key'],
      ['not Bearer', null, 'Basic abc', 401, 'invalid_api_key'],
      ['malformed key', null, 'Bearer sk_live_123', 401, 'invalid_api_key'],
      ['unknown key', KEYS.unknown, undefined, 401, 'invalid_api_key'],
      ['revoked key', KEYS.revoked, undefined, 401, 'api_key_revoked'],
      ['key of an inactive admin', KEYS.ownerInactive, undefined, 401, 'api_key_owner_inactive'],
      ['suspended account', KEYS.suspended, undefined, 403, 'account_suspended'],
      ['unpaid account', KEYS.unpaid, undefined, 403, 'payment_required'],
      ['account without the feature', KEYS.noFeature, undefined, 403, 'feature_not_enabled'],
    ])('%s → %i %s', async (_name, key, authorization, status, code) => {
      const before = await countRows(t.deps);
      const res = await t.api(op.method, op.path, {
        key: authorization ? null : key,
        headers: authorization ? { authorization } : {},
        body: op.body(),
      });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
      expect(await countRows(t.deps)).toEqual(before);
    });
  });

  it('enforces scopes: calls:write, calls:read, recordings:write', async () => {
    const write = await t.api('POST', '/v1/calls', { key: KEYS.readOnly, body: callBody() });
    expect([write.status, write.body.error.code]).toEqual([403, 'insufficient_scope']);
    const rec = await t.api('POST', '/v1/recordings', {
      key: KEYS.callsOnly,
      body: { content_type: 'audio/mpeg', size_bytes: 10 },
    });
    expect([rec.status, rec.body.error.code]).toEqual([403, 'insufficient_scope']);
    const read = await t.api('GET', '/v1/calls/00000000-0000-4000-8000-000000000000', {
      key: KEYS.callsOnly,
    });
    expect([read.status, read.body.error.code]).toEqual([403, 'insufficient_scope']);
    const readOk = await t.api('GET', '/v1/calls/00000000-0000-4000-8000-000000000000', {
      key: KEYS.readOnly,
    });
    expect([readOk.status, readOk.body.error.code]).toEqual([404, 'not_found']);
  });

  it('stores keys only as digests', async () => {
    const rows = await t.deps.store.db.selectFrom('api_keys').select(['digest', 'prefix']).execute();
    for (const row of rows) {
      expect(row.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.values(KEYS)).not.toContain(row.digest);
      expect(row.prefix.length).toBeLessThan(20);
    }
  });

  it('a rotated key keeps working until its grace period ends, then answers api_key_revoked', async () => {
    const db = t.deps.store.db;
    const key = await db
      .selectFrom('api_keys')
      .select('id')
      .where('team_id', 'in', db.selectFrom('teams').select('id').where('name', '=', 'East'))
      .executeTakeFirstOrThrow();
    await db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', key.id)
      .execute();
    expect(
      (await t.api('GET', '/v1/calls/00000000-0000-4000-8000-000000000000', { key: KEYS.east })).status,
    ).toBe(404);
    await db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', key.id)
      .execute();
    const res = await t.api('GET', '/v1/calls/00000000-0000-4000-8000-000000000000', { key: KEYS.east });
    expect([res.status, res.body.error.code]).toEqual([401, 'api_key_revoked']);
  });

  it('401 beats 413 and 415: the key is checked before the body', async () => {
    const big = await t.api('POST', '/v1/calls', {
      key: null,
      raw: 'x'.repeat(2 * 1024 * 1024),
      headers: { 'content-type': 'application/json' },
    });
    expect([big.status, big.body.error.code]).toEqual([401, 'invalid_api_key']);
    const text = await t.api('POST', '/v1/calls', {
      key: KEYS.revoked,
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect([text.status, text.body.error.code]).toEqual([401, 'api_key_revoked']);
  });

  it('403 beats 422: account checks come before validation', async () => {
    const res = await t.api('POST', '/v1/calls', { key: KEYS.suspended, body: { nonsense: true } });
    expect([res.status, res.body.error.code]).toEqual([403, 'account_suspended']);
  });

  it('scopes every read to the account: another account gets 404', async () => {
    const created = await t.api('POST', '/v1/calls', { body: callBody() });
    const other = await t.api('GET', `/v1/calls/${created.body.id}`, { key: KEYS.other });
    expect([other.status, other.body.error.code]).toEqual([404, 'not_found']);
  });
});
