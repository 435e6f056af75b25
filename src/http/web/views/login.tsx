/** The sign-in page: "Email", "Password", "Sign in" (DESIGN 4 "Web"). */
import { Layout } from './layout.js';

export interface LoginPageProps {
  staging: boolean;
  csrfToken: string;
  next: string;
  email?: string;
  error?: string;
  /** Shown above the form, e.g. after the session ended. */
  notice?: string;
}

export function LoginPage(props: LoginPageProps): JSX.Element {
  return (
    <Layout title="Sign in" staging={props.staging}>
      <section class="card narrow login">
        <h1>Sign in to Callscore</h1>
        {props.notice && !props.error ? (
          <p class="notice" role="status" safe>
            {props.notice}
          </p>
        ) : (
          ''
        )}
        {props.error ? (
          <div class="alert" role="alert" id="login-error">
            <p safe>{props.error}</p>
          </div>
        ) : (
          ''
        )}
        <form method="post" action="/login" class="stack" novalidate>
          <input type="hidden" name="_csrf" value={props.csrfToken} />
          <input type="hidden" name="next" value={props.next} />
          <div class="field">
            <label for="email">Email</label>
            <input
              id="email"
              name="email"
              type="email"
              autocomplete="username"
              required
              value={props.email ?? ''}
              aria-describedby={props.error ? 'login-error' : undefined}
              aria-invalid={props.error ? 'true' : undefined}
              autofocus
            />
          </div>
          <div class="field">
            <label for="password">Password</label>
            <input
              id="password"
              name="password"
              type="password"
              autocomplete="current-password"
              required
              aria-describedby={props.error ? 'login-error' : undefined}
              aria-invalid={props.error ? 'true' : undefined}
            />
          </div>
          <button type="submit" class="button primary">
            Sign in
          </button>
        </form>
      </section>
    </Layout>
  );
}
