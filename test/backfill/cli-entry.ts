/** Runs `callscore backfill` in a child process for the CLI tests (SIGINT, exit codes), as main.ts will. */
import { backfillCommand } from '../../src/backfill/cli.js';

backfillCommand(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
