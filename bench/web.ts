/**
 * `npx tsx bench/web.ts` (after `npm run build`): server render time of the web application, as HTTP latency
 * p50 / p99 against the real built server (`node bin/callscore.js serve`, SQLite, WORKER=off), signed in with a
 * session cookie from the sign-in form (CSRF double-submit, as a browser does):
 *
 *   (a) the call page of a call with a 2,000-turn transcript and a scored result;
 *   (b) the call library with 100,000 calls in the database (admin, rep and a status filter);
 *   (c) the dashboard over the same 100,000 calls (admin, one team, rep).
 *
 * Beside them, in the same run, the baseline: GET /healthz and the sign-in page (no database work beyond the
 * session lookup). Requests are sequential (one connection, keep-alive), so latency is render time plus loopback.
 * Calls go in with batched multi-row inserts through Kysely on a temporary DATA_DIR, their results one by one
 * through `recordResult` (the worker's write, which also keeps `calls.current_score`). Machines are noisy: read
 * the ratios to the baseline, not the absolute numbers.
 *
 * Env: BENCH_CALLS (100000), BENCH_SAMPLES (200 per URL), CALLSCORE_BIN (bin/callscore.js), BENCH_KEEP_DATA=1
 * (keep the temporary DATA_DIR for EXPLAIN QUERY PLAN).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql, type Insertable, type Kysely } from 'kysely';
import { createStore } from '../src/store/db.js';
import type { JobLease } from '../src/store/jobs.repo.js';
import { recordResult, type NewScoreResult } from '../src/store/results.repo.js';
import type { Database } from '../src/store/schema.js';
import { root, startServer, type BenchServer } from './server.js';

const BIN = process.env.CALLSCORE_BIN ?? 'bin/callscore.js';
const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARMUP = 20;
/** A URL's measurement stops early after this long (a slow page still gets enough samples for p50). */
const MAX_MS_PER_URL = 20_000;
const PORT = 18_090;
const PASSWORD = 'bench password 1234';
const TEAMS = ['Load', 'North', 'South', 'Enterprise'];
const REPS_PER_TEAM = 6;
const WEEKS_OF_HISTORY = 52;

function workspace() {
  const users = [
    { email: 'admin@bench.test', name: 'Bench Admin', role: 'admin', password: PASSWORD, teams: ['Load'] },
    {
      email: 'manager@bench.test',
      name: 'Mona Manager',
      role: 'manager',
      password: PASSWORD,
      teams: ['North'],
    },
  ];
  TEAMS.forEach((team, t) => {
    for (let r = 0; r < REPS_PER_TEAM; r++) {
      users.push({
        email: t === 0 && r === 0 ? 'rep@bench.test' : `rep${t}-${r}@bench.test`,
        name: `Rep ${t}-${r}`,
        role: 'rep',
        password: PASSWORD,
        teams: [team],
      });
    }
  });
  const criteria = [
    { key: 'next_steps', title: 'Agrees next steps', check: { type: 'phrases', any: ['next step'] } },
  ];
  return {
    accounts: [
      {
        name: 'Bench',
        status: 'active',
        features: ['call_scoring_api'],
        teams: TEAMS.map((name) => ({ name })),
        users,
        scorecards: TEAMS.map((team) => ({ team, name: 'Discovery', criteria })),
        team_settings: TEAMS.map((team) => ({ team, default_scorecard: 'Discovery' })),
        api_keys: [
          { secret: 'svc_sk_bench_key_000000000000000000', team: 'Load', created_by: 'admin@bench.test' },
        ],
      },
    ],
  };
}

const CRITERIA = [
  ['discovery_questions', 'Asks discovery questions'],
  ['next_steps', 'Agrees concrete next steps'],
  ['talk_ratio', 'Lets the customer talk'],
  ['monologue', 'Avoids long monologues'],
  ['pricing', 'Handles pricing objections'],
] as const;

