/**
 * The dashboard page: counts by status, the weekly score trend and per-criterion averages as server-rendered
 * inline SVG (role="img" with <title> and <desc>, plus a data table for screen readers), and per-team / per-rep
 * tables. No client script.
 */
import { STATUSES, formatCallScore, formatCriterionScore, scoreBand, statusLabel } from '../views/format.js';
import { Layout, type LayoutProps } from '../views/layout.js';
import { SelectField } from '../views/fields.js';
import type { CriterionAverage, DashboardSummary, GroupRow, WeekPoint } from './model.js';

export interface DashboardPageProps extends Pick<LayoutProps, 'staging' | 'user' | 'csrfToken'> {
  role: string;
  bounds: readonly string[];
  summary: DashboardSummary;
  criteria: CriterionAverage[];
  /** How many scored calls the criteria averages cover (the newest, bounded). */
  criteriaCalls: number;
  filters: { team: string; rep: string };
  teams: { id: string; name: string }[];
  reps: { id: string; name: string; email: string }[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 17" (UTC); with the year when asked. */
export function shortDate(iso: string, withYear = false): string {
  const d = new Date(iso);
  const label = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  return withYear ? `${label}, ${d.getUTCFullYear()}` : label;
}

const lastDay = (endIso: string): string => new Date(Date.parse(endIso) - 24 * 3600_000).toISOString();
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const round1 = (n: number) => Math.round(n * 10) / 10;

function ScoreText(props: { score: number | null }): JSX.Element {
  if (props.score === null) {
    return (
      <span class="muted">
        <span aria-hidden="true">—</span>
        <span class="visually-hidden">No score</span>
      </span>
    );
  }
  return <span class={`score score-${scoreBand(props.score)}`}>{formatCallScore(props.score)}</span>;
}

const TREND = { width: 640, height: 260, left: 44, right: 16, top: 16, bottom: 40 };

/** The weekly average score as a line (broken where a week has no scored call) over a 0–100 grid. */
export function TrendChart(props: { weeks: WeekPoint[]; id: string; overall: number | null }): JSX.Element {
  const { width, height, left, right, top, bottom } = TREND;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const n = Math.max(1, props.weeks.length);
  const x = (i: number) => round1(left + ((i + 0.5) * plotW) / n);
  const y = (v: number) => round1(top + (1 - v / 100) * plotH);
  const segments: string[][] = [];
  let current: string[] = [];
  props.weeks.forEach((w, i) => {
    if (w.average === null) {
      if (current.length) segments.push(current);
      current = [];
    } else current.push(`${x(i)},${y(w.average)}`);
  });
  if (current.length) segments.push(current);

  const withData = props.weeks.filter((w) => w.average !== null);
  const latestIndex = props.weeks.map((w) => w.average !== null).lastIndexOf(true);
  const latest = latestIndex >= 0 ? props.weeks[latestIndex]! : null;
  const first = props.weeks[0];
  const last = props.weeks[props.weeks.length - 1];
  const desc =
    `Weekly average call score, on a scale of 0 to 100, for the ${props.weeks.length} weeks starting ` +
    `${first ? shortDate(first.start, true) : ''} through the week of ${last ? shortDate(last.start, true) : ''}. ` +
    `${plural(withData.length, 'week')} with scored calls. ` +
    (latest && latest.average !== null
      ? `The latest, the week of ${shortDate(latest.start)}, averaged ${formatCallScore(latest.average)} over ${plural(latest.scored, 'call')}. `
      : '') +
    (props.overall !== null ? `The average over the whole period is ${formatCallScore(props.overall)}.` : '');

  return (
    <svg
      class="chart"
      role="img"
      viewBox={`0 0 ${width} ${height}`}
      aria-labelledby={`${props.id}-title ${props.id}-desc`}
      focusable="false"
    >
      <title id={`${props.id}-title`}>Score trend by week</title>
      <desc id={`${props.id}-desc`} safe>
        {desc}
      </desc>
      {[0, 25, 50, 75, 100].map((v) => (
        <>
          <line
            class="chart-grid"
            x1={String(left)}
            x2={String(width - right)}
            y1={String(y(v))}
            y2={String(y(v))}
          />
          <text class="chart-label" x={String(left - 8)} y={String(y(v) + 4)} text-anchor="end">
            {String(v)}
          </text>
        </>
      ))}
      {props.weeks.map((w, i) => (
        <text class="chart-label" x={String(x(i))} y={String(height - bottom + 18)} text-anchor="middle" safe>
          {shortDate(w.start)}
        </text>
      ))}
      {segments.map((points) =>
        points.length > 1 ? <polyline class="chart-line" fill="none" points={points.join(' ')} /> : '',
      )}
      {props.weeks.map((w, i) =>
        w.average === null ? (
          ''
        ) : (
          <circle class="chart-dot" cx={String(x(i))} cy={String(y(w.average))} r="4" />
        ),
      )}
    </svg>
  );
}

const BARS = { width: 640, label: 240, row: 28, top: 8, valueSpace: 56 };

/** Horizontal bars: each criterion's average 0–100 %, weakest first. */
export function CriteriaChart(props: {
  criteria: CriterionAverage[];
  calls: number;
  id: string;
}): JSX.Element {
  const { width, label, row, top, valueSpace } = BARS;
  const height = top * 2 + row * props.criteria.length;
  const barMax = width - label - valueSpace;
  const clip = (s: string) => ([...s].length > 34 ? `${[...s].slice(0, 33).join('')}…` : s);
  const desc =
    `Average score of each criterion over ${plural(props.calls, 'scored call')}, not applicable criteria ` +
    `left out, weakest first: ` +
    props.criteria.map((c) => `${c.title} ${formatCriterionScore(c.average)}`).join('; ') +
    '.';
  return (
    <svg
      class="chart"
      role="img"
      viewBox={`0 0 ${width} ${height}`}
      aria-labelledby={`${props.id}-title ${props.id}-desc`}
      focusable="false"
    >
      <title id={`${props.id}-title`}>Average score per criterion</title>
      <desc id={`${props.id}-desc`} safe>
        {desc}
      </desc>
      {props.criteria.map((c, i) => {
        const yTop = top + i * row;
        const w = round1(Math.max(0, Math.min(1, c.average)) * barMax);
        return (
          <>
            <text
              class="chart-label chart-name"
              x={String(label - 10)}
              y={String(yTop + 18)}
              text-anchor="end"
              safe
            >
              {clip(c.title)}
            </text>
            <rect
              class="bar-track"
              x={String(label)}
              y={String(yTop + 5)}
              width={String(barMax)}
              height="16"
              rx="3"
            />
            <rect
              class={`bar bar-${scoreBand(c.average * 100)}`}
              x={String(label)}
              y={String(yTop + 5)}
              width={String(w)}
              height="16"
              rx="3"
            />
            <text class="chart-label" x={String(label + barMax + 8)} y={String(yTop + 18)}>
              {formatCriterionScore(c.average)}
            </text>
          </>
        );
      })}
    </svg>
  );
}

function GroupTable(props: {
  caption: string;
  heading: string;
  rows: GroupRow[];
  href?: (row: GroupRow) => string;
}): JSX.Element {
  return (
    <div class="table-wrap">
      <table class="calls">
        <caption class="visually-hidden" safe>
          {props.caption}
        </caption>
        <thead>
          <tr>
            <th scope="col" safe>
              {props.heading}
            </th>
            <th scope="col" class="num">
              Calls
            </th>
            <th scope="col" class="num">
              Scored
            </th>
            <th scope="col" class="num">
              Average score
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr>
              <th scope="row">
                {props.href ? (
                  <a href={props.href(r)} safe>
                    {r.name}
                  </a>
                ) : (
                  <span safe>{r.name}</span>
                )}
              </th>
              <td class="num">{r.calls.toLocaleString('en-US')}</td>
              <td class="num">{r.scored.toLocaleString('en-US')}</td>
              <td class="num">
                <ScoreText score={r.average} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DashboardPage(props: DashboardPageProps): JSX.Element {
  const { summary, filters, bounds } = props;
  const overall = summary.total.scored ? summary.total.scoreSum / summary.total.scored : null;
  const isRep = props.role !== 'admin' && props.role !== 'manager';
  const filtered = Boolean(filters.team || filters.rep);
  const period = `${shortDate(bounds[0]!, true)} – ${shortDate(lastDay(bounds[bounds.length - 1]!), true)}`;
  const repHref = (r: GroupRow) => {
    const params = new URLSearchParams();
    if (filters.team) params.set('team', filters.team);
    params.set('rep', r.id);
    return `/dashboard?${params.toString()}`;
  };
  const teamHref = (r: GroupRow) => `/dashboard?${new URLSearchParams({ team: r.id }).toString()}`;
  const statuses = [
    ...STATUSES,
    ...[...summary.byStatus.keys()].filter((s) => !(STATUSES as readonly string[]).includes(s)),
  ];

  return (
    <Layout
      title="Dashboard"
      staging={props.staging}
      user={props.user}
      csrfToken={props.csrfToken}
      current="dashboard"
    >
      <div class="page-head">
        <h1>Dashboard</h1>
      </div>
      <p class="muted">
        {isRep ? 'Your calls' : 'Calls you can see'} from the last {String(props.summary.weeks.length)} weeks,{' '}
        <span safe>{period}</span> (UTC), by the date each call took place.
      </p>

      {props.teams.length || props.reps.length ? (
        <form method="get" action="/dashboard" class="filters" aria-label="Filter the dashboard">
          <SelectField
            id="d-team"
            name="team"
            label="Team"
            all="All teams"
            value={filters.team}
            options={props.teams.map((t) => ({ value: t.id, label: t.name }))}
          />
          <SelectField
            id="d-rep"
            name="rep"
            label="Rep"
            all="All reps"
            value={filters.rep}
            options={props.reps.map((r) => ({ value: r.id, label: r.name }))}
          />
          <div class="filter-actions">
            <button type="submit" class="button">
              Apply filters
            </button>
            {filtered ? <a href="/dashboard">Clear filters</a> : ''}
          </div>
        </form>
      ) : (
        ''
      )}

      <section aria-labelledby="d-counts">
        <h2 id="d-counts">Calls by status</h2>
        <dl class="stat-tiles">
          <div>
            <dt>All calls</dt>
            <dd data-stat="calls">{summary.total.calls.toLocaleString('en-US')}</dd>
          </div>
          {statuses.map((s) => (
            <div>
              <dt safe>{statusLabel(s)}</dt>
              <dd data-stat={s}>{(summary.byStatus.get(s) ?? 0).toLocaleString('en-US')}</dd>
            </div>
          ))}
          <div>
            <dt>Average score</dt>
            <dd data-stat="average">
              <ScoreText score={overall} />
            </dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="d-trend">
        <h2 id="d-trend">Score trend</h2>
        {summary.total.scored === 0 ? (
          <p class="empty">No scored calls in this period yet.</p>
        ) : (
          <>
            <figure class="chart-box">
              <TrendChart weeks={summary.weeks} id="trend-chart" overall={overall} />
            </figure>
            <table class="visually-hidden" id="trend-table">
              <caption>Weekly average score</caption>
              <thead>
                <tr>
                  <th scope="col">Week of</th>
                  <th scope="col">Scored calls</th>
                  <th scope="col">Average score</th>
                </tr>
              </thead>
              <tbody>
                {summary.weeks.map((w) => (
                  <tr>
                    <th scope="row" safe>
                      {shortDate(w.start, true)}
                    </th>
                    <td>{String(w.scored)}</td>
                    <td>{w.average === null ? 'No scored calls' : formatCallScore(w.average)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>

      <section aria-labelledby="d-criteria">
        <h2 id="d-criteria">Criteria</h2>
        {props.criteria.length === 0 ? (
          <p class="empty">No criterion was scored in this period yet.</p>
        ) : (
          <>
            {props.criteriaCalls < summary.total.scored ? (
              <p class="muted">
                Averages over the {props.criteriaCalls.toLocaleString('en-US')} most recent scored calls of
                the period.
              </p>
            ) : (
              ''
            )}
            <figure class="chart-box">
              <CriteriaChart criteria={props.criteria} calls={props.criteriaCalls} id="criteria-chart" />
            </figure>
            <table class="visually-hidden" id="criteria-table">
              <caption>Average score per criterion, weakest first</caption>
              <thead>
                <tr>
                  <th scope="col">Criterion</th>
                  <th scope="col">Average</th>
                  <th scope="col">Calls where it applied</th>
                </tr>
              </thead>
              <tbody>
                {props.criteria.map((c) => (
                  <tr>
                    <th scope="row" safe>
                      {c.title}
                    </th>
                    <td>{formatCriterionScore(c.average)}</td>
                    <td>{String(c.calls)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>

      {isRep ? (
        ''
      ) : (
        <>
          <section aria-labelledby="d-teams">
            <h2 id="d-teams">By team</h2>
            {summary.teams.length ? (
              <GroupTable
                caption="Calls and average score by team"
                heading="Team"
                rows={summary.teams}
                href={teamHref}
              />
            ) : (
              <p class="empty">No calls in this period.</p>
            )}
          </section>
          <section aria-labelledby="d-reps">
            <h2 id="d-reps">By rep</h2>
            {summary.reps.length ? (
              <GroupTable
                caption="Calls and average score by rep"
                heading="Rep"
                rows={summary.reps}
                href={repHref}
              />
            ) : (
              <p class="empty">No calls in this period.</p>
            )}
          </section>
        </>
      )}
    </Layout>
  );
}
