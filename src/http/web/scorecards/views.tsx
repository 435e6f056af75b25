/** Scorecard pages: per-team list with status and version, create from a template, edit criteria, team choice. */
import type { CriteriaChanges } from '../../../scoring/criteria-changes.js';
import { CALL_TYPES, callTypeLabel, formatDateTime } from '../views/format.js';
import { Layout, type LayoutProps } from '../views/layout.js';

type Shell = Pick<LayoutProps, 'staging' | 'user' | 'csrfToken'>;

export interface ScorecardRow {
  id: string;
  name: string;
  status: string;
  current_version: number;
  updated_at: string;
}

export interface TeamBlock {
  id: string;
  name: string;
  scorecards: ScorecardRow[];
  defaultId: string | null;
  rules: Record<string, string>;
}

export const SCORECARD_NOTICES: Record<string, string> = {
  created: 'Scorecard created as a draft. Publish it to use it for calls.',
  saved: 'Criteria saved as a new version.',
  published: 'Scorecard published.',
  archived: 'Scorecard archived. Calls can no longer be scored with it.',
  draft: 'Scorecard moved back to draft.',
  rules: 'Scorecard choice saved.',
};

const STATUS_LABEL: Record<string, string> = { draft: 'Draft', published: 'Published', archived: 'Archived' };
const statusLabel = (s: string) => STATUS_LABEL[s] ?? s;

function Csrf(props: { token: string | undefined }): JSX.Element {
  return <input type="hidden" name="_csrf" value={props.token ?? ''} />;
}

function Flash(props: { notice: string | null; error: string | null }): JSX.Element {
  return (
    <>
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      {props.error ? (
        <p class="alert" role="alert" safe>
          {props.error}
        </p>
      ) : (
        ''
      )}
    </>
  );
}

function CardSelect(props: {
  id: string;
  name: string;
  label: string;
  cards: ScorecardRow[];
  selected: string | null;
  emptyLabel: string;
}): JSX.Element {
  return (
    <div class="field">
      <label for={props.id} safe>
        {props.label}
      </label>
      <select id={props.id} name={props.name}>
        <option value="" selected={!props.selected} safe>
          {props.emptyLabel}
        </option>
        {props.cards
          .filter((c) => c.status === 'published' || c.id === props.selected)
          .map((c) => (
            <option value={c.id} selected={c.id === props.selected} safe>
              {c.status === 'published' ? c.name : `${c.name} (${statusLabel(c.status)})`}
            </option>
          ))}
      </select>
    </div>
  );
}

