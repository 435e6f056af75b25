/**
 * `npx tsx bench/scoring.ts` (after `npm run build`): the scoring side, two measurements.
 *
 * (a) Throughput of ONE scoring worker (claim with lease → read call, transcript, scorecard → rules scorer → fenced
 *     write) over ~500 queued calls of 300 turns on a temp SQLite DATA_DIR, against the bare `scoreCall` over the
 *     same transcripts with no database, measured in the same run. Target: >= 200 calls/s.
 * (b) End to end through a real `callscore serve` (WORKER=inline): POST /v1/calls at a steady rate, then poll
 *     GET /v1/calls/{id} every 50 ms (a bench, not a client: the spec's polling advice is for clients) and time
 *     202 → `scored`. Target: p99 < 2 s.
 *
 * Machines are noisy: read the ratio, and the latencies against their targets.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/container.js';
import type { Turn } from '../src/ingest/transcript.js';
import { scoreCall } from '../src/scoring/score-call.js';
import { createRulesScorer } from '../src/scoring/scorers/rules.js';
import { SCORECARD_TEMPLATES } from '../src/scoring/templates.js';
import { createWorker } from '../src/scoring/worker.js';
import { parseWorkspace, seedWorkspace } from '../src/seed/workspace.js';
import { insertCallIfAbsent, insertTranscript } from '../src/store/calls.repo.js';
import { enqueueScoring } from '../src/store/jobs.repo.js';
import { bodyTemplate } from './transcripts.js';
import { percentile, root, startServer } from './server.js';

const KEY = 'svc_sk_bench_key_000000000000000000';
const CALLS = Number(process.env.BENCH_SCORING_CALLS ?? 500);
const RATE = Number(process.env.BENCH_E2E_RATE ?? 2);
const E2E_SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 20);
const POLL_MS = 50;
const PORT = 18_082;

/** The bench workspace with the Discovery template (several check types) as the team's default scorecard. */
function workspace() {
  const discovery = SCORECARD_TEMPLATES.find((t) => t.key === 'discovery') ?? SCORECARD_TEMPLATES[0]!;
  const file = JSON.parse(fs.readFileSync(path.join(root, 'bench/workspace.json'), 'utf8'));
  file.accounts[0].scorecards = [{ team: 'Load', name: 'Discovery', criteria: discovery.criteria }];
  return { file, criteria: discovery.criteria };
}

