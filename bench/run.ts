/**
 * `npm run bench`: POST /v1/calls throughput, latency and memory of the real server (SQLite, worker off,
 * rate limits raised) against a bare Fastify route that only parses the same body, measured in the same run.
 * Machines are noisy: read the ratios, not the absolute numbers.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { bodyTemplate, type BodyTemplate } from './transcripts.js';
import { root, startServer, type BenchServer } from './server.js';
import { sqliteFile } from '../src/store/db.js';

const KEY = 'svc_sk_bench_key_000000000000000000';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);

/** Peak resident set size of a process so far (Linux VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Calls the scoring worker has finished (scored or skipped), read from the SQLite file beside the server. */
function finishedCalls(dataDir: string): number {
  const db = new Database(sqliteFile(dataDir), { readonly: true });
  try {
    const row = db.prepare("select count(*) as n from calls where status in ('scored', 'skipped')").get() as {
      n: number;
    };
    return row.n;
  } finally {
    db.close();
  }
}

let counter = 0;
async function load(
  server: BenchServer,
  template: BodyTemplate,
  options: { connections: number; overallRate?: number },
) {
  const result = await autocannon({
    url: `${server.url}/v1/calls`,
    method: 'POST',
    connections: options.connections,
    duration: DURATION_S,
    overallRate: options.overallRate,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    requests: [
      {
        setupRequest: (request) => {
          const unique = `${process.pid}-${++counter}-${Date.now()}`;
          return { ...request, body: template.json.replaceAll('__UNIQ__', unique) };
        },
      },
    ],
  });
  const ok = result['2xx'];
  return {
    rps: Math.round((ok / result.duration) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-bench-'));
  const env = {
    DATA_DIR: dataDir,
    DEMO: 'false',
    WORKER: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_KEY: '100000000',
    RATE_LIMIT_PER_IP: '100000000',
  };
  execFileSync(process.execPath, ['bin/callscore.js', 'seed', 'bench/workspace.json'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  const rows: string[] = [];
  const summary: Record<string, unknown> = {};
  let durability = '';
  let workerBusy = '';
  try {
    for (const kind of ['typical', 'large'] as const) {
      const template = bodyTemplate(kind);
      const label = `${kind === 'typical' ? '~40 KB' : '~1 MiB'} (${template.segments} segments, ${Math.round(template.bytes / 1024)} KB, ${template.characters} chars)`;
      console.error(`\n▶ ${label}`);
      const measured: Record<
        string,
        { peak: Awaited<ReturnType<typeof load>>; half: Awaited<ReturnType<typeof load>>; rss: number }
      > = {};
      for (const which of ['baseline', 'callscore'] as const) {
        const server =
          which === 'baseline'
            ? await startServer(['bench/baseline-server.mjs'], {}, 18_081)
            : await startServer(['bin/callscore.js', 'serve'], env, 18_080);
        try {
          console.error(`  ${which}: finding the peak rate (${DURATION_S}s)…`);
          const peak = await load(server, template, { connections: 8 });
          console.error(`  ${which}: ${peak.rps} req/s; now at half that rate (${DURATION_S}s)…`);
          const half = await load(server, template, {
            connections: 8,
            overallRate: Math.max(1, Math.floor(peak.rps / 2)),
          });
          measured[which] = { peak, half, rss: peakRssMb(server.child.pid!) };
        } finally {
          await server.stop();
        }
      }
      const b = measured.baseline!;
      const c = measured.callscore!;
      const ratio = Math.round((c.peak.rps / b.peak.rps) * 100) / 100;
      summary[kind] = { baseline: b, callscore: c, ratio };
      if (kind === 'typical') {
        // DESIGN: SQLITE_SYNCHRONOUS=full makes every 202 survive power loss, "at a measured cost".
        const server = await startServer(
          ['bin/callscore.js', 'serve'],
          { ...env, SQLITE_SYNCHRONOUS: 'full' },
          18_080,
        );
        try {
          console.error(`  callscore with SQLITE_SYNCHRONOUS=full: peak rate (${DURATION_S}s)…`);
          const full = await load(server, template, { connections: 8 });
          const share = Math.round((full.rps / c.peak.rps) * 100);
          durability = `With SQLITE_SYNCHRONOUS=full (an fsync per commit) on ~40 KB bodies: ${full.rps} calls/s, ${share}% of the default (normal).`;
        } finally {
          await server.stop();
        }
        // Issue 3: the same load with the scoring worker busy in its thread of `serve`. The runs above left
        // thousands of calls queued, so the worker scores for the whole run.
        const busy = await startServer(['bin/callscore.js', 'serve'], { ...env, WORKER: 'inline' }, 18_080);
        try {
          const before = finishedCalls(dataDir);
          const started = performance.now();
          console.error(`  callscore with the scoring worker busy: peak rate (${DURATION_S}s)…`);
          const peak = await load(busy, template, { connections: 8 });
          console.error(`  callscore with the scoring worker busy: half the peak (${DURATION_S}s)…`);
          const half = await load(busy, template, {
            connections: 8,
            overallRate: Math.max(1, Math.floor(peak.rps / 2)),
          });
          const scoredPerSecond = Math.round(
            (finishedCalls(dataDir) - before) / ((performance.now() - started) / 1000),
          );
          const share = Math.round((peak.rps / c.peak.rps) * 100);
          summary.workerBusy = { peak, half, scoredPerSecond, share };
          workerBusy =
            `With the scoring worker busy in its thread (${scoredPerSecond} calls scored per second meanwhile) on ~40 KB ` +
            `bodies: ${peak.rps} calls/s, ${share}% of worker off; p50 / p99 at half the peak ${half.p50} / ${half.p99} ms.`;
        } finally {
          await busy.stop();
        }
      }
      rows.push(
        `| ${label} | ${c.peak.rps} | ${c.half.p50} / ${c.half.p99} | ${c.rss} | ${b.peak.rps} | ${b.half.p50} / ${b.half.p99} | ${b.rss} | **${ratio}** | ${c.peak.errors + c.half.errors} |`,
      );
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('\nPOST /v1/calls, SQLite, worker off, autocannon with 8 connections on loopback');
  console.log(
    '| body | callscore calls/s (peak) | p50 / p99 ms at half peak | peak RSS MB | baseline req/s | baseline p50 / p99 ms | baseline RSS MB | ratio | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`\n${durability}`);
  console.log(workerBusy);
  console.log('\nTargets: ratio >= 0.5, p99 < 50 ms at half the peak rate, RSS < 300 MB.');
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench/results/ingest.json'), JSON.stringify(summary, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
