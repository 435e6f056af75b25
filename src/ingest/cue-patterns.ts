/**
 * Pure: many cue families scanned as a few combined regular expressions, one capture group per family, shared by
 * speaker inference and call-type classification. V8 stops optimising a regular expression whose source passes
 * 20 KB (a 2,000-turn call then takes ten to a hundred times longer), so each combined pattern stays under 16,000
 * characters, and `forEachCue` merges their matches so they behave as one pattern over all families would.
 */

export interface CombinedPattern {
  regex: RegExp;
  /** Index of each capture group's family (group k + 1) in the list given to `combineCueFamilies`. */
  families: number[];
}

const COMBINED_SOURCE_LIMIT = 16_000;
/** The size past which V8 stops optimising a regular expression. */
const REGEXP_OPTIMISED_LIMIT = 20 * 1024;

/**
 * A family pattern without the word boundary that opens each of its top-level alternatives: the combined expression
 * opens with one (same matches), and those boundaries are a tenth of the source.
 */
function withoutOpeningBoundaries(pattern: string): string {
  let out = '';
  let depth = 0;
  let inClass = false;
  let atAlternative = true;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (atAlternative && depth === 0 && pattern.startsWith('\\b', i)) {
      i++;
      atAlternative = false;
      continue;
    }
    atAlternative = false;
    out += ch;
    if (ch === '\\') {
      out += pattern[++i] ?? '';
      continue;
    }
    if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) atAlternative = true;
  }
  return out;
}

/**
 * Combines the family patterns (in order) for which `keep(index, pattern)` holds; `keep` exists for the
 * evaluation's family-dropout measure (eval/dropout.ts).
 */
export function combineCueFamilies(
  patterns: readonly string[],
  keep: (family: number, pattern: string) => boolean = () => true,
): CombinedPattern[] {
  const groups: CombinedPattern[] = [];
  let parts: string[] = [];
  let families: number[] = [];
  let size = 0;
  const close = (): void => {
    const regex = new RegExp(`\\b(?:${parts.join('|')})`, 'g');
    if (regex.source.length >= REGEXP_OPTIMISED_LIMIT)
      throw new Error(`a cue family is ${regex.source.length} characters: split or shorten it`);
    groups.push({ regex, families });
    parts = [];
    families = [];
    size = 0;
  };
  patterns.forEach((pattern, i) => {
    if (!keep(i, pattern)) return;
    const part = `(${withoutOpeningBoundaries(pattern)})`;
    if (parts.length > 0 && size + part.length > COMBINED_SOURCE_LIMIT) close();
    parts.push(part);
    families.push(i);
    size += part.length + 1;
  });
  if (parts.length > 0) close();
  return groups;
}

/**
 * Each cue as one pattern over all families would find it: the leftmost match wins, the first family on a tie, and
 * the scan resumes after it, so a phrase that fits two families counts once.
 */
export function forEachCue(
  combined: readonly CombinedPattern[],
  text: string,
  visit: (family: number, phrase: string) => void,
): void {
  const pending = combined.map(({ regex }) => {
    regex.lastIndex = 0;
    return regex.exec(text);
  });
  for (;;) {
    let next = -1;
    for (let i = 0; i < pending.length; i++) {
      const m = pending[i];
      if (m != null && (next < 0 || m.index < pending[next]!.index)) next = i;
    }
    if (next < 0) return;
    const m = pending[next]!;
    const g = m.findIndex((group, k) => k > 0 && group !== undefined);
    if (g > 0) visit(combined[next]!.families[g - 1]!, m[g]!);
    const resume = m.index + Math.max(1, m[0].length);
    for (let i = 0; i < pending.length; i++) {
      if (pending[i] != null && pending[i]!.index < resume) {
        const { regex } = combined[i]!;
        regex.lastIndex = resume;
        pending[i] = regex.exec(text);
      }
    }
  }
}

/**
 * A module's cue families, combined once, with the switch the evaluation's family-dropout measure uses
 * (eval/dropout.ts) to read calls with only some of them.
 */
export class CueFamilySet {
  combined: CombinedPattern[];

  constructor(private readonly patterns: readonly string[]) {
    this.combined = combineCueFamilies(patterns);
  }

  /** Keep only the families for which `keep(index, pattern)` holds, or all again when null; returns the count. */
  keepOnly(keep: ((family: number, pattern: string) => boolean) | null): number {
    this.combined = combineCueFamilies(this.patterns, keep ?? undefined);
    return this.patterns.length;
  }
}
