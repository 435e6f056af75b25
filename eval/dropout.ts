/**
 * Family dropout (run: `npx tsx eval/dropout.ts [--rate 0.3] [--seeds 8]`): a proxy for wording the heuristics have
 * never seen. Each run removes a random share of the cue families of both modules (rep speaker and call type), reads
 * the development sets and the shared public transcripts, and the report gives the means over the runs beside the
 * full-family figures. A change that helps only through the exact phrases it adds shows no gain here; one that
 * leans on structure does. Blind sets (holdout2, holdout3, holdout4) are never read.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inferRepSpeaker, setSpeakerFamiliesForEvaluation } from '../src/ingest/infer-speaker.js';
import { classifyCall, setCallTypeFamiliesForEvaluation } from '../src/ingest/classify-call.js';
import { isRepSide, readSet, toTurns, type DialogueRecord } from './dialogues.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sharedDir = path.resolve(repoRoot, '../shared/data/transcripts');

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) ? value : fallback;
}
const RATE = option('--rate', 0.3);
const SEEDS = option('--seeds', 8);

const SETS: { name: string; file: string }[] = [
  { name: 'own', file: path.resolve(repoRoot, 'eval/sales-dialogues.jsonl') },
  { name: 'holdout', file: path.resolve(repoRoot, 'eval/sales-dialogues-holdout.jsonl') },
  { name: 'dev2', file: path.resolve(repoRoot, 'eval/sales-dialogues-dev2.jsonl') },
  { name: 'dev3', file: path.resolve(repoRoot, 'eval/sales-dialogues-dev3.jsonl') },
  { name: 'dev4', file: path.resolve(repoRoot, 'eval/sales-dialogues-dev4.jsonl') },
  { name: 'persuasionforgood', file: path.join(sharedDir, 'persuasionforgood.jsonl') },
  { name: 'customer_service', file: path.join(sharedDir, 'customer_service_inbound.jsonl') },
];

interface Figures {
  abstention: number;
  wrong: number;
  customer: number;
  type: number;
}

function measure(records: DialogueRecord[]): Figures {
  let withRep = 0;
  let abstained = 0;
  let wrong = 0;
  let customer = 0;
  let typeCorrect = 0;
  for (const r of records) {
    const turns = toTurns(r.segments);
    const inferred = inferRepSpeaker(turns, { excludedLabels: new Set() });
    if (r.rep_speaker !== null) withRep++;
    if (inferred === null) {
      if (r.rep_speaker !== null) abstained++;
    } else if (inferred.label !== r.rep_speaker) {
      wrong++;
      if (!isRepSide(r, inferred.label)) customer++;
    }
    const acceptable = r.meta.call_type_acceptable ?? [r.call_type];
    if (acceptable.includes(classifyCall(turns, r.rep_speaker).callType)) typeCorrect++;
  }
  return {
    abstention: withRep === 0 ? 0 : (100 * abstained) / withRep,
    wrong,
    customer,
    type: (100 * typeCorrect) / records.length,
  };
}

/**
 * Whether a run drops a family: a hash of the seed and the family's pattern, so every run of the report drops the same
 * families, and adding or editing one family leaves the others' draws unchanged (before/after stay comparable).
 */
function drops(seed: number, pattern: string): boolean {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < pattern.length; i++) h = Math.imul(h ^ pattern.charCodeAt(i), 0x01000193) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39) >>> 0;
  return ((h ^ (h >>> 15)) >>> 0) / 4294967296 < RATE;
}

function main(): void {
  const sets = SETS.filter((s) => existsSync(s.file)).map((s) => ({ ...s, records: readSet(s.file) }));
  const full = sets.map((s) => measure(s.records));
  const sums = sets.map(() => ({ abstention: 0, wrong: 0, customer: 0, type: 0 }));
  const speakerFamilies = setSpeakerFamiliesForEvaluation(null);
  const typeFamilies = setCallTypeFamiliesForEvaluation(null);
  for (let seed = 1; seed <= SEEDS; seed++) {
    setSpeakerFamiliesForEvaluation((_, pattern) => !drops(seed, pattern));
    setCallTypeFamiliesForEvaluation((_, pattern) => !drops(seed, pattern));
    sets.forEach((s, i) => {
      const f = measure(s.records);
      const sum = sums[i]!;
      sum.abstention += f.abstention;
      sum.wrong += f.wrong;
      sum.customer += f.customer;
      sum.type += f.type;
    });
  }
  setSpeakerFamiliesForEvaluation(null);
  setCallTypeFamiliesForEvaluation(null);
  console.log(
    `Family dropout: ${Math.round(RATE * 100)}% of ${speakerFamilies} speaker and ${typeFamilies} call-type cue families removed, ${SEEDS} seeds; full families → mean under dropout`,
  );
  console.log(
    [
      'set'.padEnd(18),
      'abstention'.padStart(17),
      'wrong'.padStart(13),
      'cust.'.padStart(13),
      'type.acc'.padStart(17),
    ].join(' | '),
  );
  sets.forEach((s, i) => {
    const f = full[i]!;
    const m = sums[i]!;
    const n = SEEDS;
    console.log(
      [
        s.name.padEnd(18),
        `${f.abstention.toFixed(1)}% → ${(m.abstention / n).toFixed(1)}%`.padStart(17),
        `${f.wrong} → ${(m.wrong / n).toFixed(1)}`.padStart(13),
        `${f.customer} → ${(m.customer / n).toFixed(1)}`.padStart(13),
        `${f.type.toFixed(1)}% → ${(m.type / n).toFixed(1)}%`.padStart(17),
      ].join(' | '),
    );
  });
}

main();
