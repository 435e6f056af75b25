/**
 * Trains the word model of call-type classification (src/ingest/call-type-model.ts) on the development sets and
 * writes src/ingest/call-type-weights.ts. Run: `npm run train:call-type`.
 *
 * `--cv` writes nothing and prints instead how the whole classifier (phrase families, structure and this model)
 * does on each development set's author when the model is trained on the other authors only: the honest measure of
 * text by an unseen author. The blind held-out sets are never used for training.
 *
 * Training: full-batch gradient descent on the softmax loss with a small L2 penalty, deterministic. Features: those
 * of forEachCallFeature, kept as word-model-training.ts selects them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CALL_TYPES, classifyCall } from '../src/ingest/classify-call.js';
import {
  buildCallTypeModel,
  callTypeLogits,
  forEachCallFeature,
  type CallTypeModel,
} from '../src/ingest/call-type-model.js';
import { softmax } from '../src/ingest/word-features.js';
import { readSet, toTurns } from './dialogues.js';
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
  features: Set<string>;
}

function loadExamples(): Example[] {
  return loadDevelopmentSets().map((r) => {
    const features = new Set<string>();
    forEachCallFeature(toTurns(r.record.segments), r.record.rep_speaker, (f) => features.add(f));
    return { ...r, features };
  });
}

function train(examples: readonly Example[]): CallTypeModel {
  const names = selectFeatures(examples);
  const rowOf = new Map(names.map((f, row) => [f, row]));
  const k = CALL_TYPES.length;
  const model = buildCallTypeModel(
    names,
    new Float64Array(names.length * k),
    new Array<number>(k).fill(0),
    CALL_TYPES,
  );
  const bias = model.bias as number[];
  const rows = examples.map((ex) => rowsIn(rowOf, ex.features));
  const targets = examples.map((ex) => CALL_TYPES.indexOf(ex.record.call_type));
  const gradient = new Float64Array(model.weights.length);
  const biasGradient = new Float64Array(k);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    gradient.fill(0);
    biasGradient.fill(0);
    examples.forEach((_, n) => {
      const p = softmax(callTypeLogits(model, rows[n]!));
      const scale = 1 / Math.sqrt(Math.max(1, rows[n]!.length));
      for (let c = 0; c < k; c++) {
        const g = p[c]! - (c === targets[n] ? 1 : 0);
        biasGradient[c]! += g;
        for (const row of rows[n]!) gradient[row * k + c]! += g * scale;
      }
    });
    for (let c = 0; c < k; c++) bias[c]! -= (LEARNING_RATE * biasGradient[c]!) / examples.length;
    for (let i = 0; i < model.weights.length; i++)
      model.weights[i]! -= LEARNING_RATE * (gradient[i]! / examples.length + L2 * model.weights[i]!);
  }
  return model;
}

function crossValidate(examples: readonly Example[]): void {
  let correct = 0;
  /** label → predicted, over every author's misses. */
  const misses = new Map<string, number>();
  for (const author of authorsOf(examples)) {
    const model = train(examples.filter((ex) => ex.author !== author));
    const held = examples.filter((ex) => ex.author === author);
    let right = 0;
    for (const { record } of held) {
      const type = classifyCall(toTurns(record.segments), record.rep_speaker, model).callType;
      if ((record.meta.call_type_acceptable ?? [record.call_type]).includes(type)) right++;
      else
        misses.set(`${record.call_type} → ${type}`, (misses.get(`${record.call_type} → ${type}`) ?? 0) + 1);
    }
    correct += right;
    console.log(
      `${author.padEnd(9)} ${String(held.length).padStart(4)} calls  ${((100 * right) / held.length).toFixed(1)}%`,
    );
  }
  console.log(
    `all       ${String(examples.length).padStart(4)} calls  ${((100 * correct) / examples.length).toFixed(1)}%`,
  );
  const top = [...misses].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(`most frequent misses: ${top.map(([pair, n]) => `${pair} ×${n}`).join(', ')}`);
  // Out of domain: chats persuading a stranger to give to a charity, labelled cold calls; never trained on.
  const outside = readSet(path.join(repoRoot, '../shared/data/transcripts/persuasionforgood.jsonl'));
  const model = train(examples);
  const right = outside.filter(
    (r) => classifyCall(toTurns(r.segments), r.rep_speaker, model).callType === r.call_type,
  );
  console.log(
    `shared persuasionforgood (model trained on all authors) ${((100 * right.length) / outside.length).toFixed(1)}%`,
  );
}

const examples = loadExamples();
if (process.argv.includes('--cv')) {
  console.log(
    'Call type on each author with the word model trained on the other authors (phrase families as they are):',
  );
  crossValidate(examples);
} else {
  const model = train(examples);
  const file = path.join(repoRoot, 'src/ingest/call-type-weights.ts');
  writeFileSync(
    file,
    weightsModule('CALL_TYPE_WEIGHTS', 'npm run train:call-type', { ...model, names: model.index.names }),
  );
  console.log(
    `${model.index.names.length} features, ${examples.length} calls → ${path.relative(repoRoot, file)}`,
  );
}