export function ScorecardsPage(
  props: Shell & {
    teams: TeamBlock[];
    templates: { key: string; name: string; description: string }[];
    notice: string | null;
    error: string | null;
    form: { team: string; template: string; name: string };
  },
): JSX.Element {
  return (
    <Layout
      title="Scorecards"
      staging={props.staging}
      user={props.user}
      csrfToken={props.csrfToken}
      current="scorecards"
    >
      <h1>Scorecards</h1>
      <Flash notice={props.notice} error={props.error} />
      {props.teams.length === 0 ? <p class="empty">You do not manage any team.</p> : ''}
      <>
        {props.teams.map((team) => (
          <section aria-labelledby={`team-${team.id}`} class="team-block">
            <h2 id={`team-${team.id}`} safe>
              {team.name}
            </h2>
            {team.scorecards.length ? (
              <div class="table-wrap">
                <table class="calls">
                  <caption class="visually-hidden" safe>{`Scorecards of ${team.name}`}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Scorecard</th>
                      <th scope="col">Status</th>
                      <th scope="col" class="num">
                        Version
                      </th>
                      <th scope="col">Updated</th>
                    </tr>
                  </thead>
                  <tbody>
                    {team.scorecards.map((c) => (
                      <tr>
                        <td>
                          <a href={`/scorecards/${c.id}`} safe>
                            {c.name}
                          </a>
                          {team.defaultId === c.id ? <span class="sub"> · team default</span> : ''}
                        </td>
                        <td>
                          <span
                            class={`status status-card-${/^[a-z]+$/.test(c.status) ? c.status : 'other'}`}
                            safe
                          >
                            {statusLabel(c.status)}
                          </span>
                        </td>
                        <td class="num">{String(c.current_version)}</td>
                        <td class="nowrap">
                          <time datetime={c.updated_at} safe>
                            {formatDateTime(c.updated_at)}
                          </time>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p class="sub">No scorecards yet.</p>
            )}
            <form method="post" action={`/scorecards/teams/${team.id}/choice`} class="card stack choice">
              <Csrf token={props.csrfToken} />
              <h3>Which scorecard scores a call</h3>
              <p class="sub">
                A rule for the call’s type wins over the default. Only published scorecards can be chosen.
              </p>
              <CardSelect
                id={`default-${team.id}`}
                name="default"
                label="Team default"
                cards={team.scorecards}
                selected={team.defaultId}
                emptyLabel="No default"
              />
              <div class="rules-grid">
                {CALL_TYPES.map((t) => (
                  <CardSelect
                    id={`rule-${team.id}-${t}`}
                    name={`rule_${t}`}
                    label={callTypeLabel(t)}
                    cards={team.scorecards}
                    selected={team.rules[t] ?? null}
                    emptyLabel="Use the default"
                  />
                ))}
              </div>
              <div>
                <button type="submit" class="button">
                  Save scorecard choice
                </button>
              </div>
            </form>
          </section>
        ))}
      </>
      {props.teams.length ? (
        <section aria-labelledby="new-card-heading" class="card">
          <h2 id="new-card-heading">New scorecard from a template</h2>
          <form method="post" action="/scorecards" class="stack">
            <Csrf token={props.csrfToken} />
            <div class="field">
              <label for="new-team">Team</label>
              <select id="new-team" name="team">
                {props.teams.map((t) => (
                  <option value={t.id} selected={props.form.team === t.id} safe>
                    {t.name}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="new-template">Template</label>
              <select id="new-template" name="template">
                {props.templates.map((t) => (
                  <option value={t.key} selected={props.form.template === t.key} safe>
                    {`${t.name} — ${t.description}`}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="new-name">Name (optional: the template’s name)</label>
              <input id="new-name" name="name" type="text" maxlength="100" value={props.form.name} />
            </div>
            <div>
              <button type="submit" class="button primary">
                Create scorecard
              </button>
            </div>
          </form>
        </section>
      ) : (
        ''
      )}
    </Layout>
  );
}

export function ScorecardPage(
  props: Shell & {
    card: { id: string; name: string; team_name: string; status: string; current_version: number };
    criteriaText: string;
    name: string;
    errors: string[];
    nameError: string | null;
    versions: { version: number; created_at: string }[];
    notice: string | null;
    /** What the team uses it for ("the team default", "the rule for negotiation calls"). */
    usedAs: string[];
  },
): JSX.Element {
  const c = props.card;
  const invalid = props.errors.length > 0;
  return (
    <Layout
      title={c.name}
      staging={props.staging}
      user={props.user}
      csrfToken={props.csrfToken}
      current="scorecards"
    >
      <p class="breadcrumb">
        <a href="/scorecards">← All scorecards</a>
      </p>
      <h1 safe>{c.name}</h1>
      <Flash notice={props.notice} error={null} />
      <dl class="summary">
        <div>
          <dt>Team</dt>
          <dd safe>{c.team_name}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd safe>{statusLabel(c.status)}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>{String(c.current_version)}</dd>
        </div>
      </dl>

      <section aria-labelledby="status-heading" class="card">
        <h2 id="status-heading">Status</h2>
        {c.status === 'published' && props.usedAs.length > 0 ? (
          <p class="sub" id="archive-warning" safe>
            {`This scorecard is ${props.usedAs.join(' and ')}. Archived or back in draft, it cannot score: calls that would use it are refused (API: 422 scorecard_rule_unavailable) until the team chooses another on the Scorecards page.`}
          </p>
        ) : (
          ''
        )}
        <div class="button-row">
          {(['published', 'archived', 'draft'] as const)
            .filter((s) => s !== c.status)
            .map((s) => (
              <form method="post" action={`/scorecards/${c.id}/status`} class="inline">
                <Csrf token={props.csrfToken} />
                <input type="hidden" name="status" value={s} />
                <button type="submit" class="button">
                  {s === 'published' ? 'Publish' : s === 'archived' ? 'Archive' : 'Move back to draft'}
                </button>
              </form>
            ))}
        </div>
      </section>

      <section aria-labelledby="edit-heading" class="card">
        <h2 id="edit-heading">Criteria</h2>
        <form method="post" action={`/scorecards/${c.id}`} class="stack">
          <Csrf token={props.csrfToken} />
          <div class="field">
            <label for="card-name">Name</label>
            <input
              id="card-name"
              name="name"
              type="text"
              maxlength="100"
              required
              value={props.name}
              aria-invalid={props.nameError ? 'true' : undefined}
              aria-describedby={props.nameError ? 'card-name-error' : undefined}
            />
            {props.nameError ? (
              <p id="card-name-error" class="field-error" safe>
                {props.nameError}
              </p>
            ) : (
              ''
            )}
          </div>
          <div class="field">
            <label for="card-criteria">Criteria (JSON)</label>
            <p id="card-criteria-hint" class="sub">
              An array of criteria: key, title, description, weight, optional applies_when, and a check
              (phrases, questions, talk_ratio, longest_monologue, customer_talk, mentions_before). Saving adds
              a version.
            </p>
            <textarea
              id="card-criteria"
              name="criteria"
              rows="24"
              class="code"
              spellcheck="false"
              aria-invalid={invalid ? 'true' : undefined}
              aria-describedby={invalid ? 'card-criteria-hint card-criteria-errors' : 'card-criteria-hint'}
              safe
            >
              {props.criteriaText}
            </textarea>
            {invalid ? (
              <ul id="card-criteria-errors" class="field-error">
                {props.errors.map((e) => (
                  <li safe>{e}</li>
                ))}
              </ul>
            ) : (
              ''
            )}
          </div>
          <div>
            <button type="submit" class="button primary">
              Save as a new version
            </button>
          </div>
        </form>
      </section>

      <section aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        <ul>
          {props.versions.map((v) => (
            <li>
              <a href={`/scorecards/${c.id}/versions/${v.version}`}>Version {String(v.version)}</a>
              {v.version === c.current_version ? ' (current)' : ''} —{' '}
              <time datetime={v.created_at} safe>
                {formatDateTime(v.created_at)}
              </time>
            </li>
          ))}
        </ul>
      </section>
    </Layout>
  );
}

/** One past version of a scorecard: its criteria read-only, and a form that makes them the current version again. */
export function ScorecardVersionPage(
  props: Shell & {
    card: { id: string; name: string; current_version: number };
    version: number;
    createdAt: string;
    criteriaText: string;
    changes: CriteriaChanges;
  },
): JSX.Element {
  const c = props.card;
  const current = props.version === c.current_version;
  const { added, removed, changed } = props.changes;
  return (
    <Layout
      title={`${c.name}, version ${props.version}`}
      staging={props.staging}
      user={props.user}
      csrfToken={props.csrfToken}
      current="scorecards"
    >
      <p class="breadcrumb">
        <a href={`/scorecards/${c.id}`} safe>{`← ${c.name}`}</a>
      </p>
      <h1 safe>{`${c.name}, version ${props.version}${current ? ' (current)' : ''}`}</h1>
      <p class="sub">
        Saved{' '}
        <time datetime={props.createdAt} safe>
          {formatDateTime(props.createdAt)}
        </time>
        . Results scored with this version keep pointing at it.
      </p>
      {current ? (
        ''
      ) : (
        <section aria-labelledby="version-changes" class="card">
          <h2 id="version-changes">{`From this version to the current one (version ${c.current_version})`}</h2>
          {added.length + removed.length + changed.length === 0 ? (
            <p class="sub">The criteria are the same as the current version's.</p>
          ) : (
            <ul class="criteria-changes">
              {added.map((k) => (
                <li safe>{`Added: ${k.title} (${k.key})`}</li>
              ))}
              {removed.map((k) => (
                <li safe>{`Removed: ${k.title} (${k.key}); restoring brings it back`}</li>
              ))}
              {changed.map((k) => (
                <li safe>{`Changed: ${k.title} (${k.key}): ${k.fields.join(', ').replace(/_/g, ' ')}`}</li>
              ))}
            </ul>
          )}
        </section>
      )}
      <section aria-labelledby="version-criteria" class="card">
        <h2 id="version-criteria">Criteria</h2>
        <pre class="criteria-json" safe>
          {props.criteriaText}
        </pre>
      </section>
      {current ? (
        ''
      ) : (
        <form method="post" action={`/scorecards/${c.id}`} class="stack">
          <Csrf token={props.csrfToken} />
          <input type="hidden" name="name" value={c.name} />
          <input type="hidden" name="criteria" value={props.criteriaText} />
          <p class="sub">{`Restoring saves these criteria as version ${c.current_version + 1}.`}</p>
          <div>
            <button type="submit" class="button">
              Restore this version
            </button>
          </div>
        </form>
      )}
    </Layout>
  );
}
