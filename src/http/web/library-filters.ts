/**
 * The library's GET filters, shared by the library page (/calls) and its CSV export (/calls.csv). Invalid
 * values are dropped (the filter is simply not applied) rather than answered with an error page, like the
 * library's other filters.
 */
import type { LibraryFilters } from '../../store/web-calls.repo.js';

/** What the filter form shows and links carry, each a string ('' when not set). */
export interface LibraryFilterValues {
  team: string;
  rep: string;
  type: string;
  status: string;
  from: string;
  to: string;
  min_score: string;
  max_score: string;
  q: string;
}

/** A single short string query parameter, or '' (repeated or oversized values are ignored). */
function param(query: unknown, name: string): string {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length <= 200 ? value : '';
}

/** A real calendar day written YYYY-MM-DD, or ''. */
function day(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return '';
  const at = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().startsWith(value) ? value : '';
}

/** A score bound 0..100 (decimals allowed), as typed, or ''. */
function score(value: string): string {
  const trimmed = value.trim();
  if (!/^\d{1,3}(\.\d+)?$/.test(trimmed)) return '';
  return Number(trimmed) <= 100 ? trimmed : '';
}

export function libraryFilterValues(query: unknown): LibraryFilterValues {
  return {
    team: param(query, 'team'),
    rep: param(query, 'rep'),
    type: param(query, 'type'),
    status: param(query, 'status'),
    from: day(param(query, 'from')),
    to: day(param(query, 'to')),
    min_score: score(param(query, 'min_score')),
    max_score: score(param(query, 'max_score')),
    q: param(query, 'q').trim(),
  };
}

export function toLibraryFilters(values: LibraryFilterValues): LibraryFilters {
  return {
    teamId: values.team,
    repUserId: values.rep,
    callType: values.type,
    status: values.status,
    from: values.from,
    to: values.to,
    minScore: values.min_score ? Number(values.min_score) : null,
    maxScore: values.max_score ? Number(values.max_score) : null,
    q: values.q,
  };
}

/** The non-empty filters as URL parameters, in a stable order. */
export function filterParams(values: LibraryFilterValues): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  return params;
}
