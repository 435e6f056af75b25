/** API keys: the list, the create form, the one-time secret, and a key's page (rotate, revoke, transfer). */
import { SCOPES } from '../../../../auth/api-keys.js';
import { formatDateTime } from '../../views/format.js';
import {
  ActionForm,
  Checkbox,
  Csrf,
  FORM_ERRORS_ID,
  OneTimeValue,
  SettingsShell,
  type PageBase,
} from './shell.js';

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  team_name: string;
  team_deleted: boolean;
  creator_name: string;
  creator_email: string;
  creator_active: boolean;
  created_at: string;
  last_used_at: string | null;
  /** active | rotating | revoked */
  state: 'active' | 'rotating' | 'revoked';
  revoked_at: string | null;
  expires_at: string | null;
}

export const SCOPE_HINTS: Record<string, string> = {
  'calls:write': 'Send calls (POST /v1/calls)',
  'calls:read': 'Read a call’s status and link (GET /v1/calls/{id}); the API never returns scores',
  'recordings:write': 'Upload recordings (POST /v1/recordings)',
};

function KeyStatus(props: { k: KeyView }): JSX.Element {
  const k = props.k;
  if (k.state === 'revoked') {
    const when = k.revoked_at ?? k.expires_at;
    return (
      <>
        <span class="status status-failed">Revoked</span>
        <span class="sub" safe>
          {`${k.revoked_at ? 'since' : 'rotated; expired'} ${formatDateTime(when)}`}
        </span>
      </>
    );
  }
  return (
    <>
      {k.state === 'rotating' ? (
        <>
          <span class="status status-rotating">Rotating</span>
          <span class="sub" safe>{`until ${formatDateTime(k.expires_at)}`}</span>
        </>
      ) : (
        <span class="status status-scored">Active</span>
      )}
      {k.creator_active ? '' : <span class="sub warn">Owner inactive: transfer this key</span>}
      {k.team_deleted ? <span class="sub warn">Team deleted</span> : ''}
    </>
  );
}

