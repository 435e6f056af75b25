/**
 * Trains the word model of speaker inference (src/ingest/speaker-model.ts) on the development sets and writes
 * src/ingest/speaker-weights.ts. Run: `npm run train:speaker`.
 *
 * `--cv` writes nothing and prints instead, per development set's author, how the whole inference (phrases,
 * structure and this model) does when the model is trained on the other authors only: the honest measure of text by
 * an unseen author for the model's part (the phrases were tuned on these sets). The blind sets are never read.
 *
 * Training: one example per speaker of a call with a rep: the rep 1, customers and other non-sellers 0; the rep's
 * own colleagues (sales engineers, managers) are left out, being neither. Full-batch gradient descent on the
 * logistic loss with a small L2 penalty, deterministic. Features: as word-model-training.ts selects them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { inferRepSpeaker } from '../src/ingest/infer-speaker.js';
import {
  buildSpeakerModel,
  forEachSpeakerFeature,
  speakerLogit,
  type SpeakerModel,
} from '../src/ingest/speaker-model.js';
import { sigmoid } from '../src/ingest/word-features.js';
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

const { epochs: EPOCHS, learningRate: LEARNING_RATE, l2: L2 } = TRAINING;

interface Example extends AuthoredRecord {
  label: string;
  isRep: boolean;
  features: Set<string>;
}

function loadExamples(records: readonly AuthoredRecord[]): Example[] {
  return records.flatMap((r) => {
    if (r.record.rep_speaker === null) return [];
    const bySpeaker = new Map<string, Set<string>>();
    forEachSpeakerFeature(toTurns(r.record.segments), (label, name) => {
      let set = bySpeaker.get(label);
      if (set === undefined) bySpeaker.set(label, (set = new Set()));
      set.add(name);
    });
    return [...bySpeaker]
      .map(([label, features]) => ({ ...r, label, isRep: label === r.record.rep_speaker, features }))
      .filter((ex) => ex.isRep || !isRepSide(ex.record, ex.label));
  });
}

function train(examples: readonly Example[]): SpeakerModel {
  const names = selectFeatures(examples);
  const rowOf = new Map(names.map((f, row) => [f, row]));
  const model = buildSpeakerModel(names, new Float64Array(names.length), 0);
  const rows = examples.map((ex) => rowsIn(rowOf, ex.features));
  const gradient = new Float64Array(names.length);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    gradient.fill(0);
    let biasGradient = 0;
    examples.forEach((ex, n) => {
      const g = sigmoid(speakerLogit(model, rows[n]!)) - (ex.isRep ? 1 : 0);
      biasGradient += g;
      const scaled = g / Math.sqrt(Math.max(1, rows[n]!.length));
      for (const row of rows[n]!) gradient[row]! += scaled;
    });
    model.bias -= (LEARNING_RATE * biasGradient) / examples.length;
    for (let i = 0; i < names.length; i++)
      model.weights[i]! -= LEARNING_RATE * (gradient[i]! / examples.length + L2 * model.weights[i]!);
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
  writeFileSync(
    file,
    weightsModule('SPEAKER_WEIGHTS', 'npm run train:speaker', {
      ...model,
      names: model.index.names,
      bias: [model.bias],
    }),
  );
  console.log(
    `${model.index.names.length} features, ${records.length} calls → ${path.relative(repoRoot, file)}`,
  );
}
