/**
 * Loading the labelled dialogue sets, shared by the evaluation report (eval/run.ts) and the combiner experiment
 * (eval/combiner.ts): the record format, its validation, and the turns the service would build from it.
 */
import { readFileSync } from 'node:fs';
import { CALL_TYPES, type CallType } from '../src/ingest/classify-call.js';
import type { Turn } from '../src/ingest/transcript.js';

export interface Segment {
  speaker: string;
  text: string;
  start_ms?: number | null;
}

export interface DialogueRecord {
  id: string;
  segments: Segment[];
  rep_speaker: string | null;
  call_type: CallType;
  meta: { roles?: Record<string, string>; call_type_acceptable?: string[]; [key: string]: unknown };
}

export class MalformedSetError extends Error {}

export function readSet(file: string): DialogueRecord[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const records: DialogueRecord[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let r: DialogueRecord;
    try {
      r = JSON.parse(line) as DialogueRecord;
    } catch {
      throw new MalformedSetError(`${file}:${i + 1}: not JSON`);
    }
    const ok =
      typeof r.id === 'string' &&
      Array.isArray(r.segments) &&
      r.segments.length > 0 &&
      r.segments.every((s) => typeof s.speaker === 'string' && typeof s.text === 'string') &&
      (r.rep_speaker === null || r.segments.some((s) => s.speaker === r.rep_speaker)) &&
      (CALL_TYPES as readonly string[]).includes(r.call_type) &&
      typeof r.meta === 'object' &&
      r.meta !== null;
    if (!ok)
      throw new MalformedSetError(
        `${file}:${i + 1}: record ${String(r?.id)} does not have the expected shape`,
      );
    records.push(r);
  });
  return records;
}

/** Merge consecutive same-speaker segments, as the service does before inference. */
export function toTurns(segments: readonly Segment[]): Turn[] {
  const turns: Turn[] = [];
  for (const s of segments) {
    const last = turns[turns.length - 1];
    if (last !== undefined && last.speaker === s.speaker) last.text = `${last.text} ${s.text}`;
    else turns.push({ speaker: s.speaker, text: s.text, start_ms: s.start_ms ?? null });
  }
  return turns;
}

/** Is this label rep-side (the rep, a sales engineer, a CSM beside the rep)? Unknown roles count as not rep-side. */
export function isRepSide(r: DialogueRecord, label: string): boolean {
  if (label === r.rep_speaker) return true;
  const role = (r.meta.roles?.[label] ?? '').toLowerCase();
  return role.startsWith('rep') || role.includes('sales_engineer') || role.includes('rep_side');
}
