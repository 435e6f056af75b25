/**
 * `callscore worker` as a real child process: SIGTERM lets it finish the job in hand and exit 0; a worker killed
 * with SIGKILL mid-job loses nothing — its lease expires and the next worker scores the call, once.
 * The slow scorer is the llm one against the fake chat-completions server (the one outside service we fake).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resultHistory } from '../../src/store/results.repo.js';
import { describeEachDialect } from '../helpers/databases.js';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm.js';
import { addCall, callRow, jobRow, seededStore, testWorker, type TestStore } from './fixtures.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The test workspace's Discovery card has one criterion, next_steps; turn 6 is the rep's "next step" turn. */
const modelAnswer = {
  criteria: [
    {
      key: 'next_steps',
      applicable: true,
      score: 0.75,
      rationale: 'Proposes a dated next step.',
      evidence: [{ turn_index: 6, quote: 'send a calendar invite' }],
    },
  ],
};

function startWorkerProcess(store: TestStore, fake: FakeLlm, command: 'worker' | 'serve' = 'worker') {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', command], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_NO_WARNINGS: '1',
      LOG_LEVEL: 'warn',
      DATA_DIR: store.testDb.dataDir,
      ...(store.testDb.databaseUrl ? { DATABASE_URL: store.testDb.databaseUrl } : {}),
      SCORER: 'llm',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'test-model',
      PORT: '0',
      DEMO: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeEachDialect('callscore worker process on %s', (dialect) => {
  let store: TestStore;
  let fake: FakeLlm;
  let child: ChildProcess | undefined;
  beforeEach(async () => {
    store = await seededStore(dialect);
    fake = await startFakeLlm();
  });
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fake.close();
    await store?.cleanup();
  });

  it('on SIGTERM finishes the job in hand, writes its result and exits 0', async () => {
    fake.handle(() => ({ content: modelAnswer, delayMs: 1_500 }));
    const id = await addCall(store, { enqueuedAt: new Date(Date.now() - 1_000) });
    const worker = startWorkerProcess(store, fake);
    child = worker.child;
    await waitFor('the model request', () => fake.requests.length > 0);
    expect((await callRow(store, id)).status).toBe('scoring');

    worker.child.kill('SIGTERM');
    expect(await worker.exited, worker.output()).toEqual({ code: 0, signal: null });
    expect(await callRow(store, id)).toEqual({ status: 'scored', skip_reason: null });
    expect(await jobRow(store, id)).toMatchObject({ status: 'done', attempts: 0 });
    const history = await resultHistory(store.db, id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ scorer: 'llm', score: 75, is_current: 1 });
  });

  it('killed mid-job (SIGKILL), its expired lease returns the call to the queue and the next worker scores it once', async () => {
    fake.handle(() => ({ content: modelAnswer, delayMs: 60_000 })); // the model never answers in time
    const id = await addCall(store, { enqueuedAt: new Date(Date.now() - 1_000) });
    const worker = startWorkerProcess(store, fake);
    child = worker.child;
    await waitFor('the model request', () => fake.requests.length > 0);
    const held = await jobRow(store, id);
    expect(held).toMatchObject({ status: 'running', attempts: 0 });

    worker.child.kill('SIGKILL');
    expect(await worker.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // Nothing was written and the lease still holds the job: before it expires, no worker can take it.
    expect((await callRow(store, id)).status).toBe('scoring');
    expect(await testWorker(store, { now: () => new Date() }).runOnce()).toBeNull();

    // Once the lease has expired, the next worker reaps it (an attempt counted) and scores the call.
    const afterLease = new Date(Date.parse(held.lease_until!) + 1_000);
    expect(await testWorker(store, { now: () => afterLease }).runOnce()).toMatchObject({
      callId: id,
      outcome: 'scored',
    });
    expect(await callRow(store, id)).toEqual({ status: 'scored', skip_reason: null });
    expect(await jobRow(store, id)).toMatchObject({ status: 'done', attempts: 1 });
    const history = await resultHistory(store.db, id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ scorer: 'rules', is_current: 1 });
  });
});

describe('callscore serve on sqlite', () => {
  let store: TestStore;
  let fake: FakeLlm;
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fake?.close();
    await store?.cleanup();
  });

  it('on SIGTERM releases a job whose model does not answer within the grace period, then exits 0 by itself', async () => {
    store = await seededStore('sqlite');
    fake = await startFakeLlm();
    fake.handle(() => ({ content: modelAnswer, delayMs: 60_000 }));
    const id = await addCall(store, { enqueuedAt: new Date(Date.now() - 1_000) });
    const serve = startWorkerProcess(store, fake, 'serve');
    child = serve.child;
    await waitFor('the model request', () => fake.requests.length > 0);

    serve.child.kill('SIGTERM');
    expect(await serve.exited, serve.output()).toEqual({ code: 0, signal: null });
    // Released, not left leased: the next worker takes it at once, no attempt counted.
    expect(await jobRow(store, id)).toMatchObject({ status: 'queued', attempts: 0 });
    // The scoring thread ended itself once the job was released: serve did not have to terminate it.
    expect(serve.output()).not.toContain('did not stop');
  });
});
