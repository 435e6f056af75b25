/** Pure: transcript forms → merged turns, limits, fingerprint. (Being written.) */

/** One merged turn: consecutive segments of the same exact label joined. */
export interface Turn {
  speaker: string;
  text: string;
  /** Offset from call start of the turn's first segment, when known. */
  start_ms: number | null;
}
