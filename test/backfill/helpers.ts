/** Shared by the backfill tests: input files in a temp folder, the CLI in a child process, result files. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResultLine } from '../../src/backfill/results.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = fileURLToPath(new URL('./cli-entry.ts', import.meta.url));

const created: string[] = [];

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-backfill-'));
  created.push(dir);
  return dir;
}

/** Removes the folders tempDir made (call from afterAll). */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes one line per item (objects as JSON, strings as they are). */
export function writeJsonl(file: string, items: readonly unknown[]): string {
  fs.writeFileSync(file, items.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') + '\n');
  return file;
}

export function readJsonl<T = ResultLine>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** Collects what a run writes on stderr (not a terminal: plain lines). */
export function captureStderr() {
  const chunks: string[] = [];
  return { stream: { write: (s: string) => chunks.push(s), isTTY: false }, text: () => chunks.join('') };
}

export interface CliRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** `callscore backfill ARGS` in a child process (through tsx), with `env` added to a clean environment. */
export function runCli(args: string[], env: Record<string, string> = {}): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_NO_WARNINGS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

/** Polls until `check` is true (or fails the test after `timeoutMs`). */
export async function waitFor(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 20));
  }
}
