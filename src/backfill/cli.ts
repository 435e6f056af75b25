/** `callscore backfill`: argument parsing, environment fallbacks, SIGINT and exit codes around runBackfill. */
import { parseArgs } from 'node:util';
import { BackfillUsageError, DEFAULT_CONCURRENCY, DEFAULT_RATE, runBackfill } from './run.js';

export const BACKFILL_USAGE = `Usage: callscore backfill FILE.jsonl|FOLDER --base-url URL --api-key KEY [options]

Sends past calls to POST /v1/calls at a steady pace. Safe to interrupt and rerun.
  FILE.jsonl          one CreateCallRequest (JSON) per line
  FOLDER              transcript files plus a manifest.jsonl: one line per call with the call
                      fields and "transcript_file" (.vtt, .srt, .txt or Gong .json, relative to
                      the folder), converted to transcript.segments

Options:
  --base-url URL      API base, e.g. https://callscore.example.com/v1 (env CALLSCORE_BASE_URL)
  --api-key KEY       svc_sk_... API key (env CALLSCORE_API_KEY)
  --rate N            calls started per second (default ${DEFAULT_RATE}; the API allows 2 per second per key)
  --concurrency N     requests in flight at most (default ${DEFAULT_CONCURRENCY})
  --out FILE          results, one JSON line per input call (default FILE.results.jsonl, or
                      FOLDER/results.jsonl); FILE.journal beside it records finished calls,
                      so a rerun skips them
  --dry-run           validate every line against the API's schemas locally; send nothing
  -h, --help          show this text

Exit status: 0 every call created or already there; 1 some calls failed (see the results
file) or the run stopped on an error; 2 usage error; 130 interrupted (rerun to resume).`;

type Env = Record<string, string | undefined>;

export async function backfillCommand(argv: string[], env: Env): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        rate: { type: 'string' },
        concurrency: { type: 'string' },
        out: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${BACKFILL_USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(BACKFILL_USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(
      `${positionals.length ? 'Give exactly one input file or folder.' : 'Missing the input file or folder.'}\n\n${BACKFILL_USAGE}`,
    );
    return 2;
  }
  const number = (name: string, fallback: number): number | null => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    return typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(n) && n > 0 ? n : null;
  };
  const rate = number('rate', DEFAULT_RATE);
  const concurrency = number('concurrency', DEFAULT_CONCURRENCY);
  if (rate === null) return usageError('--rate must be a positive number of calls per second, e.g. 1.5.');
  if (concurrency === null || !Number.isSafeInteger(concurrency))
    return usageError('--concurrency must be a positive integer.');
  if (rate > 2 && values['dry-run'] !== true)
    console.error(
      `Note: --rate ${rate} is above the API's 120 requests per minute per key; expect 429 waits.`,
    );

  const stop = new AbortController();
  const onSigint = () => {
    if (stop.signal.aborted) process.exit(130); // a second Ctrl-C: the journal is already on disk
    console.error('\nInterrupted: finishing the requests in flight (Ctrl-C again to quit at once)...');
    stop.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSigint);
  try {
    const str = (name: string) => {
      const v = values[name];
      return typeof v === 'string' && v !== '' ? v : undefined;
    };
    const report = await runBackfill({
      input: positionals[0]!,
      baseUrl: str('base-url') ?? (env.CALLSCORE_BASE_URL || undefined),
      apiKey: str('api-key') ?? (env.CALLSCORE_API_KEY || undefined),
      rate,
      concurrency,
      out: str('out'),
      dryRun: values['dry-run'] === true,
      signal: stop.signal,
    });
    console.log(report.summary);
    return report.exitCode;
  } catch (err) {
    if (err instanceof BackfillUsageError) return usageError(err.message);
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

function usageError(message: string): number {
  console.error(`${message}\n\nRun "callscore backfill --help" for usage.`);
  return 2;
}
