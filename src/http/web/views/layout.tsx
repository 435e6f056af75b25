/** The page shell: skip link, optional Staging banner, header with navigation and sign-out, main landmark. */
import { roleLabel } from './format.js';

export interface LayoutProps {
  title: string;
  staging: boolean;
  /** Signed-in user; absent on the sign-in and error pages. */
  user?: { name: string; email: string; role: string } | null;
  csrfToken?: string;
  /** Which navigation item is current. */
  current?: 'calls' | 'settings' | 'scorecards' | 'dashboard';
  children?: JSX.Element | JSX.Element[];
}

export const STYLESHEET_PATH = '/assets/app.css';

export function Layout(props: LayoutProps): JSX.Element {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title safe>{`${props.title} · Callscore${props.staging ? ' (Staging)' : ''}`}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        {/* An inline icon: browsers stop asking for /favicon.ico (a 404 on every page). */}
        <link
          rel="icon"
          href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%231d4ed8'/%3E%3C/svg%3E"
        />
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to main content
        </a>
        {props.staging ? (
          <div class="env-banner">
            <strong>Staging</strong> — test environment with its own data
          </div>
        ) : (
          ''
        )}
        <header class="site-header">
          <a class="brand" href="/calls">
            Callscore
          </a>
          {props.user ? (
            <>
              <nav aria-label="Main">
                <ul>
                  <li>
                    <a href="/calls" aria-current={props.current === 'calls' ? 'page' : undefined}>
                      Calls
                    </a>
                  </li>
                  <li>
                    <a href="/dashboard" aria-current={props.current === 'dashboard' ? 'page' : undefined}>
                      Dashboard
                    </a>
                  </li>
                  {props.user.role === 'admin' || props.user.role === 'manager' ? (
                    <li>
                      <a
                        href="/scorecards"
                        aria-current={props.current === 'scorecards' ? 'page' : undefined}
                      >
                        Scorecards
                      </a>
                    </li>
                  ) : (
                    ''
                  )}
                  {props.user.role === 'admin' ? (
                    <li>
                      <a href="/settings" aria-current={props.current === 'settings' ? 'page' : undefined}>
                        Settings
                      </a>
                    </li>
                  ) : (
                    ''
                  )}
                </ul>
              </nav>
              <div class="account">
                <span class="who">
                  <span safe>{props.user.name}</span>{' '}
                  <span class="role" safe>
                    {roleLabel(props.user.role)}
                  </span>
                </span>
                <form method="post" action="/logout" class="inline">
                  <input type="hidden" name="_csrf" value={props.csrfToken ?? ''} />
                  <button type="submit" class="button-link">
                    Sign out
                  </button>
                </form>
              </div>
            </>
          ) : (
            ''
          )}
        </header>
        <main id="main" tabindex="-1">
          {props.children}
        </main>
      </body>
    </html>
  );
}
