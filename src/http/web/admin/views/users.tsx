/** Users: the list, the invitation form, a one-time link page, and a user's page (role, teams, status, links). */
import { formatDateTime, roleLabel } from '../../views/format.js';
import {
  ActionForm,
  Checkbox,
  Csrf,
  FORM_ERRORS_ID,
  OneTimeValue,
  SettingsShell,
  type PageBase,
} from './shell.js';

export const ROLES = ['admin', 'manager', 'rep'] as const;

const ROLE_HINTS: Record<string, string> = {
  admin: 'Everything, including users, teams and API keys',
  manager: 'The calls of their teams; coaching',
  rep: 'Their own calls',
};

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  pending: 'Invited',
  inactive: 'Deactivated',
};

export const userStatusLabel = (status: string): string => STATUS_LABELS[status] ?? status;

export interface UserView {
  id: string;
  email: string;
  name: string;
  role: string;
  status: string;
  last_sign_in_at: string | null;
  teams: { id: string; name: string }[];
}

export function UserStatus(props: { status: string }): JSX.Element {
  const cls =
    props.status === 'active'
      ? 'status-scored'
      : props.status === 'inactive'
        ? 'status-failed'
        : 'status-rotating';
  return (
    <span class={`status ${cls}`} safe>
      {userStatusLabel(props.status)}
    </span>
  );
}

