/**
 * Pure: the word features shared by the two word models (call-type-model.ts, speaker-model.ts). A feature is a word
 * or a pair of adjacent words under a prefix naming whose words they are: `r:renewal`, `*:next steps`. Names are
 * what training counts and the weight files list; at run time they are found through word ids, so no pair string
 * is built. Also the int16 weight decoding and the softmax both models use.
 */
import { normalizeForCues } from './cue-text.js';

const WORD = /[a-z][a-z']*/g;

/** The words of a turn, in the normalised form of the cue patterns (cue-text.ts). */
export function wordsOf(text: string): string[] {
  return normalizeForCues(text).match(WORD) ?? [];
}

/** Calls `visit` with the name of every word and adjacent pair of `words` under `prefix`, repeats included. */
export function forEachWordFeature(
  prefix: string,
  words: readonly string[],
  visit: (name: string) => void,
): void {
  for (let i = 0; i < words.length; i++) {
    visit(`${prefix}:${words[i]}`);
    if (i + 1 < words.length) visit(`${prefix}:${words[i]} ${words[i + 1]}`);
  }
}

/** Feature names in row order, and the lookup from word ids to rows (-1 or absent: not a feature). */
export interface WordIndex {
  names: readonly string[];
  words: ReadonlyMap<string, number>;
  wordRows: ReadonlyMap<string, Int32Array>;
  pairRows: ReadonlyMap<string, ReadonlyMap<number, number>>;
}

/** The feature names of a weights module, one per line ('' when it has none). */
export function splitFeatureNames(joined: string): string[] {
  return joined === '' ? [] : joined.split('\n');
}

export function buildWordIndex(names: readonly string[]): WordIndex {
  const words = new Map<string, number>();
  const idOf = (word: string): number => {
    let id = words.get(word);
    if (id === undefined) words.set(word, (id = words.size));
    return id;
  };
  // Two passes (ids first, then rows) so the per-side word tables are sized once, without intermediate objects.
  const parts = names.map((name) => {
    const colon = name.indexOf(':');
    const space = name.indexOf(' ', colon);
    return space < 0
      ? ([name.slice(0, colon), idOf(name.slice(colon + 1)), -1] as const)
      : ([name.slice(0, colon), idOf(name.slice(colon + 1, space)), idOf(name.slice(space + 1))] as const);
  });
  const wordRows = new Map<string, Int32Array>();
  const pairRows = new Map<string, Map<number, number>>();
  parts.forEach(([prefix, first, second], row) => {
    if (second < 0) {
      let rows = wordRows.get(prefix);
      if (rows === undefined) wordRows.set(prefix, (rows = new Int32Array(words.size).fill(-1)));
      rows[first] = row;
    } else {
      let rows = pairRows.get(prefix);
      if (rows === undefined) pairRows.set(prefix, (rows = new Map()));
      rows.set(first * words.size + second, row);
    }
  });
  return { names, words, wordRows, pairRows };
}

/** Collects the distinct rows of the features of runs of words, as forEachWordFeature names them. */
export class FeatureRows {
  readonly rows: number[] = [];
  private readonly seen: Uint8Array;

  constructor(private readonly index: WordIndex) {
    this.seen = new Uint8Array(index.names.length);
  }

  add(prefixes: readonly string[], words: readonly string[]): void {
    const { words: ids, wordRows, pairRows } = this.index;
    const count = ids.size;
    let previous = -1;
    for (const word of words) {
      const id = ids.get(word) ?? -1;
      if (id >= 0) {
        for (const prefix of prefixes) {
          this.take(wordRows.get(prefix)?.[id]);
          if (previous >= 0) this.take(pairRows.get(prefix)?.get(previous * count + id));
        }
      }
      previous = id;
    }
  }

  private take(row: number | undefined): void {
    if (row !== undefined && row >= 0 && this.seen[row] === 0) {
      this.seen[row] = 1;
      this.rows.push(row);
    }
  }
}

/** Weights stored as little-endian int16 in base64, in steps of `step` (float32 holds them exactly enough). */
export function decodeWeights(base64: string, step: number): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const weights = new Float32Array(bytes.length / 2);
  for (let i = 0; i < weights.length; i++) weights[i] = view.getInt16(2 * i, true) * step;
  return weights;
}

export function softmax(logits: readonly number[]): number[] {
  const top = Math.max(...logits);
  const e = logits.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, v) => a + v, 0);
  return e.map((v) => v / sum);
}
