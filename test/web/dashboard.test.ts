/**
 * GET /dashboard over real HTTP on every enabled database: who sees which numbers (DESIGN 4 "Visibility"), the
 * weekly trend by occurred_at (created_at when a call has none), per-criterion averages without N/A, counts by
 * status, per team / per rep, the filters, and the accessible chart markup. Calls are written straight into
 * `calls`; their results go through the worker's own write (test/helpers/results.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { weekBounds } from '../../src/http/web/dashboard/model.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { recordTestResult } from '../helpers/results.js';
import { WebClient, webWorkspace } from './web-client.js';

type Criterion = { key: string; title: string; weight: number; score: number | null; na: boolean };
const crit = (key: string, score: number | null, na = false): Criterion => ({
  key,
  title: { a: 'Asks questions', b: 'Agrees next steps', p: 'Handles pricing' }[key] ?? key,
  weight: 1,
  score,
  na,
});

/** The text of every `<dd data-stat="…">`. */
function stats(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<dd data-stat="([^"]+)">([\s\S]*?)<\/dd>/g)) {
    out[m[1]!] = m[2]!.replace(/<[^>]+>/g, '').trim();
  }
  return out;
}

/** Rows of the table with the given id (or the table after the given heading id) as arrays of cell texts. */
function tableRows(html: string, marker: string): string[][] {
  const start = html.indexOf(marker);
  if (start < 0) return [];
  const body = html.slice(start).match(/<tbody>([\s\S]*?)<\/tbody>/)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) =>
      c[1]!
        .replace(/<span class="visually-hidden">[^<]*<\/span>/g, '')
        .replace(/<[^>]+>/g, '')
        .replace(/—/g, '')
        .trim(),
    ),
  );
}