/** Realistic criteria (~1.3 KB as JSON): scores, an N/A, evidence quotes with turn index, rationales. */
function criteriaOf(seed: number): { criteria: unknown[]; score: number } {
  let weighted = 0;
  let weights = 0;
  const list = CRITERIA.map(([key, title], i) => {
    const na = key === 'pricing' && seed % 3 !== 0;
    const score = na ? null : ((seed * (i + 7)) % 11) / 10;
    const weight = i === 1 ? 2 : 1;
    if (score !== null) {
      weighted += score * weight;
      weights += weight;
    }
    return {
      key,
      title,
      weight,
      score,
      na,
      evidence: na
        ? []
        : [
            {
              turn_index: (seed + i) % 40,
              start_ms: ((seed + i) % 40) * 4000,
              quote: 'Could you walk me through how your team handles renewals today?',
            },
            {
              turn_index: (seed + i + 3) % 40,
              start_ms: ((seed + i + 3) % 40) * 4000,
              quote: 'As a next step I will send a calendar invite for Thursday.',
            },
          ],
      rationale: na
        ? 'The customer did not raise price.'
        : `The rep met ${Math.round((score ?? 0) * 100)}% of what good looks like here.`,
    };
  });
  return { criteria: list, score: weights ? Math.round((weighted / weights) * 1000) / 10 : 0 };
}

const STATUSES: [string, number][] = [
  ['scored', 0.85],
  ['skipped', 0.07],
  ['queued', 0.04],
  ['failed', 0.02],
  ['scoring', 0.02],
];
function statusOf(i: number): string {
  let x = ((i * 7919) % 1000) / 1000;
  for (const [status, share] of STATUSES) {
    if (x < share) return status;
    x -= share;
  }
  return 'scored';
}

/**
 * A job as a worker holds it right after its claim (status running, fencing token 1), inserted in bulk with its
 * calls: results then go in through `recordResult`, the worker's own write, one transaction per call.
 */
function runningJob(callId: string, accountId: string, at: string) {
  const id = randomUUID();
  const leaseUntil = new Date(Date.now() + 24 * 3600_000).toISOString();
  const row: Insertable<Database['scoring_jobs']> = {
    id,
    call_id: callId,
    account_id: accountId,
    status: 'running',
    lease_until: leaseUntil,
    fencing_token: 1,
    attempts: 0,
    available_at: at,
    last_error: null,
    created_at: at,
    updated_at: at,
    reason: 'ingest',
  };
  const lease: JobLease = { jobId: id, callId, accountId, fencingToken: 1, attempts: 0, leaseUntil };
  return { row, lease };
}

async function recordScored(
  db: Kysely<Database>,
  lease: JobLease,
  result: NewScoreResult,
  at: Date,
): Promise<void> {
  if (!(await recordResult(db, lease, result, at))) throw new Error(`result of ${lease.callId} fenced off`);
}

