import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRulesScorer } from '../../src/scoring/scorers/rules.js';
import { createWorker } from '../../src/scoring/worker.js';
import { currentResult } from '../../src/store/results.repo.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { callBody, SCORECARDS } from '../helpers/workspace.js';
import { longTurns, silentLogger } from './fixtures.js';

describeEachDialect('a call posted through the API gets scored on %s', (dialect) => {
  let t: TestApp;
  const worker = () =>
    createWorker({
      store: t.deps.store,
      scorer: createRulesScorer(),
      config: t.deps.config,
      logger: silentLogger,
    });

  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(async () => t?.close());

  async function post(body: Record<string, unknown>): Promise<string> {
    const res = await t.api('POST', '/v1/calls', { body });
    expect(res.status).toBe(202);
    return res.body.id;
  }

  it('queued → scored, visible in GET /v1/calls/{id}, with a current result', async () => {
    const id = await post(callBody({ transcript: { segments: longTurns() } }));
    expect((await t.api('GET', `/v1/calls/${id}`)).body).toMatchObject({
      status: 'queued',
      skip_reason: null,
    });
    expect(await worker().runOnce()).toMatchObject({ callId: id, outcome: 'scored' });
    const res = await t.api('GET', `/v1/calls/${id}`);
    expect(res.body).toMatchObject({ id, status: 'scored', skip_reason: null });
    // Scores never appear in the API.
    expect(res.text).not.toContain('next_steps');
    expect((await currentResult(t.deps.store.db, id))?.scorecard_id).toBe(SCORECARDS.discovery);
  });

  it('too_short reaches the API as skipped', async () => {
    const id = await post(callBody()); // two rep turns
    expect(await worker().runOnce()).toMatchObject({
      callId: id,
      outcome: 'skipped',
      skipReason: 'too_short',
    });
    expect((await t.api('GET', `/v1/calls/${id}`)).body).toMatchObject({
      status: 'skipped',
      skip_reason: 'too_short',
    });
  });

  it('no_scorecard when the chosen scorecard was archived before scoring', async () => {
    const id = await post(
      callBody({
        call_type: 'negotiation',
        transcript: { segments: longTurns().map((s) => ({ ...s, text: `${s.text} Okay.` })) },
      }),
    );
    const row = await t.deps.store.db
      .selectFrom('calls')
      .select('scorecard_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.scorecard_id).toBe(SCORECARDS.negotiation);
    await t.deps.store.db
      .updateTable('scorecards')
      .set({ status: 'archived' })
      .where('id', '=', SCORECARDS.negotiation)
      .execute();
    expect(await worker().runOnce()).toMatchObject({
      callId: id,
      outcome: 'skipped',
      skipReason: 'no_scorecard',
    });
    expect((await t.api('GET', `/v1/calls/${id}`)).body).toMatchObject({
      status: 'skipped',
      skip_reason: 'no_scorecard',
    });
  });
});