export function ApiKeysPage(props: PageBase & { keys: KeyView[]; notice?: string | null }): JSX.Element {
  return (
    <SettingsShell {...props} title="API keys" section="api-keys">
      <div class="page-head">
        <h1>API keys</h1>
        <a class="button primary" href="/settings/api-keys/new">
          Create API key
        </a>
      </div>
      <p class="muted">
        Keys let your systems send calls to Callscore. Each key belongs to a team and to the admin who created
        it; calls sent without a rep are filed under that team and admin.
      </p>
      {props.keys.length === 0 ? (
        <p class="empty">No API keys yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="calls">
            <caption class="visually-hidden">API keys, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Team</th>
                <th scope="col">Scopes</th>
                <th scope="col">Owner</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {props.keys.map((k) => (
                <tr>
                  <td>
                    <a href={`/settings/api-keys/${k.id}`} safe>
                      {k.name}
                    </a>
                  </td>
                  <td safe>{k.team_name}</td>
                  <td>
                    <ul class="plain">
                      {k.scopes.map((s) => (
                        <li>
                          <code safe>{s}</code>
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <span safe>{k.creator_name}</span>
                    <span class="sub" safe>
                      {k.creator_email}
                    </span>
                  </td>
                  <td>
                    <code safe>{`${k.prefix}…`}</code>
                  </td>
                  <td class="nowrap" safe>
                    {formatDateTime(k.created_at)}
                  </td>
                  <td class="nowrap" safe>
                    {k.last_used_at ? formatDateTime(k.last_used_at) : 'Never'}
                  </td>
                  <td>
                    <KeyStatus k={k} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SettingsShell>
  );
}

export interface NewKeyForm {
  name: string;
  team: string;
  scopes: string[];
  /** Random per form (submissions.ts): a re-posted form does not create a second key. */
  submission: string;
}

export function NewApiKeyPage(
  props: PageBase & { teams: { id: string; name: string }[]; form: NewKeyForm; errors?: string[] },
): JSX.Element {
  const invalid = props.errors && props.errors.length ? FORM_ERRORS_ID : undefined;
  return (
    <SettingsShell {...props} title="Create API key" section="api-keys">
      <p class="breadcrumb">
        <a href="/settings/api-keys">API keys</a>
      </p>
      <h1>Create API key</h1>
      {props.teams.length === 0 ? (
        <p class="empty">
          Create a team first: every key belongs to a team. <a href="/settings/teams">Teams</a>
        </p>
      ) : (
        <form method="post" action="/settings/api-keys" class="stack card form-card" novalidate>
          <Csrf token={props.csrfToken} />
          <input type="hidden" name="submission" value={props.form.submission} />
          <div class="field">
            <label for="key-name">Name</label>
            <input
              id="key-name"
              name="name"
              type="text"
              maxlength="100"
              required
              value={props.form.name}
              aria-describedby={invalid ? `key-name-hint ${invalid}` : 'key-name-hint'}
            />
            <span class="sub" id="key-name-hint">
              What the key is for, e.g. "Zoom integration".
            </span>
          </div>
          <div class="field">
            <label for="key-team">Team</label>
            <select id="key-team" name="team" required>
              {props.teams.map((t) => (
                <option value={t.id} selected={props.form.team === t.id} safe>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend>Scopes</legend>
            {SCOPES.map((s) => (
              <Checkbox
                name="scopes"
                value={s}
                id={`scope-${s.replace(':', '-')}`}
                checked={props.form.scopes.includes(s)}
                label={s}
                hint={SCOPE_HINTS[s]}
              />
            ))}
          </fieldset>
          <div>
            <button type="submit" class="button primary">
              Create key
            </button>
          </div>
        </form>
      )}
    </SettingsShell>
  );
}

/** The secret, shown once: only its digest is stored. */
export function KeySecretPage(
  props: PageBase & { heading: string; keyName: string; secret: string; keyId: string; extra?: string },
): JSX.Element {
  return (
    <SettingsShell {...props} title={props.heading} section="api-keys">
      <p class="breadcrumb">
        <a href="/settings/api-keys">API keys</a>
      </p>
      <h1 safe>{props.heading}</h1>
      <section class="card form-card stack">
        <p>
          <strong>Copy this key now.</strong> It is shown only once: Callscore keeps only a fingerprint of it
          and cannot show it again.
        </p>
        <OneTimeValue
          id="secret"
          label={`Secret of "${props.keyName}"`}
          value={props.secret}
          hint='Send it as "Authorization: Bearer <key>" with every API request.'
        />
        {props.extra ? <p safe>{props.extra}</p> : ''}
        <p>
          <a href={`/settings/api-keys/${props.keyId}`}>View the key</a> ·{' '}
          <a href="/settings/api-keys">Back to API keys</a>
        </p>
      </section>
    </SettingsShell>
  );
}

export function ApiKeyPage(
  props: PageBase & {
    k: KeyView;
    admins: { id: string; name: string; email: string }[];
    notice?: string | null;
    errors?: string[];
    /** The grace period as sent, kept when the rotation was refused. */
    graceHours?: string;
  },
): JSX.Element {
  const k = props.k;
  const graceInvalid = props.graceHours !== undefined && (props.errors?.length ?? 0) > 0;
  const base = `/settings/api-keys/${k.id}`;
  const otherAdmins = props.admins;
  return (
    <SettingsShell {...props} title={`API key ${k.name}`} section="api-keys">
      <p class="breadcrumb">
        <a href="/settings/api-keys">API keys</a>
      </p>
      <h1 safe>{k.name}</h1>
      <dl class="summary">
        <div>
          <dt>Status</dt>
          <dd>
            <KeyStatus k={k} />
          </dd>
        </div>
        <div>
          <dt>Team</dt>
          <dd safe>{k.team_name}</dd>
        </div>
        <div>
          <dt>Key</dt>
          <dd>
            <code safe>{`${k.prefix}…`}</code>
          </dd>
        </div>
        <div>
          <dt>Scopes</dt>
          <dd safe>{k.scopes.join(', ')}</dd>
        </div>
        <div>
          <dt>Owner</dt>
          <dd>
            <span safe>{k.creator_name}</span>
            <span class="sub" safe>
              {k.creator_email}
            </span>
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd safe>{formatDateTime(k.created_at)}</dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd safe>{k.last_used_at ? formatDateTime(k.last_used_at) : 'Never'}</dd>
        </div>
      </dl>
      {k.state === 'revoked' ? (
        <p class="muted">This key no longer works. Create a new key if you need one.</p>
      ) : (
        <div class="panels">
          {k.state === 'active' ? (
            <section class="card" aria-labelledby="rotate-h">
              <h2 id="rotate-h">Rotate</h2>
              <p>
                Creates a new secret with the same name, team and scopes. The current secret keeps working for
                the grace period, so you can update your integration without losing calls.
              </p>
              <form method="post" action={`${base}/rotate`} class="stack">
                <Csrf token={props.csrfToken} />
                <div class="field">
                  <label for="grace">Grace period (hours)</label>
                  <input
                    id="grace"
                    name="grace_hours"
                    type="number"
                    min="0"
                    max="720"
                    step="1"
                    value={props.graceHours ?? '24'}
                    aria-describedby={graceInvalid ? `grace-hint ${FORM_ERRORS_ID}` : 'grace-hint'}
                    aria-invalid={graceInvalid ? 'true' : undefined}
                  />
                  <span class="sub" id="grace-hint">
                    0 stops the current secret at once; at most 720 (30 days).
                  </span>
                </div>
                <div>
                  <button type="submit" class="button">
                    Rotate key
                  </button>
                </div>
              </form>
            </section>
          ) : (
            ''
          )}
          <section class="card" aria-labelledby="transfer-h">
            <h2 id="transfer-h">Transfer</h2>
            <p>
              Calls sent without a rep are attributed to the key's owner, and a key stops working when its
              owner is deactivated. Transfer it to another admin before someone leaves.
            </p>
            {otherAdmins.length === 0 ? (
              <p class="muted">There is no other active admin to transfer to.</p>
            ) : (
              <form method="post" action={`${base}/transfer`} class="stack">
                <Csrf token={props.csrfToken} />
                <div class="field">
                  <label for="owner">New owner</label>
                  <select id="owner" name="owner">
                    {otherAdmins.map((a) => (
                      <option value={a.id} safe>
                        {`${a.name} (${a.email})`}
                      </option>
                    ))}
                  </select>
                </div>
                <div>
                  <button type="submit" class="button">
                    Transfer key
                  </button>
                </div>
              </form>
            )}
          </section>
          <section class="card" aria-labelledby="revoke-h">
            <h2 id="revoke-h">Revoke</h2>
            <p>Stops the key at once. Requests with it are refused from now on. This cannot be undone.</p>
            <ActionForm action={`${base}/revoke`} csrfToken={props.csrfToken} label="Revoke key" danger />
          </section>
        </div>
      )}
    </SettingsShell>
  );
}
