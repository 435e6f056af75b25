/**
 * Pure: the word model of speaker inference. A logistic regression that reads one speaker's words and word pairs
 * (word-features.ts, prefix "s:") and answers how much they sound like the rep: offering, explaining the product,
 * asking about the buyer's situation, proposing next steps. Each speaker is read alone, so the answer never depends
 * on who spoke first. Trained by eval/train-speaker.ts on the development dialogues (decisions §27), with the same
 * feature selection as the call-type model: words and pairs of three or more authors, no names.
 */
import { SPEAKER_WEIGHTS } from './speaker-weights.js';
import type { Turn } from './transcript.js';
import {
  buildWordIndex,
  decodeWeights,
  FeatureRows,
  forEachWordFeature,
  sigmoid,
  splitFeatureNames,
  wordsOf,
  type WordIndex,
} from './word-features.js';

export interface SpeakerModel {
  index: WordIndex;
  weights: Float32Array | Float64Array;
  bias: number;
  /** EXPERIMENT: a choice among the call's speakers and "nobody" (bias = nobody's score). */
  choice?: boolean;
  /** EXPERIMENT: weights of the whole call's words toward "nobody". */
  nullWeights?: Float64Array;
}

export function nullLogit(model: SpeakerModel, rows: ReadonlyMap<string, readonly number[]>): number {
  if (!model.nullWeights) return model.bias;
  const union = new Set<number>();
  for (const r of rows.values()) for (const row of r) union.add(row);
  let sum = 0;
  for (const row of union) sum += model.nullWeights[row]!;
  return model.bias + sum / Math.sqrt(Math.max(1, union.size));
}

/** Calls `visit` with every feature name of every speaker, repeats included (training reads speakers this way). */
export function forEachSpeakerFeature(
  turns: readonly Turn[],
  visit: (label: string, name: string) => void,
): void {
  for (const turn of turns) forEachWordFeature('s', wordsOf(turn.text), (name) => visit(turn.speaker, name));
}

/** The distinct feature rows of each speaker, as the model sees them. */
export function speakerFeatureRows(model: SpeakerModel, turns: readonly Turn[]): Map<string, number[]> {
  const bySpeaker = new Map<string, FeatureRows>();
  for (const turn of turns) {
    let rows = bySpeaker.get(turn.speaker);
    if (rows === undefined) bySpeaker.set(turn.speaker, (rows = new FeatureRows(model.index)));
    rows.add(['s'], wordsOf(turn.text));
  }
  return new Map([...bySpeaker].map(([label, rows]) => [label, rows.rows]));
}

/** Score before the sigmoid: presence features, scaled by 1/√n so a talkative speaker does not shout. */
export function speakerLogit(model: SpeakerModel, rows: readonly number[]): number {
  let sum = 0;
  for (const row of rows) sum += model.weights[row]!;
  return model.bias + sum / Math.sqrt(Math.max(1, rows.length));
}

/** Per speaker, how likely their words are the rep's (0–1), each judged alone, from speakerFeatureRows. */
export function likelihoodsOf(
  model: SpeakerModel,
  rows: ReadonlyMap<string, readonly number[]>,
): Map<string, number> {
  if (!model.choice) return new Map([...rows].map(([label, r]) => [label, sigmoid(speakerLogit(model, r))]));
  const logits = [...rows].map(([label, r]) => [label, speakerLogit(model, r) - model.bias] as const);
  const nobody = nullLogit(model, rows);
  const top = Math.max(nobody, ...logits.map(([, z]) => z));
  let sum = Math.exp(nobody - top);
  for (const [, z] of logits) sum += Math.exp(z - top);
  return new Map(logits.map(([label, z]) => [label, Math.exp(z - top) / sum]));
}

export function buildSpeakerModel(
  names: readonly string[],
  weights: Float32Array | Float64Array,
  bias: number,
): SpeakerModel {
  if (weights.length !== names.length) throw new Error('speaker weights do not match their feature list');
  return { index: buildWordIndex(names), weights, bias };
}

let shipped: SpeakerModel | null = null;

/** The shipped model (speaker-weights.ts), decoded on first use, as shippedCallTypeModel. */
export function shippedSpeakerModel(): SpeakerModel {
  shipped ??= buildSpeakerModel(
    splitFeatureNames(SPEAKER_WEIGHTS.features),
    decodeWeights(SPEAKER_WEIGHTS.weights, SPEAKER_WEIGHTS.step),
    SPEAKER_WEIGHTS.bias[0] ?? 0,
  );
  return shipped;
}
