import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { KEYS, callBody } from '../helpers/workspace.js';

describeEachDialect('GET /v1/calls/{id} on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(async () => t?.close());

  it('returns every field of the Call object and nothing more', async () => {
    const body = callBody({
      metadata: { crm: 'opp-1' },
      participants: [{ role: 'customer', name: 'Carla Diaz' }],
    });
    const created = await t.api('POST', '/v1/calls', { body });
    const res = await t.api('GET', `/v1/calls/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: created.body.id,
      object: 'call',
      external_id: body.external_id,
      provider: 'zoom',
      status: 'queued',
      skip_reason: null,
      rep: { email: 'bob.stone@acme.test' },
      call_type: 'discovery',
      has_recording: false,
      attribution: { rep_source: 'rep_email', speaker_source: 'name_match' },
      occurred_at: '2026-11-20T15:04:05.000Z',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      app_url: `https://app.callscore.test/calls/${created.body.id}`,
    });
    expect(res.text).not.toContain('opp-1');
    expect(res.text).not.toContain('renewals');
  });

  it('accepts the id in upper case', async () => {
    const created = await t.api('POST', '/v1/calls', { body: callBody() });
    const res = await t.api('GET', `/v1/calls/${created.body.id.toUpperCase()}`);
    expect(res.status).toBe(200);
  });

  it.each([
    ['unknown id', '00000000-0000-4000-8000-000000000000'],
    ['malformed id', 'not-a-uuid'],
    ['sql-looking id', "1' OR '1'='1"],
  ])('404 not_found for %s', async (_name, id) => {
    const res = await t.api('GET', `/v1/calls/${encodeURIComponent(id)}`);
    expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
  });

  it('404 for a call of another account (never 403)', async () => {
    const created = await t.api('POST', '/v1/calls', { body: callBody() });
    const res = await t.api('GET', `/v1/calls/${created.body.id}`, { key: KEYS.other });
    expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
  });

  it('shows skip_reason only when skipped', async () => {
    const created = await t.api('POST', '/v1/calls', { body: callBody() });
    await t.deps.store.db
      .updateTable('calls')
      .set({ status: 'skipped', skip_reason: 'too_short' })
      .where('id', '=', created.body.id)
      .execute();
    const res = await t.api('GET', `/v1/calls/${created.body.id}`);
    expect([res.body.status, res.body.skip_reason]).toEqual(['skipped', 'too_short']);
  });
});
