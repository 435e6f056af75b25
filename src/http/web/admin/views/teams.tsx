/** Teams: the list with a create form, and a team's page (rename, delete). */
import { formatDateTime, roleLabel } from '../../views/format.js';
import { ActionForm, Csrf, FORM_ERRORS_ID, SettingsShell, type PageBase } from './shell.js';
import { UserStatus } from './users.js';

export interface TeamView {
  id: string;
  name: string;
  deleted_at: string | null;
  created_at: string;
  members: number;
  keys: number;
}

export function TeamsPage(
  props: PageBase & { teams: TeamView[]; name: string; notice?: string | null; errors?: string[] },
): JSX.Element {
  const live = props.teams.filter((t) => !t.deleted_at);
  const deleted = props.teams.filter((t) => t.deleted_at);
  const invalid = props.errors && props.errors.length ? FORM_ERRORS_ID : undefined;
  return (
    <SettingsShell {...props} title="Teams" section="teams">
      <h1>Teams</h1>
      <form method="post" action="/settings/teams" class="filters card" novalidate>
        <Csrf token={props.csrfToken} />
        <div class="field">
          <label for="team-name">New team name</label>
          <input
            id="team-name"
            name="name"
            type="text"
            maxlength="80"
            required
            value={props.name}
            aria-describedby={invalid}
          />
        </div>
        <div class="filter-actions">
          <button type="submit" class="button primary">
            Create team
          </button>
        </div>
      </form>
      {live.length === 0 ? (
        <p class="empty">No teams yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="calls">
            <caption class="visually-hidden">Teams</caption>
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col" class="num">
                  Members
                </th>
                <th scope="col" class="num">
                  API keys
                </th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {live.map((t) => (
                <tr>
                  <td>
                    <a href={`/settings/teams/${t.id}`} safe>
                      {t.name}
                    </a>
                  </td>
                  <td class="num" safe>
                    {String(t.members)}
                  </td>
                  <td class="num" safe>
                    {String(t.keys)}
                  </td>
                  <td class="nowrap" safe>
                    {formatDateTime(t.created_at)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deleted.length ? (
        <>
          <h2>Deleted teams</h2>
          <ul class="plain">
            {deleted.map((t) => (
              <li>
                <span safe>{t.name}</span>{' '}
                <span class="sub" safe>{`deleted ${formatDateTime(t.deleted_at)}`}</span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        ''
      )}
    </SettingsShell>
  );
}

export interface TeamMember {
  id: string;
  name: string;
  email: string;
  role: string;
  status: string;
}

export function TeamPage(
  props: PageBase & {
    team: TeamView;
    members: TeamMember[];
    name: string;
    notice?: string | null;
    errors?: string[];
  },
): JSX.Element {
  const t = props.team;
  const base = `/settings/teams/${t.id}`;
  const invalid = props.errors && props.errors.length ? FORM_ERRORS_ID : undefined;
  return (
    <SettingsShell {...props} title={`Team ${t.name}`} section="teams">
      <p class="breadcrumb">
        <a href="/settings/teams">Teams</a>
      </p>
      <h1 safe>{t.name}</h1>
      <dl class="summary">
        <div>
          <dt>Members</dt>
          <dd safe>{String(t.members)}</dd>
        </div>
        <div>
          <dt>API keys</dt>
          <dd safe>{String(t.keys)}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd safe>{formatDateTime(t.created_at)}</dd>
        </div>
      </dl>
      <section class="card" aria-labelledby="members-h">
        <h2 id="members-h">Members</h2>
        {props.members.length ? (
          <table>
            <caption class="visually-hidden">Members of the team</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {props.members.map((m) => (
                <tr>
                  <td>
                    <a href={`/settings/users/${m.id}`} safe>
                      {m.name}
                    </a>
                  </td>
                  <td safe>{m.email}</td>
                  <td safe>{roleLabel(m.role)}</td>
                  <td>
                    <UserStatus status={m.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="empty">
            No members yet. Add people to the team on the <a href="/settings/users">Users</a> page.
          </p>
        )}
      </section>
      <div class="panels">
        <section class="card" aria-labelledby="rename-h">
          <h2 id="rename-h">Rename</h2>
          <form method="post" action={`${base}/rename`} class="stack" novalidate>
            <Csrf token={props.csrfToken} />
            <div class="field">
              <label for="team-name">Name</label>
              <input
                id="team-name"
                name="name"
                type="text"
                maxlength="80"
                required
                value={props.name}
                aria-describedby={invalid}
              />
            </div>
            <div>
              <button type="submit" class="button primary">
                Rename team
              </button>
            </div>
          </form>
        </section>
        <section class="card" aria-labelledby="delete-h">
          <h2 id="delete-h">Delete</h2>
          <p>
            The team disappears from filters and from its members. Its calls stay. Its API keys keep working
            for calls that name a rep; calls without a rep are refused (team_not_configured).
          </p>
          <ActionForm action={`${base}/delete`} csrfToken={props.csrfToken} label="Delete team" danger />
        </section>
      </div>
    </SettingsShell>
  );
}