describeEachDialect('dashboard on %s', (dialect) => {
  let t: TestApp;
  const ids = { acme: '', other: '', west: '', east: '', otherTeam: '', bob: '', erin: '', otherAdmin: '' };
  const bounds = weekBounds(new Date());
  const inWeek = (k: number, hours = 2) => new Date(Date.parse(bounds[k]!) + hours * 3600_000).toISOString();
  const weekLabel = (k: number) =>
    new Date(bounds[k]!).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });

  async function addCall(o: {
    account?: string;
    team: string;
    rep: string;
    status: string;
    occurredAt: string | null;
    createdAt?: string;
    score?: number | null;
    criteria?: Criterion[];
    previousScore?: number;
  }): Promise<string> {
    const db = t.deps.store.db;
    const id = randomUUID();
    const created = o.createdAt ?? new Date().toISOString();
    await db
      .insertInto('calls')
      .values({
        id,
        account_id: o.account ?? ids.acme,
        team_id: o.team,
        rep_user_id: o.rep,
        ingest_rep_user_id: o.rep,
        provider: null,
        external_id: null,
        fingerprint: randomUUID(),
        status: o.status,
        skip_reason: o.status === 'skipped' ? 'too_short' : null,
        call_type: 'discovery',
        scorecard_id: null,
        title: 'Call with Carla',
        rep_speaker: 'Rep',
        speaker_source: null,
        rep_source: null,
        speaker_confidence: null,
        recording_id: null,
        api_key_id: null,
        occurred_at: o.occurredAt,
        created_at: created,
        updated_at: created,
      })
      .execute();
    // Through the worker's own write: a re-score makes the previous result history, and the call row carries
    // the current score as the scoring worker leaves it.
    if (o.previousScore !== undefined) {
      await recordTestResult(
        db,
        id,
        { score: o.previousScore, criteria: [crit('a', 0), crit('b', 0)] },
        new Date(created),
      );
    }
    if (o.score !== undefined) {
      await recordTestResult(db, id, { score: o.score, criteria: o.criteria ?? [] }, new Date(created));
    }
    return id;
  }

  async function signedIn(email: string): Promise<WebClient> {
    const client = new WebClient(t.baseUrl);
    const res = await client.signIn(email);
    expect(res.status, res.text).toBe(303);
    return client;
  }

  beforeAll(async () => {
    t = await startApp(dialect, { workspace: webWorkspace() });
    const db = t.deps.store.db;
    const account = async (name: string) =>
      (await db.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const team = async (accountId: string, name: string) =>
      (
        await db
          .selectFrom('teams')
          .select('id')
          .where('account_id', '=', accountId)
          .where('name', '=', name)
          .executeTakeFirstOrThrow()
      ).id;
    const user = async (email: string) =>
      (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    ids.acme = await account('Acme');
    ids.other = await account('Other');
    ids.west = await team(ids.acme, 'West');
    ids.east = await team(ids.acme, 'East');
    ids.otherTeam = await team(ids.other, 'Team');
    ids.bob = await user('bob.stone@acme.test');
    ids.erin = await user('erin@acme.test');
    ids.otherAdmin = await user('admin@other.test');

    const bob = { team: ids.west, rep: ids.bob };
    const erin = { team: ids.east, rep: ids.erin };
    // Bob (West): two scored calls in week 9, one in week 3 (re-scored: only the current result counts),
    // a skipped and a queued call in week 10, and a web-made call without occurred_at created in week 10.
    await addCall({
      ...bob,
      status: 'scored',
      occurredAt: inWeek(9),
      score: 80,
      criteria: [crit('a', 1), crit('b', 0.5), crit('p', null, true)],
    });
    await addCall({
      ...bob,
      status: 'scored',
      occurredAt: inWeek(9, 30),
      score: 60,
      criteria: [crit('a', 0), crit('b', 1), crit('p', 0.5)],
    });
    await addCall({
      ...bob,
      status: 'scored',
      occurredAt: inWeek(3),
      score: 90,
      previousScore: 10,
      criteria: [crit('a', 1)],
    });
    await addCall({ ...bob, status: 'skipped', occurredAt: inWeek(10), score: null });
    await addCall({ ...bob, status: 'queued', occurredAt: inWeek(10, 5) });
    await addCall({
      ...bob,
      status: 'scored',
      occurredAt: null,
      createdAt: inWeek(10, 8),
      score: 50,
      criteria: [crit('a', 0)],
    });
    // Erin (East): one scored call in week 9 and a failed one in week 8.
    await addCall({
      ...erin,
      status: 'scored',
      occurredAt: inWeek(9, 3),
      score: 40,
      criteria: [crit('a', 0.5), crit('b', 0.5)],
    });
    await addCall({ ...erin, status: 'failed', occurredAt: inWeek(8) });
    // Outside the window (a week before it starts) and in another account: never counted.
    const before = new Date(Date.parse(bounds[0]!) - 3 * 24 * 3600_000).toISOString();
    await addCall({ ...bob, status: 'scored', occurredAt: before, score: 0, criteria: [crit('a', 0)] });
    await addCall({
      account: ids.other,
      team: ids.otherTeam,
      rep: ids.otherAdmin,
      status: 'scored',
      occurredAt: inWeek(9),
      score: 100,
      criteria: [crit('a', 1)],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends anonymous visitors to /login with next', async () => {
    const res = await new WebClient(t.baseUrl).get('/dashboard?team=x');
    expect([res.status, res.location]).toEqual([303, '/login?next=%2Fdashboard%3Fteam%3Dx']);
  });

  it('shows an admin every call of the account in the window: counts, trend, criteria, teams, reps', async () => {
    const admin = await signedIn('ada@acme.test');
    const res = await admin.get('/dashboard');
    expect(res.status).toBe(200);
    expect(stats(res.text)).toEqual({
      calls: '8',
      queued: '1',
      scoring: '0',
      scored: '5',
      skipped: '1',
      failed: '1',
      // (80 + 60 + 90 + 50 + 40) / 5
      average: '64',
    });
    const trend = tableRows(res.text, 'id="trend-table"');
    expect(trend).toHaveLength(12);
    expect(trend[3]).toEqual([weekLabel(3), '1', '90']);
    expect(trend[9]).toEqual([weekLabel(9), '3', '60']);
    expect(trend[10]).toEqual([weekLabel(10), '1', '50']);
    expect(trend[0]).toEqual([weekLabel(0), '0', 'No scored calls']);
    // a: (1 + 0 + 1 + 0 + 0.5) / 5; b: (0.5 + 1 + 0.5) / 3; pricing: N/A left out, so 0.5 over one call.
    expect(tableRows(res.text, 'id="criteria-table"')).toEqual([
      ['Asks questions', '50%', '5'],
      ['Handles pricing', '50%', '1'],
      ['Agrees next steps', '67%', '3'],
    ]);
    expect(tableRows(res.text, 'id="d-teams"')).toEqual([
      ['East', '2', '1', '40'],
      ['West', '6', '4', '70'],
    ]);
    expect(tableRows(res.text, 'id="d-reps"')).toEqual([
      ['Bob Stone', '6', '4', '70'],
      ['Erin East', '2', '1', '40'],
    ]);
    expect(res.text).toContain('<a href="/dashboard" aria-current="page">');
  });

  it("narrows an admin's view to one team or one rep", async () => {
    const admin = await signedIn('ada@acme.test');
    const east = await admin.get(`/dashboard?team=${ids.east}`);
    expect(stats(east.text)).toMatchObject({ calls: '2', scored: '1', failed: '1', average: '40' });
    expect(tableRows(east.text, 'id="d-teams"')).toEqual([['East', '2', '1', '40']]);
    expect(east.text).toMatch(new RegExp(`<option value="${ids.east}" selected`));
    const bob = await admin.get(`/dashboard?rep=${ids.bob}`);
    expect(stats(bob.text)).toMatchObject({ calls: '6', scored: '4', average: '70' });
    expect(tableRows(bob.text, 'id="d-reps"')).toEqual([['Bob Stone', '6', '4', '70']]);
  });

  it("shows a manager only their team's calls, and ignores another team in the filter", async () => {
    const mo = await signedIn('mo@acme.test');
    for (const path of ['/dashboard', `/dashboard?team=${ids.west}`, `/dashboard?rep=${ids.bob}`]) {
      const res = await mo.get(path);
      expect(res.status).toBe(200);
      expect(stats(res.text), path).toMatchObject({ calls: '2', scored: '1', failed: '1', average: '40' });
      expect(tableRows(res.text, 'id="d-teams"')).toEqual([['East', '2', '1', '40']]);
      expect(tableRows(res.text, 'id="d-reps"')).toEqual([['Erin East', '2', '1', '40']]);
      expect(res.text).not.toContain('Bob Stone');
      expect(res.text).not.toContain(`value="${ids.west}"`);
    }
  });

  it('shows a rep only their own numbers, without team or rep breakdowns or filters', async () => {
    const bob = await signedIn('bob.stone@acme.test');
    const res = await bob.get(`/dashboard?team=${ids.east}&rep=${ids.erin}`);
    expect(res.status).toBe(200);
    expect(stats(res.text)).toEqual({
      calls: '6',
      queued: '1',
      scoring: '0',
      scored: '4',
      skipped: '1',
      failed: '0',
      average: '70',
    });
    expect(tableRows(res.text, 'id="criteria-table"')).toEqual([
      ['Asks questions', '50%', '4'],
      ['Handles pricing', '50%', '1'],
      ['Agrees next steps', '75%', '2'],
    ]);
    expect(res.text).not.toContain('id="d-teams"');
    expect(res.text).not.toContain('id="d-reps"');
    expect(res.text).not.toContain('name="team"');
    expect(res.text).not.toContain('Erin East');
  });

  it('draws the charts as accessible inline SVG with a title, a description and a data table', async () => {
    const admin = await signedIn('ada@acme.test');
    const { text } = await admin.get('/dashboard');
    const svgs = [...text.matchAll(/<svg([^>]*)>([\s\S]*?)<\/svg>/g)];
    expect(svgs).toHaveLength(2);
    for (const [, attrs, inner] of svgs) {
      expect(attrs).toContain('role="img"');
      const [titleId, descId] = /aria-labelledby="([^"]+)"/.exec(attrs!)![1]!.split(' ');
      expect(inner).toMatch(
        new RegExp(`^<title id="${titleId}">[^<]+</title><desc id="${descId}">[^<]+</desc>`),
      );
    }
    // Weeks 3, 9 and 10 have points; the gap after week 3 breaks the line, so only weeks 9–10 are joined.
    expect(svgs[0]![2]!.match(/<circle /g)).toHaveLength(3);
    expect(svgs[0]![2]!.match(/<polyline /g)).toHaveLength(1);
    expect(svgs[0]![2]).toMatch(/The latest, the week of [A-Z][a-z]{2} \d+, averaged 50 over 1 call\./);
    expect(svgs[1]![2]).toContain('Asks questions 50%; Handles pricing 50%; Agrees next steps 67%.');
    expect(svgs[1]![2]!.match(/class="bar bar-/g)).toHaveLength(3);
    expect(text).toContain('<table class="visually-hidden" id="trend-table">');
  });

  it('shows an empty state to a user without calls', async () => {
    const pat = await signedIn('pat@acme.test');
    const res = await pat.get('/dashboard');
    expect(res.status).toBe(200);
    expect(stats(res.text)).toMatchObject({ calls: '0', scored: '0' });
    expect(res.text).toContain('No scored calls in this period yet.');
    expect(res.text).not.toContain('<svg');
  });
});
