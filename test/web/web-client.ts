/**
 * A tiny browser stand-in for HTTP-level web tests: keeps cookies, never follows redirects, reads the hidden
 * `_csrf` field of forms. Speaks plain fetch to the real server started by startApp.
 */
import { TEST_WORKSPACE } from '../helpers/workspace.js';
import type { Workspace } from '../../src/seed/workspace.js';

export const PASSWORD = 'correct horse battery staple';

export interface WebResponse {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: string,
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<WebResponse> {
    const h: Record<string, string> = { ...this.extraHeaders, ...headers };
    const cookie = this.cookieHeader();
    if (cookie) h.cookie = cookie;
    let body: string | undefined;
    if (form) {
      body = new URLSearchParams(form).toString();
      h['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers: h, body, redirect: 'manual' });
    this.remember(res.headers);
    return {
      status: res.status,
      headers: res.headers,
      text: await res.text(),
      location: res.headers.get('location'),
    };
  }

  get(path: string, headers?: Record<string, string>): Promise<WebResponse> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<WebResponse> {
    return this.request('POST', path, form, headers);
  }

  /** Loads /login (for its CSRF cookie and field) and submits the form. */
  async signIn(email: string, password = PASSWORD, next?: string): Promise<WebResponse> {
    const page = await this.get(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
    return this.post('/login', { _csrf: csrfOf(page.text), next: next ?? '', email, password });
  }

  /** The CSRF token of the signed-in layout (sign-out form). */
  async csrf(): Promise<string> {
    return csrfOf((await this.get('/calls')).text);
  }
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]*)"/.exec(html);
  if (!match) throw new Error('no _csrf field in page');
  return match[1]!;
}

/** The test workspace plus a manager of East, a pending user with a password and an inactive one. */
export function webWorkspace(): Workspace {
  const workspace = structuredClone(TEST_WORKSPACE);
  const acme = workspace.accounts[0]!;
  acme.users!.push(
    { email: 'mo@acme.test', name: 'Mo Manager', password: PASSWORD, role: 'manager', teams: ['East'] },
    {
      email: 'pat@acme.test',
      name: 'Pat Pending',
      password: PASSWORD,
      role: 'rep',
      teams: ['West'],
      status: 'pending',
    },
    {
      email: 'ina@acme.test',
      name: 'Ina Inactive',
      password: PASSWORD,
      role: 'rep',
      teams: ['West'],
      status: 'inactive',
    },
  );
  return workspace;
}
