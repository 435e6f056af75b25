import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { inferableSegments } from './helpers/workspace.js';
import { createHeuristicInferrer } from '../src/ingest/infer-speaker.js';
import { inferFile } from '../src/infer/infer-file.js';

const run = promisify(execFile);

const coldCall = inferableSegments();

function writeJsonl(lines: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-infer-'));
  const file = path.join(dir, 'calls.jsonl');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('callscore infer', () => {
  it('answers from the dialogue alone, abstains rather than guess, and reports bad lines', async () => {
    const file = writeJsonl([
      // A labelled record's rep_speaker is the answer under evaluation: it must be ignored.
      JSON.stringify({ id: 'cold', segments: coldCall, rep_speaker: 'Speaker 1' }),
      JSON.stringify({
        id: 'symmetric',
        segments: [
          { speaker: 'A', text: 'Morning.' },
          { speaker: 'B', text: 'Morning.' },
        ],
      }),
      JSON.stringify({
        id: 'named',
        segments: [
          { speaker: 'Kim', text: 'Hi.' },
          { speaker: 'Lee', text: 'Hello.' },
        ],
        participants: [{ role: 'rep', name: 'Lee' }],
      }),
      'not json',
    ]);
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    const counts = await inferFile(file, createHeuristicInferrer(), out, new PassThrough());
    const results = chunks
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(counts).toEqual({ lines: 4, answered: 2, abstained: 1, failed: 1 });
    expect(results[0]).toMatchObject({ id: 'cold', rep_speaker: 'Speaker 2', call_type: 'cold_call' });
    expect(results[0].confidence).toBeGreaterThan(0);
    expect(results[0].confidence).toBeLessThanOrEqual(1);
    expect(results[1]).toEqual({
      id: 'symmetric',
      rep_speaker: null,
      confidence: null,
      call_type: 'discovery',
      error: 'rep_speaker_undetermined',
    });
    expect(results[2]).toMatchObject({ id: 'named', rep_speaker: 'Lee', confidence: 1 });
    expect(results[3]).toMatchObject({ rep_speaker: null, error: 'invalid_json' });
  });

  it('runs as a command: JSON lines on stdout, exit 0 when every line was processed', async () => {
    const file = writeJsonl([JSON.stringify({ id: 'cold', segments: coldCall })]);
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'infer', file]);
    expect(JSON.parse(stdout.trim())).toMatchObject({ id: 'cold', rep_speaker: 'Speaker 2' });
    expect(stderr).toContain('Inferred 1 calls');
  });

  it('stops quietly with exit 0 when its reader goes away (`| head -1`)', async () => {
    const file = writeJsonl(
      Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: i, segments: coldCall })),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'infer', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Read the first line, then close the pipe as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });
});
