/**
 * Scoring test fixtures: a migrated store seeded with the test workspace, and calls written through the same
 * repositories ingestion uses (call + transcript + job in one transaction).
 */
import { randomUUID } from 'node:crypto';
import { createRulesScorer } from '../../src/scoring/scorers/rules.js';
import type { Scorer } from '../../src/scoring/scorers/scorer.js';
import { createWorker, type WorkerOptions } from '../../src/scoring/worker.js';
import { parseWorkspace, seedWorkspace } from '../../src/seed/workspace.js';
import type { Dialect, Store } from '../../src/store/db.js';
import { insertCallIfAbsent, insertTranscript } from '../../src/store/calls.repo.js';
import { enqueueScoring } from '../../src/store/jobs.repo.js';
import { createTestStore } from '../helpers/databases.js';
import { SCORECARDS, TEST_WORKSPACE } from '../helpers/workspace.js';

export const T0 = new Date('2026-11-24T10:00:00.000Z');
export const at = (ms: number) => new Date(T0.getTime() + ms);

export type TestStore = Awaited<ReturnType<typeof createTestStore>>;

export async function seededStore(dialect: Dialect): Promise<TestStore> {
  const store = await createTestStore(dialect);
  await seedWorkspace(store.db, parseWorkspace(structuredClone(TEST_WORKSPACE)));
  return store;
}

export const REP = 'Bob Stone';

/** A dialogue long enough to score (4 rep turns, > 40 rep words) that says "next step". */
export function longTurns() {
  const t = (speaker: string, text: string, start_ms: number) => ({ speaker, text, start_ms });
  return [
    t('Carla Diaz', 'Hi, thanks for making time today.', 0),
    t(REP, 'Of course. Could you walk me through how your team handles renewals today, end to end?', 4000),
    t('Carla Diaz', 'Mostly spreadsheets, and we lose track of dates.', 9000),
    t(
      REP,
      'What does a missed renewal cost you in a typical quarter, roughly, and who notices first?',
      15000,
    ),
    t('Carla Diaz', 'Our finance lead, usually too late.', 21000),
    t(
      REP,
      'That makes sense. Many teams we work with had exactly that problem before switching over.',
      26000,
    ),
    t(
      REP,
      'As a next step I will send a calendar invite for a demo with your finance lead next week.',
      31000,
    ),
  ];
}

/** Two short rep turns: too_short under the defaults. */
export function shortTurns() {
  return [
    { speaker: 'Carla Diaz', text: 'Hello there.', start_ms: 0 },
    { speaker: REP, text: 'Hi, next step is a demo.', start_ms: 1000 },
  ];
}

interface Owner {
  accountId: string;
  teamId: string;
  userId: string;
  scorecardId: string;
}

/** Acme/West/Bob with the Discovery scorecard, or the Other account's admin with its card. */
export async function owner(store: Store, account: 'Acme' | 'Other' = 'Acme'): Promise<Owner> {
  const db = store.db;
  const acc = await db
    .selectFrom('accounts')
    .select('id')
    .where('name', '=', account)
    .executeTakeFirstOrThrow();
  const email = account === 'Acme' ? 'bob.stone@acme.test' : 'admin@other.test';
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', acc.id)
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const team = await db
    .selectFrom('team_members')
    .select('team_id')
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow();
  return {
    accountId: acc.id,
    teamId: team.team_id,
    userId: user.id,
    scorecardId: account === 'Acme' ? SCORECARDS.discovery : SCORECARDS.otherAccount,
  };
}

export interface AddCallOptions {
  account?: 'Acme' | 'Other';
  turns?: { speaker: string; text: string; start_ms: number | null }[];
  scorecardId?: string | null;
  /** Enqueue time (available_at); a minute before T0 by default. */
  enqueuedAt?: Date;
  repSpeaker?: string;
}

/** Writes a queued call, its transcript and its job in one transaction, as ingestion does. */
export async function addCall(store: Store, options: AddCallOptions = {}): Promise<string> {
  const o = await owner(store, options.account);
  const id = randomUUID();
  const when = (options.enqueuedAt ?? at(-60_000)).toISOString();
  await store.db.transaction().execute(async (tx) => {
    await insertCallIfAbsent(tx, {
      id,
      account_id: o.accountId,
      team_id: o.teamId,
      rep_user_id: o.userId,
      ingest_rep_user_id: o.userId,
      provider: null,
      external_id: null,
      fingerprint: randomUUID(),
      status: 'queued',
      skip_reason: null,
      call_type: 'discovery',
      scorecard_id: options.scorecardId === undefined ? o.scorecardId : options.scorecardId,
      title: 'Call with Carla',
      rep_speaker: options.repSpeaker ?? REP,
      speaker_source: 'rep_speaker',
      rep_source: 'rep_email',
      speaker_confidence: null,
      recording_id: null,
      api_key_id: null,
      occurred_at: when,
      created_at: when,
      updated_at: when,
    });
    await insertTranscript(tx, {
      call_id: id,
      turns: JSON.stringify(options.turns ?? longTurns()),
      participants: null,
      metadata: null,
      speaker_signals: null,
    });
    await enqueueScoring(tx, id, o.accountId, when);
  });
  return id;
}

export async function callRow(store: Store, id: string) {
  return store.db
    .selectFrom('calls')
    .select(['status', 'skip_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export async function jobRow(store: Store, callId: string) {
  return store.db
    .selectFrom('scoring_jobs')
    .selectAll()
    .where('call_id', '=', callId)
    .orderBy('fencing_token', 'desc')
    .executeTakeFirstOrThrow();
}

export const silentLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** A controllable clock. */
export function clock(start: Date = T0) {
  let current = start;
  return {
    now: () => current,
    set(ms: number) {
      current = at(ms);
    },
  };
}

/**
 * The real rules scorer behind a gate, standing in for a slow scorer (the LLM one takes seconds): scoring starts,
 * then waits until the test opens the gate.
 */
export function gatedScorer(): { scorer: Scorer; open(): void; entered: Promise<void> } {
  const rules = createRulesScorer();
  let open!: () => void;
  let enter!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const entered = new Promise<void>((resolve) => (enter = resolve));
  return {
    scorer: {
      name: rules.name,
      async scoreCriteria(input) {
        enter();
        await gate;
        return rules.scoreCriteria(input);
      },
    },
    open,
    entered,
  };
}

export function testWorker(store: Store, options: Partial<WorkerOptions> = {}) {
  return createWorker({
    store,
    scorer: createRulesScorer(),
    config: { skipMinRepTurns: 3, skipMinRepWords: 40 },
    logger: silentLogger,
    now: () => T0,
    ...options,
  });
}
