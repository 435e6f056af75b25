/**
 * Pure: what changed between two versions of a scorecard's criteria, matched by key (the web app's version page
 * shows it, so a manager sees what a restore would bring back before doing it).
 */
import type { Criterion } from './criteria.js';

export interface CriteriaChanges {
  /** In `to` only. */
  added: { key: string; title: string }[];
  /** In `from` only. */
  removed: { key: string; title: string }[];
  /** In both, with the fields that differ. */
  changed: { key: string; title: string; fields: string[] }[];
}

const COMPARED = ['title', 'description', 'weight', 'check', 'applies_when'] as const;

export function compareCriteria(from: readonly Criterion[], to: readonly Criterion[]): CriteriaChanges {
  const before = new Map(from.map((c) => [c.key, c]));
  const after = new Map(to.map((c) => [c.key, c]));
  const brief = (c: Criterion) => ({ key: c.key, title: c.title });
  const changed: CriteriaChanges['changed'] = [];
  for (const c of to) {
    const old = before.get(c.key);
    if (!old) continue;
    const fields = COMPARED.filter((f) => JSON.stringify(old[f] ?? null) !== JSON.stringify(c[f] ?? null));
    if (fields.length) changed.push({ ...brief(c), fields });
  }
  return {
    added: to.filter((c) => !before.has(c.key)).map(brief),
    removed: from.filter((c) => !after.has(c.key)).map(brief),
    changed,
  };
}