/** The 300-segment synthetic call of bench/transcripts.ts, made unique per call. */
function transcripts(count: number): { turns: Turn[]; repLabel: string }[] {
  const template = bodyTemplate('typical');
  return Array.from({ length: count }, (_, i) => {
    const body = JSON.parse(template.json.replaceAll('__UNIQ__', `s${i}`));
    const turns: Turn[] = body.transcript.segments.map(
      (s: { speaker: string; text: string; start_ms: number }) => ({
        speaker: s.speaker,
        text: s.text,
        start_ms: s.start_ms,
      }),
    );
    return { turns, repLabel: body.transcript.rep_speaker as string };
  });
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function throughput() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-bench-scoring-'));
  const config = loadConfig({ DATA_DIR: dataDir, DEMO: 'false', WORKER: 'off' });
  const store = await openStore(config);
  try {
    const { file, criteria } = workspace();
    await seedWorkspace(store.db, parseWorkspace(file));
    const db = store.db;
    const account = await db
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', 'Bench')
      .executeTakeFirstOrThrow();
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'rep@bench.test')
      .executeTakeFirstOrThrow();
    const team = await db
      .selectFrom('teams')
      .select('id')
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    const card = await db
      .selectFrom('scorecards')
      .select('id')
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();

    const calls = transcripts(CALLS);
    console.error(
      `▶ (a) queueing ${CALLS} calls of ${calls[0]!.turns.length} turns, ${criteria.length} criteria…`,
    );
    const when = new Date(Date.now() - 60_000).toISOString();
    for (const call of calls) {
      const id = randomUUID();
      await db.transaction().execute(async (tx) => {
        await insertCallIfAbsent(tx, {
          id,
          account_id: account.id,
          team_id: team.id,
          rep_user_id: user.id,
          ingest_rep_user_id: user.id,
          provider: 'bench',
          external_id: id,
          fingerprint: id,
          status: 'queued',
          skip_reason: null,
          call_type: 'discovery',
          scorecard_id: card.id,
          title: 'Bench call',
          rep_speaker: call.repLabel,
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
          turns: JSON.stringify(call.turns),
          participants: null,
          metadata: null,
          speaker_signals: null,
        });
        await enqueueScoring(tx, id, account.id, when);
      });
    }

    // Baseline: the pure scoring of the same calls, no database.
    const baselineScorer = createRulesScorer();
    const scoreAll = async () => {
      for (const call of calls) {
        const outcome = await scoreCall({
          scorecard: { status: 'published', criteria },
          turns: call.turns,
          repLabel: call.repLabel,
          callType: 'discovery',
          scorer: baselineScorer,
          minRepTurns: config.skipMinRepTurns,
          minRepWords: config.skipMinRepWords,
        });
        if (outcome.kind !== 'scored') throw new Error(`baseline: expected scored, got ${outcome.reason}`);
      }
    };
    await scoreAll(); // warm-up: JIT and the compiled-plan cache, as a running worker has them
    let start = performance.now();
    await scoreAll();
    const baselineSeconds = (performance.now() - start) / 1000;

    const worker = createWorker({
      store,
      scorer: createRulesScorer(),
      config,
      logger: { info: () => {}, warn: (f, m) => console.warn(m, f), error: (f, m) => console.error(m, f) },
    });
    const outcomes: Record<string, number> = {};
    start = performance.now();
    for (let outcome = await worker.runOnce(); outcome; outcome = await worker.runOnce()) {
      outcomes[outcome.outcome] = (outcomes[outcome.outcome] ?? 0) + 1;
    }
    const workerSeconds = (performance.now() - start) / 1000;
    if (outcomes.scored !== CALLS)
      throw new Error(`worker: expected ${CALLS} scored, got ${JSON.stringify(outcomes)}`);

    const workerRate = round1(CALLS / workerSeconds);
    const baselineRate = round1(CALLS / baselineSeconds);
    return {
      calls: CALLS,
      turns: calls[0]!.turns.length,
      criteria: criteria.length,
      workerRate,
      baselineRate,
      ratio: Math.round((workerRate / baselineRate) * 100) / 100,
      msPerCall: Math.round((workerSeconds / CALLS) * 1000 * 100) / 100,
      baselineMsPerCall: Math.round((baselineSeconds / CALLS) * 1000 * 100) / 100,
    };
  } finally {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function endToEnd() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-bench-e2e-'));
  const env = {
    DATA_DIR: dataDir,
    DEMO: 'false',
    WORKER: 'inline',
    SCORER: 'rules',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_KEY: '100000000',
    RATE_LIMIT_PER_IP: '100000000',
  };
  const workspaceFile = path.join(dataDir, 'workspace.json');
  fs.writeFileSync(workspaceFile, JSON.stringify(workspace().file));
  execFileSync(process.execPath, ['bin/callscore.js', 'seed', workspaceFile], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  const server = await startServer(['bin/callscore.js', 'serve'], env, PORT);
  const url = server.url;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };
  try {
    // Give the worker thread time to open its store before the clock starts.
    await sleep(1_000);
    const template = bodyTemplate('typical');
    const total = Math.round(RATE * E2E_SECONDS);
    console.error(
      `▶ (b) ${total} calls at ${RATE}/s through ${url} (WORKER=inline), polling every ${POLL_MS} ms…`,
    );
    const latencies: number[] = [];
    const ingestMs: number[] = [];
    const problems: string[] = [];

    const one = async (i: number) => {
      const body = template.json.replaceAll('__UNIQ__', `e2e-${process.pid}-${i}-${Date.now()}`);
      const sent = performance.now();
      const created = await fetch(`${url}/v1/calls`, { method: 'POST', headers, body });
      const accepted = performance.now();
      const json = (await created.json()) as { id?: string };
      if (created.status !== 202 || !json.id) {
        problems.push(`POST ${created.status}`);
        return;
      }
      ingestMs.push(accepted - sent);
      for (;;) {
        await sleep(POLL_MS);
        const res = await fetch(`${url}/v1/calls/${json.id}`, { headers });
        const call = (await res.json()) as { status?: string };
        if (call.status === 'scored') {
          latencies.push(performance.now() - accepted);
          return;
        }
        if (call.status !== 'queued' && call.status !== 'scoring') {
          problems.push(`status ${call.status}`);
          return;
        }
        if (performance.now() - accepted > 60_000) {
          problems.push('not scored within 60 s');
          return;
        }
      }
    };

    const started = performance.now();
    const running: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      // A steady schedule, not back-to-back: call i leaves at i / RATE seconds.
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      running.push(one(i).catch((error: unknown) => void problems.push(String(error))));
    }
    await Promise.all(running);
    latencies.sort((a, b) => a - b);
    ingestMs.sort((a, b) => a - b);
    return {
      calls: total,
      rate: RATE,
      scored: latencies.length,
      p50: Math.round(percentile(latencies, 0.5)),
      p99: Math.round(percentile(latencies, 0.99)),
      max: Math.round(latencies.at(-1) ?? NaN),
      ingestP50: Math.round(percentile(ingestMs, 0.5)),
      ingestP99: Math.round(percentile(ingestMs, 0.99)),
      problems,
    };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const a = await throughput();
  const b = await endToEnd();
  console.log(
    `\n(a) Scoring throughput, one worker, rules scorer, SQLite (${a.calls} calls × ${a.turns} turns × ${a.criteria} criteria)`,
  );
  console.log('| measurement | calls/s | ms per call |');
  console.log('|---|---|---|');
  console.log(`| worker: claim → score → fenced write | ${a.workerRate} | ${a.msPerCall} |`);
  console.log(`| baseline: bare scoreCall, no database | ${a.baselineRate} | ${a.baselineMsPerCall} |`);
  console.log(`| **ratio worker / baseline** | **${a.ratio}** | |`);
  console.log(
    `\n(b) 202 → scored through \`callscore serve\` (WORKER=inline), ${b.rate} calls/s for ${E2E_SECONDS} s, polled every ${POLL_MS} ms`,
  );
  console.log('| calls | scored | p50 ms | p99 ms | max ms | POST p50 / p99 ms | problems |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| ${b.calls} | ${b.scored} | ${b.p50} | ${b.p99} | ${b.max} | ${b.ingestP50} / ${b.ingestP99} | ${b.problems.length ? b.problems.join(', ') : 0} |`,
  );
  console.log(
    '\nTargets: (a) worker >= 200 calls/s; (b) p99 < 2000 ms (latency includes up to one 50 ms poll interval).',
  );
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'bench/results/scoring.json'),
    JSON.stringify({ throughput: a, endToEnd: b }, null, 2),
  );
  if (b.problems.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
