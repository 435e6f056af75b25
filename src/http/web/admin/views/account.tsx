/** Account settings: the name (editable), status and features (read-only). */
import { Csrf, FORM_ERRORS_ID, SettingsShell, type PageBase } from './shell.js';

const ACCOUNT_STATUS: Record<string, string> = {
  active: 'Active',
  suspended: 'Suspended: the API refuses requests (account_suspended)',
  payment_required: 'Payment required: the API refuses requests until the balance is settled',
};

const FEATURES: Record<string, string> = {
  call_scoring_api: 'Call scoring API',
};

export function AccountPage(
  props: PageBase & {
    account: { name: string; status: string; features: string[] };
    name: string;
    notice?: string | null;
    errors?: string[];
  },
): JSX.Element {
  const invalid = props.errors && props.errors.length ? FORM_ERRORS_ID : undefined;
  return (
    <SettingsShell {...props} title="Account" section="account">
      <h1>Account</h1>
      <div class="panels">
        <section class="card" aria-labelledby="name-h">
          <h2 id="name-h">Name</h2>
          <form method="post" action="/settings/account" class="stack" novalidate>
            <Csrf token={props.csrfToken} />
            <div class="field">
              <label for="account-name">Account name</label>
              <input
                id="account-name"
                name="name"
                type="text"
                maxlength="100"
                required
                value={props.name}
                aria-describedby={invalid}
              />
            </div>
            <div>
              <button type="submit" class="button primary">
                Save name
              </button>
            </div>
          </form>
        </section>
        <section class="card" aria-labelledby="plan-h">
          <h2 id="plan-h">Status and features</h2>
          <dl class="summary">
            <div>
              <dt>Status</dt>
              <dd safe>{ACCOUNT_STATUS[props.account.status] ?? props.account.status}</dd>
            </div>
            <div>
              <dt>Features</dt>
              <dd>
                {props.account.features.length ? (
                  <ul class="plain">
                    {props.account.features.map((f) => (
                      <li safe>{FEATURES[f] ?? f}</li>
                    ))}
                  </ul>
                ) : (
                  'None'
                )}
              </dd>
            </div>
          </dl>
          <p class="sub">Status and features are managed by Callscore; contact support to change them.</p>
        </section>
      </div>
    </SettingsShell>
  );
}
