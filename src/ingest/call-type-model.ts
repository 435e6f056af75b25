/**
 * Pure: the word model of call-type classification. A multinomial logistic regression over the words and word pairs
 * of a call (word-features.ts), each read twice: as said by the rep's side or the other side ("r:", "o:"; "u:" when
 * the rep is unknown) and as said by anyone ("*:"). Trained by eval/train-call-type.ts on the project's development
 * dialogues (decisions §26); only words and pairs used by at least three of their authors are kept, so no author's
 * wording is learnt. It carries what phrase families miss: the ordinary vocabulary of each kind of call.
 * Linear time: one pass over the words, one lookup per word and pair.
 */
import { CALL_TYPE_WEIGHTS } from './call-type-weights.js';
import type { Turn } from './transcript.js';
import {
  buildWordIndex,
  decodeWeights,
  FeatureRows,
  forEachWordFeature,
  splitFeatureNames,
  wordsOf,
  type WordIndex,
} from './word-features.js';

export interface CallTypeModel {
  index: WordIndex;
  /** Row-major: `classes.length` weights per feature. */
  weights: Float32Array | Float64Array;
  bias: readonly number[];
  classes: readonly string[];
}

/** Whose words: the rep's side, the other side, or unknown (no rep label); every word also counts under "*". */
function sideOf(turn: Turn, repLabel: string | null): string {
  return repLabel === null ? 'u' : turn.speaker === repLabel ? 'r' : 'o';
}

/** Calls `visit` with every feature name of the call, repeats included (training reads calls this way). */
export function forEachCallFeature(
  turns: readonly Turn[],
  repLabel: string | null,
  visit: (name: string) => void,
): void {
  for (const turn of turns) {
    const words = wordsOf(turn.text);
    forEachWordFeature(sideOf(turn, repLabel), words, visit);
    forEachWordFeature('*', words, visit);
  }
}

/** The distinct feature rows of a call, as the model sees it (features it does not know are ignored). */
export function callFeatureRows(
  model: CallTypeModel,
  turns: readonly Turn[],
  repLabel: string | null,
): number[] {
  const rows = new FeatureRows(model.index);
  for (const turn of turns) rows.add([sideOf(turn, repLabel), '*'], wordsOf(turn.text));
  return rows.rows;
}

/** A model from its feature names and parameters. */
export function buildCallTypeModel(
  names: readonly string[],
  weights: Float32Array | Float64Array,
  bias: readonly number[],
  classes: readonly string[],
): CallTypeModel {
  if (weights.length !== names.length * classes.length)
    throw new Error('call-type weights do not match their feature list');
  return { index: buildWordIndex(names), weights, bias, classes };
}

/** Class scores before the softmax: presence features, scaled by 1/√n so long calls do not shout. */
export function callTypeLogits(model: CallTypeModel, rows: readonly number[]): number[] {
  const k = model.classes.length;
  const logits = [...model.bias];
  const scale = 1 / Math.sqrt(Math.max(1, rows.length));
  for (const row of rows) {
    const base = row * k;
    for (let c = 0; c < k; c++) logits[c]! += model.weights[base + c]! * scale;
  }
  return logits;
}

let shipped: CallTypeModel | null = null;

/**
 * The shipped model (call-type-weights.ts), decoded on first use: a process that never classifies (clients send
 * call_type, a `callscore worker`) does not hold it.
 */
export function shippedCallTypeModel(): CallTypeModel {
  shipped ??= buildCallTypeModel(
    splitFeatureNames(CALL_TYPE_WEIGHTS.features),
    decodeWeights(CALL_TYPE_WEIGHTS.weights, CALL_TYPE_WEIGHTS.step),
    CALL_TYPE_WEIGHTS.bias,
    CALL_TYPE_WEIGHTS.classes,
  );
  return shipped;
}
