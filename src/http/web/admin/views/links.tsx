/** The public pages behind one-time links: accept an invitation, reset a password, or a dead link. */
import { Layout } from '../../views/layout.js';

export interface SetPasswordProps {
  staging: boolean;
  csrfToken: string;
  action: string;
  heading: string;
  intro: string;
  email: string;
  button: string;
  error?: string;
}

export const MIN_PASSWORD_LENGTH = 12;

export function SetPasswordPage(props: SetPasswordProps): JSX.Element {
  return (
    <Layout title={props.heading} staging={props.staging}>
      <section class="card narrow login">
        <h1 safe>{props.heading}</h1>
        <p safe>{props.intro}</p>
        {props.error ? (
          <div class="alert" role="alert" id="password-error">
            <p safe>{props.error}</p>
          </div>
        ) : (
          ''
        )}
        <form method="post" action={props.action} class="stack" novalidate>
          <input type="hidden" name="_csrf" value={props.csrfToken} />
          <div class="field">
            <label for="email">Email</label>
            <input
              id="email"
              name="email"
              type="email"
              autocomplete="username"
              readonly
              value={props.email}
            />
          </div>
          <div class="field">
            <label for="password">New password</label>
            <input
              id="password"
              name="password"
              type="password"
              autocomplete="new-password"
              minlength={String(MIN_PASSWORD_LENGTH)}
              required
              aria-describedby={props.error ? 'password-hint password-error' : 'password-hint'}
              autofocus
            />
            <span class="sub" id="password-hint">{`At least ${MIN_PASSWORD_LENGTH} characters.`}</span>
          </div>
          <div class="field">
            <label for="confirm">Confirm password</label>
            <input id="confirm" name="confirm" type="password" autocomplete="new-password" required />
          </div>
          <button type="submit" class="button primary" safe>
            {props.button}
          </button>
        </form>
      </section>
    </Layout>
  );
}

export function DeadLinkPage(props: { staging: boolean }): JSX.Element {
  return (
    <Layout title="Link not valid" staging={props.staging}>
      <section class="narrow">
        <h1>This link is not valid</h1>
        <p>
          It has expired, has already been used, or was replaced by a newer one. Ask an admin of your account
          for a new link.
        </p>
        <p>
          <a href="/login">Go to sign-in</a>
        </p>
      </section>
    </Layout>
  );
}