async function fill(dataDir: string): Promise<{ bigCallId: string; teamId: string }> {
  const store = createStore({ databaseUrl: undefined, dataDir });
  const db = store.db;
  try {
    const account = await db
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', 'Bench')
      .executeTakeFirstOrThrow();
    const members = await db
      .selectFrom('team_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .innerJoin('teams as t', 't.id', 'm.team_id')
      .select(['m.user_id', 'm.team_id', 'u.role', 't.name as team'])
      .where('u.account_id', '=', account.id)
      .where('u.role', '=', 'rep')
      .orderBy('u.email')
      .execute();
    const cards = await db.selectFrom('scorecards').select(['id', 'team_id']).execute();
    const cardOf = new Map(cards.map((c) => [c.team_id, c.id]));
    const now = Date.now();
    const span = WEEKS_OF_HISTORY * 7 * 24 * 3600_000;
    const started = performance.now();
    const BATCH = 500; // 23 columns × 500 rows stays under SQLite's 32,766 bound parameters
    for (let from = 0; from < CALLS; from += BATCH) {
      const calls: Insertable<Database['calls']>[] = [];
      const jobs: Insertable<Database['scoring_jobs']>[] = [];
      const results: { lease: JobLease; result: NewScoreResult; at: Date }[] = [];
      for (let i = from; i < Math.min(CALLS, from + BATCH); i++) {
        const m = members[i % members.length]!;
        // Spread over the last year, oldest first (ids inserted roughly in time order, as in production).
        const occurred = new Date(now - span + Math.floor((i / CALLS) * span) + (i % 97) * 1000);
        const created = new Date(occurred.getTime() + 60_000).toISOString();
        const status = statusOf(i);
        const scored = status === 'scored' || status === 'skipped';
        const id = randomUUID();
        calls.push({
          id,
          account_id: account.id,
          team_id: m.team_id,
          rep_user_id: m.user_id,
          ingest_rep_user_id: m.user_id,
          provider: 'Zoom',
          external_id: `bench-${i}`,
          fingerprint: `fp-${i}`,
          // A call about to be scored is `scoring`; recordResult moves it to `scored` or `skipped`.
          status: scored ? 'scoring' : status,
          skip_reason: null,
          call_type: i % 5 === 0 ? 'negotiation' : 'discovery',
          scorecard_id: cardOf.get(m.team_id) ?? null,
          title: `Customer ${i % 977}`,
          rep_speaker: 'Rep',
          speaker_source: 'rep_speaker',
          rep_source: 'rep_email',
          speaker_confidence: null,
          recording_id: null,
          api_key_id: null,
          occurred_at: occurred.toISOString(),
          created_at: created,
          updated_at: created,
        });
        if (scored) {
          const c = criteriaOf(i);
          const job = runningJob(id, account.id, created);
          jobs.push(job.row);
          results.push({
            lease: job.lease,
            result: {
              scorecardId: cardOf.get(m.team_id) ?? null,
              scorecardVersion: 1,
              scorer: 'rules',
              score: status === 'scored' ? c.score : null,
              skipReason: status === 'skipped' ? 'too_short' : null,
              criteria: status === 'scored' ? c.criteria : [],
            },
            at: new Date(created),
          });
        }
      }
      await db.transaction().execute(async (tx) => {
        await tx.insertInto('calls').values(calls).execute();
        if (jobs.length) await tx.insertInto('scoring_jobs').values(jobs).execute();
      });
      // Each result through the worker's own write, so the call row (status, current_score) is as it leaves it.
      for (const r of results) await recordScored(db, r.lease, r.result, r.at);
    }
    console.error(`  inserted ${CALLS} calls in ${Math.round(performance.now() - started)} ms`);

    // (a) The call with 2,000 turns (alternating customer and rep, ~25 words each) and a scored result.
    const rep = members[0]!;
    const bigCallId = randomUUID();
    const turns = Array.from({ length: 2000 }, (_, i) => ({
      speaker: i % 2 ? 'Rep' : 'Carla Diaz',
      text:
        i % 2
          ? `Thanks, that helps. Could you tell me more about how renewals work for your team, and who signs off on point ${i}?`
          : `Sure. Today we track renewals in spreadsheets, and we often lose track of the dates until finance notices item ${i}.`,
      start_ms: i * 6000,
    }));
    const at = new Date(now - 3600_000).toISOString();
    const bigJob = runningJob(bigCallId, account.id, at);
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto('calls')
        .values({
          id: bigCallId,
          account_id: account.id,
          team_id: rep.team_id,
          rep_user_id: rep.user_id,
          ingest_rep_user_id: rep.user_id,
          provider: 'Zoom',
          external_id: 'bench-big',
          fingerprint: 'fp-big',
          status: 'scoring',
          skip_reason: null,
          call_type: 'discovery',
          scorecard_id: cardOf.get(rep.team_id) ?? null,
          title: 'Carla Diaz',
          rep_speaker: 'Rep',
          speaker_source: 'rep_speaker',
          rep_source: 'rep_email',
          speaker_confidence: null,
          recording_id: null,
          api_key_id: null,
          occurred_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await tx
        .insertInto('call_transcripts')
        .values({
          call_id: bigCallId,
          turns: JSON.stringify(turns),
          participants: JSON.stringify([{ role: 'customer', name: 'Carla Diaz', company: 'Globex' }]),
          metadata: null,
          speaker_signals: null,
        })
        .execute();
      await tx.insertInto('scoring_jobs').values(bigJob.row).execute();
    });
    const c = criteriaOf(1);
    const result = {
      scorecardId: null,
      scorecardVersion: 1,
      scorer: 'rules',
      score: c.score,
      skipReason: null,
    };
    await recordScored(db, bigJob.lease, { ...result, criteria: c.criteria }, new Date(at));
    await sql`analyze`.execute(db);
    return { bigCallId, teamId: members.find((m) => m.team === 'North')!.team_id };
  } finally {
    await store.close();
  }
}

function setCookies(headers: Headers): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(';');
    const i = pair!.indexOf('=');
    out.set(pair!.slice(0, i).trim(), pair!.slice(i + 1).trim());
  }
  return out;
}

/** Signs in through the form: GET /login (CSRF cookie + field), POST /login; returns the Cookie header. */
async function signIn(base: string, email: string): Promise<string> {
  const page = await fetch(`${base}/login`);
  const html = await page.text();
  const csrf = /name="_csrf" value="([^"]*)"/.exec(html)?.[1];
  const loginCookie = setCookies(page.headers).get('callscore_login_csrf');
  if (!csrf || !loginCookie) throw new Error('no CSRF token on /login');
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `callscore_login_csrf=${loginCookie}`,
    },
    body: new URLSearchParams({ _csrf: csrf, next: '', email, password: PASSWORD }).toString(),
  });
  const session = setCookies(res.headers).get('callscore_session');
  if (res.status !== 303 || !session) throw new Error(`sign-in of ${email} failed: ${res.status}`);
  return `callscore_session=${session}`;
}

