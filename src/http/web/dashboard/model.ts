/**
 * Pure dashboard arithmetic: the week window, totals summed from the grouped buckets, and per-criterion averages
 * from the criteria JSON of current results (N/A and unscored criteria excluded).
 */
import type { DashboardBucket } from '../../../store/dashboard.repo.js';

export const WEEKS = 12;
/** Criteria JSON is parsed for at most this many of the newest scored calls of the window. */
export const CRITERIA_SAMPLE = 1000;
/** At most this many criteria are charted (the weakest first); the table lists the same ones. */
export const MAX_CRITERIA = 24;

const DAY_MS = 24 * 3600_000;
const WEEK_MS = 7 * DAY_MS;

/**
 * `weeks + 1` boundaries (ISO strings, oldest first): weeks start on Monday 00:00 UTC and the last one is the
 * current, partial week.
 */
export function weekBounds(now: Date, weeks = WEEKS): string[] {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const sinceMonday = (now.getUTCDay() + 6) % 7;
  const thisWeek = midnight - sinceMonday * DAY_MS;
  const first = thisWeek - (weeks - 1) * WEEK_MS;
  return Array.from({ length: weeks + 1 }, (_, i) => new Date(first + i * WEEK_MS).toISOString());
}

export interface Totals {
  calls: number;
  scored: number;
  scoreSum: number;
}

export interface WeekPoint {
  start: string;
  scored: number;
  /** Average score 0..100, null for a week without scored calls. */
  average: number | null;
}

export interface GroupRow {
  id: string;
  name: string;
  calls: number;
  scored: number;
  average: number | null;
}

export interface DashboardSummary {
  total: Totals;
  byStatus: Map<string, number>;
  weeks: WeekPoint[];
  teams: GroupRow[];
  reps: GroupRow[];
}

const average = (t: Totals): number | null => (t.scored > 0 ? t.scoreSum / t.scored : null);

function add(map: Map<string, Totals>, key: string, b: DashboardBucket): void {
  const t = map.get(key) ?? { calls: 0, scored: 0, scoreSum: 0 };
  t.calls += b.calls;
  t.scored += b.scored;
  t.scoreSum += b.score_sum;
  map.set(key, t);
}

function rows(map: Map<string, Totals>, names: Map<string, string>, unknown: string): GroupRow[] {
  return [...map]
    .map(([id, t]) => ({
      id,
      name: names.get(id) ?? unknown,
      calls: t.calls,
      scored: t.scored,
      average: average(t),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

export function summarise(
  buckets: DashboardBucket[],
  bounds: readonly string[],
  names: { teams: Map<string, string>; users: Map<string, string> },
): DashboardSummary {
  const total: Totals = { calls: 0, scored: 0, scoreSum: 0 };
  const byStatus = new Map<string, number>();
  const weekTotals = bounds.slice(0, -1).map(() => ({ calls: 0, scored: 0, scoreSum: 0 }));
  const teams = new Map<string, Totals>();
  const reps = new Map<string, Totals>();
  for (const b of buckets) {
    total.calls += b.calls;
    total.scored += b.scored;
    total.scoreSum += b.score_sum;
    byStatus.set(b.status, (byStatus.get(b.status) ?? 0) + b.calls);
    const w = weekTotals[b.week];
    if (w) {
      w.calls += b.calls;
      w.scored += b.scored;
      w.scoreSum += b.score_sum;
    }
    add(teams, b.team_id, b);
    add(reps, b.rep_user_id, b);
  }
  return {
    total,
    byStatus,
    weeks: weekTotals.map((t, i) => ({ start: bounds[i]!, scored: t.scored, average: average(t) })),
    teams: rows(teams, names.teams, 'Unknown team'),
    reps: rows(reps, names.users, 'Unknown user'),
  };
}

export interface CriterionAverage {
  key: string;
  title: string;
  /** Mean of the criterion's scores 0..1 over the calls where it applied and was scored. */
  average: number;
  /** How many calls that mean covers. */
  calls: number;
}

/**
 * Per-criterion averages over the given results (newest first), grouped by criterion key; the title shown is the
 * newest one seen for that key. N/A criteria and criteria without a numeric score are left out. Weakest first.
 */
export function criteriaAverages(criteriaJson: string[], max = MAX_CRITERIA): CriterionAverage[] {
  const acc = new Map<string, { title: string; sum: number; calls: number }>();
  for (const text of criteriaJson) {
    let list: unknown;
    try {
      list = JSON.parse(text);
    } catch {
      continue;
    }
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      if (!raw || typeof raw !== 'object') continue;
      const c = raw as Record<string, unknown>;
      if (c.na === true || typeof c.key !== 'string' || !c.key) continue;
      if (typeof c.score !== 'number' || !Number.isFinite(c.score)) continue;
      const score = Math.min(1, Math.max(0, c.score));
      const entry = acc.get(c.key);
      if (entry) {
        entry.sum += score;
        entry.calls += 1;
      } else {
        acc.set(c.key, {
          title: typeof c.title === 'string' && c.title ? c.title : c.key,
          sum: score,
          calls: 1,
        });
      }
    }
  }
  return [...acc]
    .map(([key, e]) => ({ key, title: e.title, average: e.sum / e.calls, calls: e.calls }))
    .sort((a, b) => a.average - b.average || a.title.localeCompare(b.title))
    .slice(0, max);
}
