/**
 * Pure: the word model of call-type classification. A multinomial logistic regression over the words and word pairs
 * of a call, each read twice: as said by the rep's side or the other side ("r:", "o:"; "u:" when the rep is
 * unknown) and as said by anyone ("*:"). Trained by eval/train-call-type.ts on the project's development dialogues
 * (decisions §26); only words and pairs used by at least three of their authors are kept, so no author's
 * wording is learnt. It carries what phrase families miss: the ordinary vocabulary of each kind of call.
 * Linear time: one pass over the words, one lookup per word and pair.
 */
import { CALL_TYPE_WEIGHTS } from './call-type-weights.js';
import { normalizeForCues } from './cue-text.js';
import type { Turn } from './transcript.js';

/** Who said a word: the rep's side, the other side, unknown (no rep label), or anyone. */
export type FeatureSide = 'r' | 'o' | 'u' | '*';
const SIDES: readonly FeatureSide[] = ['r', 'o', 'u', '*'];

export interface CallTypeModel {
  /** Feature names in row order: `${side}:${word}` or `${side}:${word} ${word}`. */
  names: readonly string[];
  /** Row-major: `classes.length` weights per feature. */
  weights: Float64Array;
  bias: readonly number[];
  classes: readonly string[];
  /** The lookup built from `names`: word ids, then per side a row per word and per word pair (-1: none). */
  words: ReadonlyMap<string, number>;
  wordRows: Readonly<Record<FeatureSide, Int32Array>>;
  pairRows: Readonly<Record<FeatureSide, ReadonlyMap<number, number>>>;
}

const WORD = /[a-z][a-z']*/g;

function sideOf(turn: Turn, repLabel: string | null): FeatureSide {
  return repLabel === null ? 'u' : turn.speaker === repLabel ? 'r' : 'o';
}

function wordsOf(turn: Turn): string[] {
  return normalizeForCues(turn.text).match(WORD) ?? [];
}

/** Calls `visit` with every feature name of the call, repeats included (training reads calls this way). */
export function forEachCallFeature(
  turns: readonly Turn[],
  repLabel: string | null,
  visit: (name: string) => void,
): void {
  for (const turn of turns) {
    const side = sideOf(turn, repLabel);
    const words = wordsOf(turn);
    for (let i = 0; i < words.length; i++) {
      visit(`${side}:${words[i]}`);
      visit(`*:${words[i]}`);
      if (i + 1 < words.length) {
        visit(`${side}:${words[i]} ${words[i + 1]}`);
        visit(`*:${words[i]} ${words[i + 1]}`);
      }
    }
  }
}

/**
 * The distinct feature rows of a call, as the model sees it (features it does not know are ignored). Same features
 * as forEachCallFeature, found through word ids so that no pair string is built.
 */
export function callFeatureRows(
  model: CallTypeModel,
  turns: readonly Turn[],
  repLabel: string | null,
): number[] {
  const seen = new Uint8Array(model.names.length);
  const rows: number[] = [];
  const take = (row: number | undefined): void => {
    if (row !== undefined && row >= 0 && seen[row] === 0) {
      seen[row] = 1;
      rows.push(row);
    }
  };
  const wordCount = model.words.size;
  const anyone = '*';
  for (const turn of turns) {
    const side = sideOf(turn, repLabel);
    let previous = -1;
    for (const word of wordsOf(turn)) {
      const id = model.words.get(word) ?? -1;
      if (id >= 0) {
        take(model.wordRows[side][id]);
        take(model.wordRows[anyone][id]);
        if (previous >= 0) {
          const key = previous * wordCount + id;
          take(model.pairRows[side].get(key));
          take(model.pairRows[anyone].get(key));
        }
      }
      previous = id;
    }
  }
  return rows;
}

/** A model from its feature names and parameters, with the lookup callFeatureRows needs. */
export function buildCallTypeModel(
  names: readonly string[],
  weights: Float64Array,
  bias: readonly number[],
  classes: readonly string[],
): CallTypeModel {
  if (weights.length !== names.length * classes.length)
    throw new Error('call-type weights do not match their feature list');
  const parsed = names.map((name) => {
    const colon = name.indexOf(':');
    return { side: name.slice(0, colon) as FeatureSide, grams: name.slice(colon + 1).split(' ') };
  });
  const words = new Map<string, number>();
  for (const { grams } of parsed) for (const w of grams) if (!words.has(w)) words.set(w, words.size);
  const wordRows = Object.fromEntries(
    SIDES.map((side) => [side, new Int32Array(words.size).fill(-1)]),
  ) as Record<FeatureSide, Int32Array>;
  const pairRows = Object.fromEntries(SIDES.map((side) => [side, new Map<number, number>()])) as Record<
    FeatureSide,
    Map<number, number>
  >;
  parsed.forEach(({ side, grams }, row) => {
    const ids = grams.map((w) => words.get(w)!);
    if (ids.length === 1) wordRows[side][ids[0]!] = row;
    else pairRows[side].set(ids[0]! * words.size + ids[1]!, row);
  });
  return { names, weights, bias, classes, words, wordRows, pairRows };
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

export function softmax(logits: readonly number[]): number[] {
  const top = Math.max(...logits);
  const e = logits.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, v) => a + v, 0);
  return e.map((v) => v / sum);
}

/** Decodes the generated weights module (feature list and int16 weights quantised in steps of `step`). */
export function decodeCallTypeModel(encoded: {
  classes: readonly string[];
  features: string;
  step: number;
  weights: string;
  bias: readonly number[];
}): CallTypeModel {
  const names = encoded.features === '' ? [] : encoded.features.split('\n');
  const bytes = Buffer.from(encoded.weights, 'base64');
  const weights = new Float64Array(bytes.length / 2);
  for (let i = 0; i < weights.length; i++) weights[i] = bytes.readInt16LE(2 * i) * encoded.step;
  return buildCallTypeModel(names, weights, encoded.bias, encoded.classes);
}

export const CALL_TYPE_MODEL: CallTypeModel = decodeCallTypeModel(CALL_TYPE_WEIGHTS);
