/** Shared by the admin page tests: signed-in clients, reading one-time values and ids out of pages. */
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { PASSWORD, WebClient, csrfOf, webWorkspace } from './web-client.js';
import type { Workspace } from '../../src/seed/workspace.js';

/** The web workspace plus a second admin in Acme and a signable admin in the Other account. */
export function adminWorkspace(): Workspace {
  const workspace = webWorkspace();
  const acme = workspace.accounts[0]!;
  acme.users!.push({
    email: 'abe@acme.test',
    name: 'Abe Admin',
    password: PASSWORD,
    role: 'admin',
    teams: [],
  });
  const other = workspace.accounts[1]!;
  other.users![0]!.password = PASSWORD;
  return workspace;
}

export async function signedIn(t: TestApp, email: string, password = PASSWORD): Promise<WebClient> {
  const client = new WebClient(t.baseUrl);
  const res = await client.signIn(email, password);
  expect(res.status, res.text).toBe(303);
  return client;
}

/** Loads a page and posts a form with that page's CSRF token. */
export async function submit(
  client: WebClient,
  page: string,
  action: string,
  form: Record<string, string> = {},
) {
  const loaded = await client.get(page);
  expect(loaded.status, loaded.text).toBe(200);
  return client.post(action, { _csrf: csrfOf(loaded.text), ...form });
}

/** Posts a form whose fields repeat (checkboxes): pairs in order. */
export async function submitPairs(
  client: WebClient,
  page: string,
  action: string,
  pairs: [string, string][],
) {
  const loaded = await client.get(page);
  expect(loaded.status, loaded.text).toBe(200);
  const body = new URLSearchParams([['_csrf', csrfOf(loaded.text)], ...pairs]).toString();
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (cookie) headers.cookie = cookie;
  const res = await fetch(`${client.baseUrl}${action}`, {
    method: 'POST',
    headers,
    body,
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

export function secretOf(html: string): string {
  const match = /id="secret" type="text" readonly value="(svc_sk_[A-Za-z0-9_-]+)"/.exec(html);
  if (!match) throw new Error('no secret on the page');
  return match[1]!;
}

export function keyIdOf(html: string): string {
  const match = /href="\/settings\/api-keys\/([0-9a-f-]{36})">View the key/.exec(html);
  if (!match) throw new Error('no key link on the page');
  return match[1]!;
}

export function linkOf(html: string): string {
  const match = /id="link" type="text" readonly value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no one-time link on the page');
  return match[1]!;
}

export async function teamId(t: TestApp, name: string, account = 'Acme'): Promise<string> {
  const row = await t.deps.store.db
    .selectFrom('teams as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select('t.id')
    .where('t.name', '=', name)
    .where('a.name', '=', account)
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function userByEmail(t: TestApp, email: string) {
  return t.deps.store.db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
}