interface Measured {
  p50: number;
  p99: number;
  samples: number;
  bytes: number;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => Math.round(n * 10) / 10;

async function measure(url: string, cookie: string | null, expect: string | null): Promise<Measured> {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  let bytes = 0;
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(url, { headers, redirect: 'manual' });
    const body = await res.text();
    const elapsed = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (expect && !body.includes(expect)) throw new Error(`${url}: page lacks ${JSON.stringify(expect)}`);
    bytes = body.length;
    return elapsed;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const times: number[] = [];
  const deadline = performance.now() + MAX_MS_PER_URL;
  while (times.length < SAMPLES && performance.now() < deadline) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50: ms(pct(times, 50)), p99: ms(pct(times, 99)), samples: times.length, bytes };
}

async function main(): Promise<void> {
  const started = performance.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-bench-web-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DEMO: 'false',
    WORKER: 'off',
    LOG_LEVEL: 'warn',
    PORT: String(PORT),
  };
  let server: BenchServer | null = null;
  try {
    const wsFile = path.join(dataDir, 'workspace.json');
    fs.writeFileSync(wsFile, JSON.stringify(workspace()));
    execFileSync(process.execPath, [BIN, 'seed', wsFile], { cwd: root, env, stdio: 'ignore' });
    console.error(`▶ filling the database (${CALLS} calls)…`);
    const { bigCallId, teamId } = await fill(dataDir);

    server = await startServer([BIN, 'serve'], env, PORT);
    const base = server.url;
    const admin = await signIn(base, 'admin@bench.test');
    const rep = await signIn(base, 'rep@bench.test');

    const cases: [string, string, string | null, string | null][] = [
      ['baseline: GET /healthz', '/healthz', null, null],
      ['baseline: GET /login (sign-in page)', '/login', null, 'Sign in'],
      ['(a) call page, 2,000 turns, scored (admin)', `/calls/${bigCallId}`, admin, 'id="turn-1999"'],
      ['(b) library, newest 50 (admin, 100k visible)', '/calls', admin, 'Older calls'],
      ['(b) library, newest 50 (rep)', '/calls', rep, 'Older calls'],
      ['(b) library, status=failed (admin)', '/calls?status=failed', admin, 'Older calls'],
      ['(c) dashboard (admin, whole account)', '/dashboard', admin, 'role="img"'],
      ['(c) dashboard, one team (admin)', `/dashboard?team=${teamId}`, admin, 'role="img"'],
      ['(c) dashboard (rep)', '/dashboard', rep, 'role="img"'],
    ];
    const rows: string[] = [];
    const results: Record<string, Measured> = {};
    const run = async (label: string, urlPath: string, cookie: string | null, expect: string | null) => {
      console.error(`  ${label}…`);
      const m = await measure(`${base}${urlPath}`, cookie, expect);
      results[label] = m;
      return m;
    };
    for (const [label, urlPath, cookie, expect] of cases) await run(label, urlPath, cookie, expect);

    const baseline = results['baseline: GET /login (sign-in page)']!;
    for (const [label, m] of Object.entries(results)) {
      const target = label.startsWith('baseline') ? '' : m.p99 < 100 ? 'yes' : '**no**';
      rows.push(
        `| ${label} | ${m.p50} | ${m.p99} | ${ms(m.p50 / baseline.p50)} | ${target} | ${m.samples} | ${Math.round(m.bytes / 1024)} |`,
      );
    }
    console.log(
      `\nWeb pages, SQLite, ${CALLS.toLocaleString('en-US')} calls (${WEEKS_OF_HISTORY} weeks), worker off; sequential requests on one keep-alive connection`,
    );
    console.log('| page | p50 ms | p99 ms | p50 ÷ sign-in page p50 | p99 < 100 ms | samples | KB |');
    console.log('|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    console.log(`\nTotal run ${Math.round((performance.now() - started) / 1000)} s.`);
    fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'bench/results/web.json'),
      JSON.stringify({ calls: CALLS, results }, null, 2),
    );
  } finally {
    await server?.stop();
    if (process.env.BENCH_KEEP_DATA) console.error(`data kept in ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
