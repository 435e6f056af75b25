/**
 * Trains the word model of speaker inference (src/ingest/speaker-model.ts) on the development sets and writes
 * src/ingest/speaker-weights.ts. Run: `npm run train:speaker`.
 *
 * `--cv` writes nothing and prints instead, per development set's author, how the whole inference (phrases,
 * structure and this model) does when the model is trained on the other authors only: the honest measure of text by
 * an unseen author for the model's part (the phrases were tuned on these sets). The blind sets are never read.
 *
 * Training: one example per call, a choice among its speakers and "nobody": the rep's label, or nobody on a call
 * without a seller. Every other speaker, the rep's own colleagues (sales engineers, managers) included, is a wrong
 * choice, so the model learns what tells the rep from them too. Full-batch gradient descent on the softmax loss
 * with a small L2 penalty, deterministic. Features: as word-model-training.ts selects them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { inferRepSpeaker } from '../src/ingest/infer-speaker.js';
import {
  buildSpeakerModel,
  callRows,
  forEachSpeakerFeature,
  SPEAKER_MODEL_CLASSES,
  speakerScores,
  type SpeakerModel,
} from '../src/ingest/speaker-model.js';
import { softmax } from '../src/ingest/word-features.js';
import { isRepSide, toTurns } from './dialogues.js';
import {
  authorsOf,
  loadDevelopmentSets,
  repoRoot,
  rowsIn,
  selectFeatures,
  TRAINING,
  weightsModule,
  type AuthoredRecord,
} from './word-model-training.js';

const { learningRate: LEARNING_RATE, l2: L2 } = TRAINING;
/**
 * Twice the call-type model's epochs: the sharper choice answers more calls at the same thresholds without more
 * wrong or customer picks (per-author CV, 29 authors: abstention 16.0 → 13.6%; 1,000 epochs added a customer pick;
 * decisions §38).
 */
const EPOCHS = 2 * TRAINING.epochs;

interface CallExample extends AuthoredRecord {
  speakers: { label: string; features: Set<string> }[];
  /** The rep's index in `speakers`, or -1 for nobody. */
  target: number;
}

function loadExamples(records: readonly AuthoredRecord[]): CallExample[] {
  return records.map((r) => {
    const bySpeaker = new Map<string, Set<string>>();
    forEachSpeakerFeature(toTurns(r.record.segments), (label, name) => {
      let set = bySpeaker.get(label);
      if (set === undefined) bySpeaker.set(label, (set = new Set()));
      set.add(name);
    });
    const speakers = [...bySpeaker].map(([label, features]) => ({ label, features }));
    return { ...r, speakers, target: speakers.findIndex((s) => s.label === r.record.rep_speaker) };
  });
}

function train(calls: readonly CallExample[]): SpeakerModel {
  const names = selectFeatures(calls.flatMap((c) => c.speakers.map((s) => ({ ...c, features: s.features }))));
  const rowOf = new Map(names.map((f, row) => [f, row]));
  const model = buildSpeakerModel(names, new Float64Array(names.length), new Float64Array(names.length), 0);
  const rows = calls.map((c) => new Map(c.speakers.map((s) => [s.label, rowsIn(rowOf, s.features)])));
  const everyone = rows.map(callRows);
  const repGradient = new Float64Array(names.length);
  const nobodyGradient = new Float64Array(names.length);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    repGradient.fill(0);
    nobodyGradient.fill(0);
    let biasGradient = 0;
    calls.forEach((c, n) => {
      const p = softmax(speakerScores(model, rows[n]!));
      [...rows[n]!.values()].forEach((r, i) => {
        const g = (p[i]! - (i === c.target ? 1 : 0)) / Math.sqrt(Math.max(1, r.length));
        for (const row of r) repGradient[row]! += g;
      });
      const g = p[p.length - 1]! - (c.target === -1 ? 1 : 0);
      biasGradient += g;
      const scaled = g / Math.sqrt(Math.max(1, everyone[n]!.length));
      for (const row of everyone[n]!) nobodyGradient[row]! += scaled;
    });
    model.nobodyBias -= (LEARNING_RATE * biasGradient) / calls.length;
    for (let i = 0; i < names.length; i++) {
      model.repWeights[i]! -= LEARNING_RATE * (repGradient[i]! / calls.length + L2 * model.repWeights[i]!);
      model.nobodyWeights[i]! -=
        LEARNING_RATE * (nobodyGradient[i]! / calls.length + L2 * model.nobodyWeights[i]!);
    }
  }
  return model;
}

function emptyTally() {
  return { withRep: 0, answered: 0, right: 0, abstained: 0, customer: 0, symmetric: 0, symmetricPicked: 0 };
}

function crossValidate(records: readonly AuthoredRecord[]): void {
  const examples = loadExamples(records);
  const pct = (a: number, n: number): string => `${((100 * a) / Math.max(1, n)).toFixed(1)}%`;
  const total = emptyTally();
  console.log('author     calls  accuracy (answered)  abstention  customer picks  symmetric picked');
  for (const author of authorsOf(records)) {
    const model = train(examples.filter((ex) => ex.author !== author));
    const t = emptyTally();
    const held = records.filter((r) => r.author === author);
    for (const { record } of held) {
      const pick =
        inferRepSpeaker(toTurns(record.segments), { excludedLabels: new Set() }, model)?.label ?? null;
      if (record.rep_speaker === null) {
        t.symmetric++;
        if (pick !== null) t.symmetricPicked++;
        continue;
      }
      t.withRep++;
      if (pick === null) t.abstained++;
      else {
        t.answered++;
        if (pick === record.rep_speaker) t.right++;
        else if (!isRepSide(record, pick)) t.customer++;
      }
    }
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += t[key];
    console.log(
      `${author.padEnd(9)} ${String(held.length).padStart(6)}  ${pct(t.right, t.answered).padStart(19)}  ${pct(t.abstained, t.withRep).padStart(10)}  ${String(t.customer).padStart(14)}  ${`${t.symmetricPicked}/${t.symmetric}`.padStart(16)}`,
    );
  }
  console.log(
    `all       ${String(records.length).padStart(6)}  ${pct(total.right, total.answered).padStart(19)}  ${pct(total.abstained, total.withRep).padStart(10)}  ${String(total.customer).padStart(14)}  ${`${total.symmetricPicked}/${total.symmetric}`.padStart(16)}`,
  );
}

const records = loadDevelopmentSets();
if (process.argv.includes('--cv')) {
  console.log('Speaker inference on each author with the word model trained on the other authors:');
  crossValidate(records);
} else {
  const model = train(loadExamples(records));
  const file = path.join(repoRoot, 'src/ingest/speaker-weights.ts');
  // Row-major, two weights per feature (rep, nobody), as the call-type model's classes.
  const weights = new Float64Array(model.index.names.length * SPEAKER_MODEL_CLASSES.length);
  model.repWeights.forEach((w, row) => (weights[2 * row] = w));
  model.nobodyWeights.forEach((w, row) => (weights[2 * row + 1] = w));
  writeFileSync(
    file,
    weightsModule('SPEAKER_WEIGHTS', 'npm run train:speaker', {
      names: model.index.names,
      weights,
      bias: [0, model.nobodyBias],
      classes: SPEAKER_MODEL_CLASSES,
    }),
  );
  console.log(
    `${model.index.names.length} features, ${records.length} calls → ${path.relative(repoRoot, file)}`,
  );
}