export function UsersPage(props: PageBase & { users: UserView[]; notice?: string | null }): JSX.Element {
  return (
    <SettingsShell {...props} title="Users" section="users">
      <div class="page-head">
        <h1>Users</h1>
        <a class="button primary" href="/settings/users/new">
          Invite user
        </a>
      </div>
      <div class="table-wrap">
        <table class="calls">
          <caption class="visually-hidden">Users of the account</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Teams</th>
              <th scope="col">Status</th>
              <th scope="col">Last sign-in</th>
            </tr>
          </thead>
          <tbody>
            {props.users.map((u) => (
              <tr>
                <td>
                  <a href={`/settings/users/${u.id}`} safe>
                    {u.name}
                  </a>
                  <span class="sub" safe>
                    {u.email}
                  </span>
                </td>
                <td safe>{roleLabel(u.role)}</td>
                <td safe>{u.teams.length ? u.teams.map((t) => t.name).join(', ') : '—'}</td>
                <td>
                  <UserStatus status={u.status} />
                </td>
                <td class="nowrap" safe>
                  {u.last_sign_in_at ? formatDateTime(u.last_sign_in_at) : 'Never'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </SettingsShell>
  );
}

function RoleSelect(props: { value: string; disabled?: boolean; describedBy?: string }): JSX.Element {
  return (
    <div class="field">
      <label for="role">Role</label>
      <select id="role" name="role" disabled={props.disabled} aria-describedby={props.describedBy}>
        {ROLES.map((r) => (
          <option value={r} selected={props.value === r} safe>
            {`${roleLabel(r)} — ${ROLE_HINTS[r]}`}
          </option>
        ))}
      </select>
    </div>
  );
}

function TeamChecks(props: { teams: { id: string; name: string }[]; selected: string[] }): JSX.Element {
  return (
    <fieldset>
      <legend>Teams</legend>
      {props.teams.length === 0 ? <p class="muted">No teams yet.</p> : ''}
      {props.teams.map((t) => (
        <Checkbox
          name="teams"
          value={t.id}
          id={`team-${t.id}`}
          checked={props.selected.includes(t.id)}
          label={t.name}
        />
      ))}
    </fieldset>
  );
}

export interface InviteForm {
  email: string;
  name: string;
  role: string;
  teams: string[];
}

export function InviteUserPage(
  props: PageBase & { teams: { id: string; name: string }[]; form: InviteForm; errors?: string[] },
): JSX.Element {
  const invalid = props.errors && props.errors.length ? FORM_ERRORS_ID : undefined;
  return (
    <SettingsShell {...props} title="Invite user" section="users">
      <p class="breadcrumb">
        <a href="/settings/users">Users</a>
      </p>
      <h1>Invite user</h1>
      <form method="post" action="/settings/users" class="stack card form-card" novalidate>
        <Csrf token={props.csrfToken} />
        <div class="field">
          <label for="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            maxlength="254"
            required
            value={props.form.email}
            aria-describedby={invalid}
          />
        </div>
        <div class="field">
          <label for="name">Name</label>
          <input id="name" name="name" type="text" maxlength="100" required value={props.form.name} />
        </div>
        <RoleSelect value={props.form.role} />
        <TeamChecks teams={props.teams} selected={props.form.teams} />
        <p class="sub">You get a one-time invitation link to send to the user. It works for 7 days.</p>
        <div>
          <button type="submit" class="button primary">
            Invite
          </button>
        </div>
      </form>
    </SettingsShell>
  );
}

/** An invitation or password-reset link, shown once (only its hash is stored). */
export function UserLinkPage(
  props: PageBase & {
    heading: string;
    userId: string;
    userName: string;
    link: string;
    validFor: string;
  },
): JSX.Element {
  return (
    <SettingsShell {...props} title={props.heading} section="users">
      <p class="breadcrumb">
        <a href="/settings/users">Users</a>
      </p>
      <h1 safe>{props.heading}</h1>
      <section class="card form-card stack">
        <p>
          Send this link to <strong safe>{props.userName}</strong>. It works once, for {props.validFor}, and
          is not shown again; you can always create a new one, which replaces it.
        </p>
        <OneTimeValue
          id="link"
          label="One-time link"
          value={props.link}
          hint="Anyone with this link can set the user's password."
        />
        <p>
          <a href={`/settings/users/${props.userId}`}>Back to the user</a>
        </p>
      </section>
    </SettingsShell>
  );
}

export function UserPage(
  props: PageBase & {
    target: UserView;
    teams: { id: string; name: string }[];
    self: boolean;
    liveKeys: number;
    form: { name: string; role: string; teams: string[] };
    notice?: string | null;
    errors?: string[];
  },
): JSX.Element {
  const u = props.target;
  const base = `/settings/users/${u.id}`;
  return (
    <SettingsShell {...props} title={u.name} section="users">
      <p class="breadcrumb">
        <a href="/settings/users">Users</a>
      </p>
      <h1 safe>{u.name}</h1>
      <dl class="summary">
        <div>
          <dt>Email</dt>
          <dd safe>{u.email}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <UserStatus status={u.status} />
          </dd>
        </div>
        <div>
          <dt>Last sign-in</dt>
          <dd safe>{u.last_sign_in_at ? formatDateTime(u.last_sign_in_at) : 'Never'}</dd>
        </div>
        <div>
          <dt>API keys owned</dt>
          <dd safe>{String(props.liveKeys)}</dd>
        </div>
      </dl>
      <div class="panels">
        <section class="card" aria-labelledby="profile-h">
          <h2 id="profile-h">Role and teams</h2>
          <form method="post" action={base} class="stack" novalidate>
            <Csrf token={props.csrfToken} />
            <div class="field">
              <label for="name">Name</label>
              <input id="name" name="name" type="text" maxlength="100" required value={props.form.name} />
            </div>
            {props.self ? (
              <>
                <RoleSelect value={props.form.role} disabled describedBy="role-self" />
                <input type="hidden" name="role" value={props.form.role} />
                <span class="sub" id="role-self">
                  You cannot change your own role.
                </span>
              </>
            ) : (
              <RoleSelect value={props.form.role} />
            )}
            <TeamChecks teams={props.teams} selected={props.form.teams} />
            <div>
              <button type="submit" class="button primary">
                Save changes
              </button>
            </div>
          </form>
        </section>
        <section class="card" aria-labelledby="access-h">
          <h2 id="access-h">Access</h2>
          {u.status === 'pending' ? (
            <>
              <p>This user has not accepted the invitation yet. A new link replaces the previous one.</p>
              <ActionForm
                action={`${base}/invitation`}
                csrfToken={props.csrfToken}
                label="New invitation link"
              />
            </>
          ) : (
            ''
          )}
          {u.status === 'active' ? (
            <>
              <p>A password reset link lets the user choose a new password. It works once, for 1 hour.</p>
              <ActionForm
                action={`${base}/password-reset`}
                csrfToken={props.csrfToken}
                label="Password reset link"
              />
            </>
          ) : (
            ''
          )}
          {props.self ? (
            <p class="muted">You cannot deactivate yourself.</p>
          ) : u.status === 'inactive' ? (
            <>
              <p>Deactivated users cannot sign in, and calls sent for them are refused.</p>
              <ActionForm action={`${base}/reactivate`} csrfToken={props.csrfToken} label="Reactivate user" />
            </>
          ) : (
            <>
              <p>
                Deactivating signs the user out everywhere and stops their sign-in.
                {props.liveKeys > 0
                  ? ` The ${props.liveKeys === 1 ? 'API key they own stops' : `${props.liveKeys} API keys they own stop`} working until transferred to another admin.`
                  : ''}
              </p>
              <ActionForm
                action={`${base}/deactivate`}
                csrfToken={props.csrfToken}
                label="Deactivate user"
                danger
              />
            </>
          )}
        </section>
      </div>
    </SettingsShell>
  );
}
