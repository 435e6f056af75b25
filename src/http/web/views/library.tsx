/** The call library: filters (GET), the visible calls newest first (by when they happened), keyset paging links. */
import {
  CALL_TYPES,
  STATUSES,
  callTypeLabel,
  formatCallScore,
  formatDateTime,
  scoreBand,
  statusLabel,
} from './format.js';
import { Layout, type LayoutProps } from './layout.js';
import { SelectField } from './fields.js';
import { filterParams, type LibraryFilterValues } from '../library-filters.js';

export interface LibraryRow {
  id: string;
  title: string;
  call_type: string | null;
  status: string;
  occurred_at: string | null;
  created_at: string;
  rep_name: string;
  team_name: string;
  score: number | null;
}

export interface LibraryPageProps extends Pick<LayoutProps, 'staging' | 'user' | 'csrfToken'> {
  rows: LibraryRow[];
  filters: LibraryFilterValues;
  teams: { id: string; name: string }[];
  reps: { id: string; name: string; email: string }[];
  nextHref: string | null;
  firstHref: string | null;
  filtered: boolean;
}

function ScoreCell(props: { score: number | null }): JSX.Element {
  if (props.score === null) {
    return (
      <span class="muted">
        <span aria-hidden="true">—</span>
        <span class="visually-hidden">No score</span>
      </span>
    );
  }
  const band = scoreBand(props.score);
  return <span class={`score score-${band}`}>{formatCallScore(props.score)}</span>;
}

/** The CSV export of this view: the same filters (paging aside). */
function csvHref(filters: LibraryPageProps['filters']): string {
  const qs = filterParams(filters).toString();
  return qs ? `/calls.csv?${qs}` : '/calls.csv';
}

export function LibraryPage(props: LibraryPageProps): JSX.Element {
  const { filters } = props;
  return (
    <Layout
      title="Calls"
      staging={props.staging}
      user={props.user}
      csrfToken={props.csrfToken}
      current="calls"
    >
      <div class="page-head">
        <h1>Calls</h1>
        <p class="page-actions">
          <a href="/calls/new" class="button primary">
            Add a call
          </a>{' '}
          <a href={csvHref(filters)} class="button" download="">
            Download CSV
          </a>
        </p>
      </div>
      <form method="get" action="/calls" class="filters" aria-label="Filter calls">
        <div class="field field-search">
          <label for="f-q">Search transcripts</label>
          <input id="f-q" name="q" type="search" value={filters.q} maxlength="200" />
        </div>
        <SelectField
          id="f-team"
          name="team"
          label="Team"
          all="All teams"
          value={filters.team}
          options={props.teams.map((t) => ({ value: t.id, label: t.name }))}
        />
        <SelectField
          id="f-rep"
          name="rep"
          label="Rep"
          all="All reps"
          value={filters.rep}
          options={props.reps.map((r) => ({ value: r.id, label: r.name }))}
        />
        <SelectField
          id="f-type"
          name="type"
          label="Call type"
          all="All types"
          value={filters.type}
          options={CALL_TYPES.map((t) => ({ value: t, label: callTypeLabel(t) }))}
        />
        <SelectField
          id="f-status"
          name="status"
          label="Status"
          all="All statuses"
          value={filters.status}
          options={STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
        />
        <div class="field">
          <label for="f-from">From</label>
          <input id="f-from" name="from" type="date" value={filters.from} />
        </div>
        <div class="field">
          <label for="f-to">To</label>
          <input id="f-to" name="to" type="date" value={filters.to} />
        </div>
        <div class="field field-score">
          <label for="f-min-score">Min score</label>
          <input
            id="f-min-score"
            name="min_score"
            type="number"
            min="0"
            max="100"
            step="any"
            value={filters.min_score}
          />
        </div>
        <div class="field field-score">
          <label for="f-max-score">Max score</label>
          <input
            id="f-max-score"
            name="max_score"
            type="number"
            min="0"
            max="100"
            step="any"
            value={filters.max_score}
          />
        </div>
        <div class="filter-actions">
          <button type="submit" class="button">
            Apply filters
          </button>
          {props.filtered ? <a href="/calls">Clear filters</a> : ''}
        </div>
      </form>

      {props.rows.length === 0 ? (
        <p class="empty">
          {props.filtered
            ? 'No calls match these filters.'
            : 'No calls yet. Calls sent through the API appear here as soon as they are received.'}
        </p>
      ) : (
        <div class="table-wrap">
          <table class="calls">
            <caption class="visually-hidden">Calls, newest first by date</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Call</th>
                <th scope="col">Rep</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Score
                </th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr>
                  <td class="nowrap">
                    <time datetime={row.occurred_at ?? row.created_at} safe>
                      {formatDateTime(row.occurred_at ?? row.created_at)}
                    </time>
                  </td>
                  <td>
                    <a href={`/calls/${encodeURIComponent(row.id)}`} safe>
                      {row.title}
                    </a>
                  </td>
                  <td>
                    <span safe>{row.rep_name}</span>
                    <span class="sub" safe>
                      {row.team_name}
                    </span>
                  </td>
                  <td safe>{callTypeLabel(row.call_type)}</td>
                  <td>
                    <span class={`status status-${/^[a-z_]+$/.test(row.status) ? row.status : 'other'}`} safe>
                      {statusLabel(row.status)}
                    </span>
                  </td>
                  <td class="num">
                    <ScoreCell score={row.score} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.nextHref || props.firstHref ? (
        <nav class="pager" aria-label="Pages">
          {props.firstHref ? <a href={props.firstHref}>Newest calls</a> : ''}
          {props.nextHref ? (
            <a href={props.nextHref} rel="next">
              Older calls
            </a>
          ) : (
            ''
          )}
        </nav>
      ) : (
        ''
      )}
    </Layout>
  );
}
