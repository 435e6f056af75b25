/**
 * Step 13's write (storeIngestedCall) on every executor: SQLite in the API process (the writer thread), SQLite
 * elsewhere and PostgreSQL (a Kysely transaction). A taken key or recording must leave nothing behind.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseWorkspace, seedWorkspace } from '../src/seed/workspace.js';
import { storeIngestedCall, type IngestWrite } from '../src/store/ingest.repo.js';
import { insertRecording } from '../src/store/recordings.repo.js';
import { createTestStore, DIALECTS } from './helpers/databases.js';
import { TEST_WORKSPACE } from './helpers/workspace.js';
import { owner, T0 } from './scoring/fixtures.js';

const EXECUTORS = [
  { name: 'sqlite with the writer thread', dialect: 'sqlite', apiThreads: true },
  ...DIALECTS.map((dialect) => ({ name: dialect, dialect, apiThreads: false })),
] as const;

describe.each(EXECUTORS)('storeIngestedCall on $name', ({ dialect, apiThreads }) => {
  let store: Awaited<ReturnType<typeof createTestStore>>;
  afterEach(async () => store?.cleanup());

  async function setup() {
    store = await createTestStore(dialect, { apiThreads });
    expect(Boolean(store.writer)).toBe(apiThreads);
    await seedWorkspace(store.db, parseWorkspace(structuredClone(TEST_WORKSPACE)));
    return owner(store);
  }

  function write(
    o: Awaited<ReturnType<typeof owner>>,
    overrides: { externalId?: string; recordingId?: string },
  ) {
    const now = T0.toISOString();
    const id = randomUUID();
    return {
      call: {
        id,
        account_id: o.accountId,
        team_id: o.teamId,
        rep_user_id: o.userId,
        ingest_rep_user_id: o.userId,
        provider: 'zoom',
        external_id: overrides.externalId ?? randomUUID(),
        fingerprint: randomUUID(),
        status: 'queued',
        skip_reason: null,
        call_type: 'discovery',
        scorecard_id: o.scorecardId,
        title: 'Call',
        rep_speaker: 'Bob Stone',
        speaker_source: 'rep_speaker',
        rep_source: 'rep_email',
        speaker_confidence: null,
        recording_id: overrides.recordingId ?? null,
        api_key_id: null,
        occurred_at: now,
        created_at: now,
        updated_at: now,
      },
      transcript: { call_id: id, turns: '[]', participants: null, metadata: null, speaker_signals: null },
      recordingId: overrides.recordingId ?? null,
      now,
    } as IngestWrite;
  }

  async function counts() {
    const n = async (table: 'calls' | 'call_transcripts' | 'scoring_jobs') =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return [await n('calls'), await n('call_transcripts'), await n('scoring_jobs')];
  }

  it('stores the call, its transcript and its job, and a taken external id stores nothing', async () => {
    const o = await setup();
    expect(await storeIngestedCall(store, write(o, { externalId: 'x-1' }))).toBe('inserted');
    expect(await counts()).toEqual([1, 1, 1]);
    expect(await storeIngestedCall(store, write(o, { externalId: 'x-1' }))).toBe('taken');
    expect(await counts()).toEqual([1, 1, 1]);
  });

  it('a recording another call took undoes the whole write', async () => {
    const o = await setup();
    const now = T0.toISOString();
    await insertRecording(store.db, {
      id: 'rec_1',
      account_id: o.accountId,
      api_key_id: null,
      content_type: 'audio/mpeg',
      size_bytes: 3,
      filename: null,
      storage_key: 'rec_1',
      status: 'uploaded',
      call_id: null,
      expires_at: now,
      uploaded_at: now,
      created_at: now,
    });
    const first = write(o, { recordingId: 'rec_1' });
    expect(await storeIngestedCall(store, first)).toBe('inserted');
    expect(await storeIngestedCall(store, write(o, { recordingId: 'rec_1' }))).toBe('recording_taken');
    expect(await counts()).toEqual([1, 1, 1]);
    const recording = await store.db.selectFrom('recordings').select('call_id').executeTakeFirstOrThrow();
    expect(recording.call_id).toBe(first.call.id);
  });

  it('passes a database error on with its code', async () => {
    const o = await setup();
    const bad = write(o, {});
    bad.call.team_id = 'no-such-team';
    await expect(storeIngestedCall(store, bad)).rejects.toMatchObject({ code: expect.any(String) });
    expect(await counts()).toEqual([0, 0, 0]);
  });
});
