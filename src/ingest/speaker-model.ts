/**
 * Pure: the word model of speaker inference. A choice among the call's speakers and "nobody" (a conditional logit):
 * each speaker's score reads their words and word pairs (word-features.ts, prefix "s:"), how much they sound like
 * the rep: offering, explaining the product, asking about the buyer's situation, proposing next steps; nobody's score
 * reads the whole call's words (no seller on the call: two peers, two buyers). The softmax over these answers which
 * one is the rep, so a sales engineer or a manager beside the rep competes with them instead of being judged alone,
 * and labels and turn order play no part. Trained by eval/train-speaker.ts on the development dialogues (decisions
 * §27, §30), with the same feature selection as the call-type model: words and pairs of three or more authors, no
 * names.
 */
import { SPEAKER_WEIGHTS } from './speaker-weights.js';
import type { Turn } from './transcript.js';
import {
  buildWordIndex,
  decodeWeights,
  FeatureRows,
  forEachWordFeature,
  softmax,
  splitFeatureNames,
  wordsOf,
  type WordIndex,
} from './word-features.js';

export interface SpeakerModel {
  index: WordIndex;
  /** Per feature: its weight toward "this speaker is the rep" when a speaker says it. */
  repWeights: Float32Array | Float64Array;
  /** Per feature: its weight toward "nobody is the rep" when anyone on the call says it. */
  nobodyWeights: Float32Array | Float64Array;
  /** Nobody's base score. */
  nobodyBias: number;
}

/** The classes of the weights module, row-major per feature. */
export const SPEAKER_MODEL_CLASSES = ['rep', 'nobody'] as const;

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

/** Sum of `weights` over `rows`, scaled by 1/√n so a talkative speaker (or a long call) does not shout. */
function presenceScore(weights: Float32Array | Float64Array, rows: Iterable<number>, n: number): number {
  let sum = 0;
  for (const row of rows) sum += weights[row]!;
  return sum / Math.sqrt(Math.max(1, n));
}

/** The distinct rows said by anyone on the call (what nobody's score reads). */
export function callRows(rows: ReadonlyMap<string, readonly number[]>): number[] {
  const all = new Set<number>();
  for (const r of rows.values()) for (const row of r) all.add(row);
  return [...all];
}

/** Scores before the softmax: one per speaker, in `rows` order, then nobody's. */
export function speakerScores(model: SpeakerModel, rows: ReadonlyMap<string, readonly number[]>): number[] {
  const everyone = callRows(rows);
  return [
    ...[...rows.values()].map((r) => presenceScore(model.repWeights, r, r.length)),
    model.nobodyBias + presenceScore(model.nobodyWeights, everyone, everyone.length),
  ];
}

/**
 * Per speaker, how likely they are the rep (0–1), from speakerFeatureRows. The speakers' values and nobody's (the
 * rest) add up to 1.
 */
export function likelihoodsOf(
  model: SpeakerModel,
  rows: ReadonlyMap<string, readonly number[]>,
): Map<string, number> {
  const p = softmax(speakerScores(model, rows));
  return new Map([...rows.keys()].map((label, i) => [label, p[i]!]));
}

export function buildSpeakerModel(
  names: readonly string[],
  repWeights: Float32Array | Float64Array,
  nobodyWeights: Float32Array | Float64Array,
  nobodyBias: number,
): SpeakerModel {
  if (repWeights.length !== names.length || nobodyWeights.length !== names.length)
    throw new Error('speaker weights do not match their feature list');
  return { index: buildWordIndex(names), repWeights, nobodyWeights, nobodyBias };
}

let shipped: SpeakerModel | null = null;

/** The shipped model (speaker-weights.ts, two weights per feature), decoded on first use, as shippedCallTypeModel. */
export function shippedSpeakerModel(): SpeakerModel {
  if (shipped) return shipped;
  const names = splitFeatureNames(SPEAKER_WEIGHTS.features);
  const both = decodeWeights(SPEAKER_WEIGHTS.weights, SPEAKER_WEIGHTS.step);
  const k = SPEAKER_MODEL_CLASSES.length;
  const column = (c: number) => Float32Array.from({ length: names.length }, (_, row) => both[row * k + c]!);
  shipped = buildSpeakerModel(names, column(0), column(1), SPEAKER_WEIGHTS.bias[1] ?? 0);
  return shipped;
}
