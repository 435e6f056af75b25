/**
 * The library's date and score filters and the transcript search (`q`), over real HTTP on every enabled
 * database: the page, its form and the CSV export share them, and visibility still bounds every result.
 */
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { recordTestResult } from '../helpers/results.js';
import { KEYS, callBody, sampleSegments } from '../helpers/workspace.js';
import { indexCallForSearch } from '../../src/store/search.repo.js';
import { createWorker } from '../../src/scoring/worker.js';
import { createRulesScorer } from '../../src/scoring/scorers/rules.js';
import { MIGRATIONS } from '../../src/store/db.js';
import { WebClient, webWorkspace } from './web-client.js';

const UUID_IN_HREF = /href="\/calls\/([0-9a-f-]{36})"/g;

/** The call ids a library page lists, in order. */
function listed(html: string): string[] {
  return [...html.matchAll(UUID_IN_HREF)].map((m) => m[1]!);
}

/** The call ids of a CSV export (from the app_url column). */
function exported(csv: string): string[] {
  return [...csv.matchAll(/\/calls\/([0-9a-f-]{36})/g)].map((m) => m[1]!);
}

describeEachDialect('library filters and search on %s', (dialect) => {
  let t: TestApp;
  let ada: WebClient;
  let bob: WebClient;
  let erin: WebClient;
  const ids = { late10: '', early11: '', noon12: '', erin11: '' };

  /** Creates a call through the API and indexes it for search, as the scoring worker does when it runs. */
  async function createCall(key: string, body: Record<string, unknown>): Promise<string> {
    const res = await t.api('POST', '/v1/calls', { key, body });
    expect(res.status, res.text).toBe(202);
    await indexCallForSearch(t.deps.store.db, t.deps.store.dialect, res.body.id);
    return res.body.id as string;
  }

  /** SQLite: the call's rows in the FTS5 index and in its rowid map (PostgreSQL keeps a column on the row). */
  async function ftsRows(id: string) {
    const db = t.deps.store.db;
    const count = async (query: string) =>
      (await sql<{ n: number }>`${sql.raw(query)}`.execute(db)).rows[0]!.n;
    const mapped = `select fts_rowid from call_search_rows where call_id = '${id}'`;
    const [entries, rows] = await Promise.all([
      count(`select count(*) as n from call_search where rowid in (${mapped})`),
      count(`select count(*) as n from (${mapped})`),
    ]);
    return { entries, mapped: rows };
  }

  async function score(callId: string, value: number): Promise<void> {
    await recordTestResult(t.deps.store.db, callId, { score: value, scorecardVersion: null });
  }

  async function signedIn(email: string): Promise<WebClient> {
    const client = new WebClient(t.baseUrl);
    expect((await client.signIn(email)).status).toBe(303);
    return client;
  }

  beforeAll(async () => {
    t = await startApp(dialect, { workspace: webWorkspace() });
    const bobCall = (occurredAt: string, words: string) =>
      createCall(
        KEYS.full,
        callBody({ occurred_at: occurredAt, transcript: { segments: sampleSegments(` ${words}`) } }),
      );
    ids.late10 = await bobCall('2026-11-10T23:59:59Z', 'Zanzibar pelican.');
    ids.early11 = await bobCall('2026-11-11T00:00:00Z', 'Pelican crossing.');
    ids.noon12 = await bobCall('2026-11-12T12:00:00Z', 'Marmalade.');
    ids.erin11 = await createCall(
      KEYS.east,
      callBody({
        occurred_at: '2026-11-11T09:30:00Z',
        rep: { email: 'erin@acme.test' },
        transcript: {
          segments: [
            { speaker: 'Dana Buyer', text: 'We saw a quokka at the offsite.', start_ms: 0 },
            { speaker: 'Erin East', text: 'Lovely. Shall we talk about renewals?', start_ms: 4000 },
          ],
        },
      }),
    );
    await score(ids.late10, 80);
    await score(ids.early11, 40);
    await score(ids.erin11, 90.5);
    ada = await signedIn('ada@acme.test');
    bob = await signedIn('bob.stone@acme.test');
    erin = await signedIn('erin@acme.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function library(client: WebClient, query: string): Promise<string[]> {
    const res = await client.get(`/calls?${query}`);
    expect(res.status, res.text).toBe(200);
    return listed(res.text);
  }

  describe('date range', () => {
    it('is inclusive of whole UTC days at both ends', async () => {
      expect(new Set(await library(ada, 'from=2026-11-11'))).toEqual(
        new Set([ids.early11, ids.noon12, ids.erin11]),
      );
      expect(new Set(await library(ada, 'to=2026-11-11'))).toEqual(
        new Set([ids.late10, ids.early11, ids.erin11]),
      );
      expect(new Set(await library(ada, 'from=2026-11-11&to=2026-11-11'))).toEqual(
        new Set([ids.early11, ids.erin11]),
      );
      expect(await library(ada, 'from=2026-11-13')).toEqual([]);
    });

    it('ignores dates that are not real days instead of failing', async () => {
      const all = new Set(await library(ada, ''));
      expect(new Set(await library(ada, 'from=2026-02-30&to=yesterday'))).toEqual(all);
      const page = await ada.get('/calls?from=2026-02-30');
      expect(page.text).not.toContain('2026-02-30');
    });
  });

  describe('score range', () => {
    it('filters on the current score, inclusive, and leaves out unscored calls', async () => {
      expect(new Set(await library(ada, 'min_score=40&max_score=80'))).toEqual(
        new Set([ids.late10, ids.early11]),
      );
      expect(await library(ada, 'min_score=80.1')).toEqual([ids.erin11]);
      expect(await library(ada, 'max_score=39.9')).toEqual([]);
      // As shown: 90.5 shows as 91, so it is in "at least 91" and not in "at most 90".
      expect(await library(ada, 'min_score=91')).toEqual([ids.erin11]);
      expect(await library(ada, 'min_score=81&max_score=90')).toEqual([]);
      expect(new Set(await library(ada, 'min_score=0'))).toEqual(
        new Set([ids.late10, ids.early11, ids.erin11]),
      );
    });

    it('ignores bounds outside 0..100 or not numbers', async () => {
      const all = new Set(await library(ada, ''));
      expect(new Set(await library(ada, 'min_score=101&max_score=abc'))).toEqual(all);
      expect(new Set(await library(ada, 'min_score=-5'))).toEqual(all);
    });

    it('combines with the date range and visibility', async () => {
      expect(await library(ada, 'from=2026-11-11&min_score=50')).toEqual([ids.erin11]);
      expect(await library(bob, 'from=2026-11-11&min_score=50')).toEqual([]);
    });
  });

  describe('filter form', () => {
    it('has a labelled input for each new filter, showing the applied values', async () => {
      const html = (await ada.get('/calls?from=2026-11-11&to=2026-11-12&min_score=40&max_score=90&q=pelican'))
        .text;
      for (const [id, name, value] of [
        ['f-q', 'q', 'pelican'],
        ['f-from', 'from', '2026-11-11'],
        ['f-to', 'to', '2026-11-12'],
        ['f-min-score', 'min_score', '40'],
        ['f-max-score', 'max_score', '90'],
      ] as const) {
        expect(html).toContain(`<label for="${id}">`);
        expect(html).toMatch(new RegExp(`<input id="${id}" name="${name}"[^>]* value="${value}"`));
      }
      expect(html).toContain('Clear filters');
    });

    it('escapes the search words it shows back', async () => {
      const html = (await ada.get(`/calls?q=${encodeURIComponent('"><script>x</script>')}`)).text;
      // Inside a quoted attribute only the quote needs escaping: the value cannot end the attribute early.
      expect(html).not.toContain('value=""><script>');
      expect(html).toContain('<input id="f-q" name="q" type="search" value="&#34;><script>x</script>"');
    });

    it('links the CSV export with the same filters', async () => {
      const html = (await ada.get('/calls?from=2026-11-11&min_score=40&q=pelican')).text;
      expect(html).toContain('href="/calls.csv?from=2026-11-11&min_score=40&q=pelican"');
    });
  });

  describe('CSV export', () => {
    it('shares the date and score filters', async () => {
      const res = await ada.get('/calls.csv?from=2026-11-11&to=2026-11-11&min_score=41');
      expect(res.status).toBe(200);
      expect(exported(res.text)).toEqual([ids.erin11]);
    });

    it('shares the search, within visibility', async () => {
      expect(exported((await ada.get('/calls.csv?q=zanzibar')).text)).toEqual([ids.late10]);
      expect(exported((await bob.get('/calls.csv?q=quokka')).text)).toEqual([]);
    });
  });

  describe('transcript search', () => {
    it('finds a call by a word only in its transcript, in any case', async () => {
      expect(await library(ada, 'q=zanzibar')).toEqual([ids.late10]);
      expect(await library(ada, 'q=ZANZIBAR')).toEqual([ids.late10]);
      expect(await library(ada, 'q=marmalade')).toEqual([ids.noon12]);
      expect(await library(ada, 'q=%22zanzibar%22')).toEqual([ids.late10]);
      expect(await library(ada, 'q=nosuchwordanywhere')).toEqual([]);
    });

    it('indexes a call when the scoring worker processes it, not on the ingest request', async () => {
      // Its own app: running the worker here would score the shared fixtures other tests filter on.
      const own = await startApp(dialect, { workspace: webWorkspace() });
      try {
        const res = await own.api('POST', '/v1/calls', {
          body: callBody({ transcript: { segments: sampleSegments(' Capybara.') } }),
        });
        expect(res.status).toBe(202);
        const admin = new WebClient(own.baseUrl);
        expect((await admin.signIn('ada@acme.test')).status).toBe(303);
        const found = async () => listed((await admin.get('/calls?q=capybara')).text);
        expect(await found()).toEqual([]);
        const worker = createWorker({
          store: own.deps.store,
          scorer: createRulesScorer(),
          config: own.deps.config,
        });
        expect(await worker.runOnce()).toMatchObject({ callId: res.body.id });
        expect(await found()).toEqual([res.body.id]);
      } finally {
        await own.close();
      }
    });

    it('requires every word', async () => {
      expect(await library(ada, 'q=pelican%20zanzibar')).toEqual([ids.late10]);
      expect(new Set(await library(ada, 'q=pelican'))).toEqual(new Set([ids.late10, ids.early11]));
    });

    it('does not search speaker names', async () => {
      expect(await library(ada, 'q=dana')).toEqual([]);
    });

    it("respects visibility: a rep cannot find another rep's call", async () => {
      expect(await library(bob, 'q=quokka')).toEqual([]);
      expect(await library(erin, 'q=quokka')).toEqual([ids.erin11]);
      expect(await library(ada, 'q=quokka')).toEqual([ids.erin11]);
      expect(await library(erin, 'q=zanzibar')).toEqual([]);
    });

    it('combines with the other filters', async () => {
      expect(await library(ada, 'q=pelican&from=2026-11-11')).toEqual([ids.early11]);
      expect(await library(ada, 'q=pelican&min_score=50')).toEqual([ids.late10]);
    });

    it('pages with the search kept in the links', async () => {
      const first = await ada.get('/calls?q=pelican&per_page=1');
      expect(listed(first.text)).toEqual([ids.early11]);
      const next = /<a href="([^"]+)" rel="next">/.exec(first.text)?.[1]?.replace(/&amp;/g, '&');
      expect(next).toContain('q=pelican');
      const second = await ada.get(next!);
      expect(listed(second.text)).toEqual([ids.late10]);
      expect(second.text).not.toContain('rel="next"');
    });

    it.each([
      '"',
      '""',
      '*',
      '-',
      'NEAR',
      'NEAR(zanzibar pelican)',
      'zan*',
      '-zanzibar',
      'zanzibar AND OR NOT',
      '"zanzibar',
      "'; drop table calls; --",
      'body:zanzibar',
      '^zanzibar',
      '(',
      '\\',
      ':*',
      '!zanzibar',
      '&|',
    ])('survives query syntax characters: %s', async (q) => {
      const res = await ada.get(`/calls?q=${encodeURIComponent(q)}`);
      expect(res.status, res.text).toBe(200);
      expect(res.text).toContain('<h1>Calls</h1>');
      const csv = await ada.get(`/calls.csv?q=${encodeURIComponent(q)}`);
      expect(csv.status).toBe(200);
      expect(csv.text.startsWith('date,rep,team')).toBe(true);
    });

    it('treats a quoted operator word as a plain word', async () => {
      expect(await library(ada, 'q=zanzibar%20NEAR')).toEqual([]);
      expect(await library(ada, 'q=%22zanzibar')).toEqual([ids.late10]);
    });

    it('forgets a transcript when its row is deleted', async () => {
      const id = await createCall(
        KEYS.full,
        callBody({ transcript: { segments: sampleSegments(' Xylophone.') } }),
      );
      expect(await library(ada, 'q=xylophone')).toEqual([id]);
      if (dialect === 'sqlite') expect(await ftsRows(id)).toEqual({ entries: 1, mapped: 1 });
      await t.deps.store.db.deleteFrom('call_transcripts').where('call_id', '=', id).execute();
      expect(await library(ada, 'q=xylophone')).toEqual([]);
      if (dialect === 'sqlite') expect(await ftsRows(id)).toEqual({ entries: 0, mapped: 0 });
    });

    it('follows rewritten turns, and never fails a write over turns it cannot read', async () => {
      const id = await createCall(
        KEYS.full,
        callBody({ transcript: { segments: sampleSegments(' Gazebo.') } }),
      );
      const setTurns = async (turns: string) => {
        await t.deps.store.db
          .updateTable('call_transcripts')
          .set({ turns })
          .where('call_id', '=', id)
          .execute();
        await indexCallForSearch(t.deps.store.db, t.deps.store.dialect, id);
      };
      await setTurns('["a bare string", 42, {"speaker": "Ocelot", "text": "Armadillo talk."}]');
      expect(await library(ada, 'q=gazebo')).toEqual([]);
      expect(await library(ada, 'q=armadillo')).toEqual([id]);
      expect(await library(ada, 'q=ocelot')).toEqual([]);
      await setTurns('{not json');
      expect(await library(ada, 'q=armadillo')).toEqual([]);
      expect(await library(ada, 'q=not')).toEqual([]);
      // Re-indexing replaced the entry each time (found through the rowid map, not a scan): one entry, one map row.
      if (dialect === 'sqlite') expect(await ftsRows(id)).toEqual({ entries: 1, mapped: 1 });
    });

    it('indexes transcripts that existed before the migration (backfill)', async () => {
      const migrator = new Migrator({
        db: t.deps.store.db,
        provider: { getMigrations: async () => MIGRATIONS },
      });
      const down = await migrator.migrateTo('2026-11-28-dashboard');
      expect(down.error).toBeUndefined();
      expect(down.results?.map((r) => r.migrationName)).toContain('2026-11-29-search');
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      expect(await library(ada, 'q=zanzibar')).toEqual([ids.late10]);
      expect(await library(erin, 'q=quokka')).toEqual([ids.erin11]);
    });
  });
});
