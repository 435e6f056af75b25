/**
 * Scorecard management over real HTTP: per-team lists, create from a template, criteria edits as versions,
 * publish / archive, and the team's default and call-type rules deciding the scorecard of calls sent through
 * the API. Managers manage their own teams, admins all; reps and other teams get 404.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCORECARD_TEMPLATES } from '../../src/scoring/templates.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { SCORECARDS, callBody } from '../helpers/workspace.js';
import { PASSWORD, WebClient, webWorkspace } from './web-client.js';

describeEachDialect('scorecards on %s', (dialect) => {
  let t: TestApp;
  const web: Record<string, WebClient> = {};
  let westId = '';
  let eastId = '';

  async function post(client: WebClient, path: string, form: Record<string, string>) {
    return client.post(path, { _csrf: await client.csrf(), ...form });
  }
  const card = (id: string) =>
    t.deps.store.db.selectFrom('scorecards').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const versions = (id: string) =>
    t.deps.store.db
      .selectFrom('scorecard_versions')
      .selectAll()
      .where('scorecard_id', '=', id)
      .orderBy('version')
      .execute();

  async function createFromTemplate(
    client: WebClient,
    team: string,
    template: string,
    name = '',
  ): Promise<string> {
    const res = await post(client, '/scorecards', { team, template, name });
    expect(res.status, res.text).toBe(303);
    return /^\/scorecards\/([0-9a-f-]{36})\?notice=created$/.exec(res.location!)![1]!;
  }

  beforeAll(async () => {
    const w = webWorkspace();
    w.accounts[0]!.users!.push({
      email: 'wendy@acme.test',
      name: 'Wendy West',
      password: PASSWORD,
      role: 'manager',
      teams: ['West'],
    });
    t = await startApp(dialect, { workspace: w });
    for (const email of ['wendy@acme.test', 'mo@acme.test', 'ada@acme.test', 'bob.stone@acme.test']) {
      const client = new WebClient(t.baseUrl);
      expect((await client.signIn(email)).status).toBe(303);
      web[email] = client;
    }
    const teams = await t.deps.store.db.selectFrom('teams').select(['id', 'name']).execute();
    westId = teams.find((x) => x.name === 'West')!.id;
    eastId = teams.find((x) => x.name === 'East')!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the manager’s teams only, with status and version; admins see every team; reps get 404', async () => {
    const wendy = await web['wendy@acme.test']!.get('/scorecards');
    expect(wendy.status).toBe(200);
    expect(wendy.text).toContain(`href="/scorecards/${SCORECARDS.discovery}"`);
    expect(wendy.text).not.toContain(SCORECARDS.eastDefault);
    expect(wendy.text).toMatch(/Discovery<\/a><span class="sub"> · team default<\/span>/);
    expect(wendy.text).toContain('<span class="status status-card-draft">Draft</span>');
    expect(wendy.text).toContain('<a href="/scorecards" aria-current="page">Scorecards</a>');
    const ada = await web['ada@acme.test']!.get('/scorecards');
    expect(ada.text).toContain(SCORECARDS.eastDefault);
    expect(ada.text).toContain(SCORECARDS.discovery);
    const bob = web['bob.stone@acme.test']!;
    expect((await bob.get('/scorecards')).status).toBe(404);
    expect((await bob.get(`/scorecards/${SCORECARDS.discovery}`)).status).toBe(404);
    expect((await bob.get('/calls')).text).not.toContain('href="/scorecards"');
  });

  it('creates a draft from a template in one step (version 1 holds the template’s criteria)', async () => {
    const template = SCORECARD_TEMPLATES[0]!;
    const id = await createFromTemplate(web['wendy@acme.test']!, westId, template.key, 'West discovery');
    const row = await card(id);
    expect([row.name, row.status, Number(row.current_version), row.team_id]).toEqual([
      'West discovery',
      'draft',
      1,
      westId,
    ]);
    const v = await versions(id);
    expect(v.map((x) => Number(x.version))).toEqual([1]);
    expect(JSON.parse(v[0]!.criteria).map((c: { key: string }) => c.key)).toEqual(
      template.criteria.map((c) => c.key),
    );
    const page = await web['wendy@acme.test']!.get(`/scorecards/${id}?notice=created`);
    expect(page.text).toContain('Scorecard created as a draft.');
    // The same name again is refused; another team is 404.
    const dup = await post(web['wendy@acme.test']!, '/scorecards', {
      team: westId,
      template: template.key,
      name: 'West discovery',
    });
    expect(dup.status).toBe(422);
    expect(dup.text).toContain('already has a scorecard named “West discovery”');
    expect(
      (await post(web['wendy@acme.test']!, '/scorecards', { team: eastId, template: template.key })).status,
    ).toBe(404);
  });

  it('edits criteria: invalid JSON or criteria show errors by the field; a valid edit adds a version', async () => {
    const wendy = web['wendy@acme.test']!;
    const id = await createFromTemplate(wendy, westId, SCORECARD_TEMPLATES[0]!.key, 'Edited card');
    const broken = await post(wendy, `/scorecards/${id}`, { name: 'Edited card', criteria: '[{"key": ' });
    expect(broken.status).toBe(422);
    expect(broken.text).toMatch(/<ul id="card-criteria-errors" class="field-error"><li>Not valid JSON/);
    expect(broken.text).toContain('[{&#34;key&#34;: ');
    const invalid = await post(wendy, `/scorecards/${id}`, {
      name: 'Edited card',
      criteria: JSON.stringify([
        { key: 'a', title: 'A', check: { type: 'phrases', any: ['x'], min: 'two' } },
      ]),
    });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain('criteria[0].check.min');
    expect(Number((await card(id)).current_version)).toBe(1);

    const criteria = [
      { key: 'next_steps', title: 'Agrees <next> steps', check: { type: 'phrases', any: ['next step'] } },
    ];
    const ok = await post(wendy, `/scorecards/${id}`, {
      name: 'Edited card v2',
      criteria: JSON.stringify(criteria),
    });
    expect([ok.status, ok.location]).toEqual([303, `/scorecards/${id}?notice=saved`]);
    const row = await card(id);
    expect([row.name, Number(row.current_version)]).toEqual(['Edited card v2', 2]);
    const v = await versions(id);
    expect(v.map((x) => Number(x.version))).toEqual([1, 2]);
    // Stored with defaults filled in by validateCriteria.
    expect(JSON.parse(v[1]!.criteria)).toEqual([
      { ...criteria[0], weight: 1, check: { type: 'phrases', any: ['next step'], min: 1 } },
    ]);
    const page = await wendy.get(`/scorecards/${id}`);
    expect(page.text).toContain('Agrees &lt;next> steps');
    expect(page.text).toContain(`<a href="/scorecards/${id}/versions/2">Version 2</a> (current)`);

    // A name-only save renames: versions pin criteria.
    const renamed = await post(wendy, `/scorecards/${id}`, {
      name: 'Renamed card',
      criteria: v[1]!.criteria,
    });
    expect(renamed.status).toBe(303);
    expect([(await card(id)).name, Number((await card(id)).current_version)]).toEqual(['Renamed card', 2]);

    // A past version opens read-only and can be restored as a new version.
    const first = await wendy.get(`/scorecards/${id}/versions/1`);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Renamed card, version 1');
    expect(first.text).toContain('Restoring saves these criteria as version 3.');
    // What the current version changed against it, by criterion key.
    const changes = first.text.slice(
      first.text.indexOf('id="version-changes"'),
      first.text.indexOf('id="version-criteria"'),
    );
    expect(changes).toContain('From this version to the current one (version 2)');
    expect(changes).toMatch(/<li>Removed: [^<]+ \(\w+\); restoring brings it back<\/li>/);
    expect(changes).toContain('Agrees &lt;next> steps (next_steps)');
    const restoredCriteria = /name="criteria" value="([^"]*)"/
      .exec(first.text)![1]!
      .replace(/&#34;/g, '"')
      .replace(/&amp;/g, '&');
    const restore = await post(wendy, `/scorecards/${id}`, {
      name: 'Renamed card',
      criteria: restoredCriteria,
    });
    expect(restore.status).toBe(303);
    expect(Number((await card(id)).current_version)).toBe(3);
    expect(JSON.parse((await versions(id))[2]!.criteria)).toEqual(
      JSON.parse((await versions(id))[0]!.criteria),
    );
    // The restored version equals version 1: nothing changed from there; the current version lists no changes.
    const again = await wendy.get(`/scorecards/${id}/versions/1`);
    expect(again.text).toContain("The criteria are the same as the current version's.");
    expect((await wendy.get(`/scorecards/${id}/versions/3`)).text).not.toContain('id="version-changes"');
    expect((await wendy.get(`/scorecards/${id}/versions/9`)).status).toBe(404);
    expect((await web['bob.stone@acme.test']!.get(`/scorecards/${id}/versions/1`)).status).toBe(404);
  });

  it('publishes and archives', async () => {
    const wendy = web['wendy@acme.test']!;
    const id = await createFromTemplate(wendy, westId, SCORECARD_TEMPLATES[0]!.key, 'Lifecycle');
    expect((await post(wendy, `/scorecards/${id}/status`, { status: 'published' })).location).toBe(
      `/scorecards/${id}?notice=published`,
    );
    expect((await card(id)).status).toBe('published');
    expect((await post(wendy, `/scorecards/${id}/status`, { status: 'archived' })).location).toBe(
      `/scorecards/${id}?notice=archived`,
    );
    expect((await card(id)).status).toBe('archived');
    expect((await post(wendy, `/scorecards/${id}/status`, { status: 'deleted' })).status).toBe(422);
    expect((await wendy.post(`/scorecards/${id}/status`, { status: 'published' })).status).toBe(403);
    expect(
      (await post(web['mo@acme.test']!, `/scorecards/${id}/status`, { status: 'published' })).status,
    ).toBe(404);
    expect((await card(id)).status).toBe('archived');
  });

  it('sets the team default and a call-type rule: an API call without scorecard_id gets the rule’s scorecard', async () => {
    const wendy = web['wendy@acme.test']!;
    const id = await createFromTemplate(wendy, westId, SCORECARD_TEMPLATES[1]!.key, 'Cold calls');
    const draftRule = await post(wendy, `/scorecards/teams/${westId}/choice`, {
      default: SCORECARDS.discovery,
      rule_cold_call: id,
    });
    expect(draftRule.status).toBe(422);
    expect(draftRule.text).toContain('Choose published scorecards of West.');
    await post(wendy, `/scorecards/${id}/status`, { status: 'published' });
    const res = await post(wendy, `/scorecards/teams/${westId}/choice`, {
      default: SCORECARDS.negotiation,
      rule_cold_call: id,
      rule_negotiation: '',
    });
    expect([res.status, res.location]).toEqual([303, `/scorecards?notice=rules#team-${westId}`]);
    const rules = await t.deps.store.db
      .selectFrom('team_scorecard_rules')
      .selectAll()
      .where('team_id', '=', westId)
      .execute();
    expect(rules.map((r) => [r.call_type, r.scorecard_id])).toEqual([['cold_call', id]]);

    const sent = async (callType: string) => {
      const created = await t.api('POST', '/v1/calls', { body: callBody({ call_type: callType }) });
      expect(created.status, created.text).toBe(202);
      return (
        await t.deps.store.db
          .selectFrom('calls')
          .select('scorecard_id')
          .where('id', '=', created.body.id)
          .executeTakeFirstOrThrow()
      ).scorecard_id;
    };
    expect(await sent('cold_call')).toBe(id);
    expect(await sent('discovery')).toBe(SCORECARDS.negotiation);
    // Their pages warn before archiving what the team relies on; a scorecard nothing points at does not.
    expect((await wendy.get(`/scorecards/${id}`)).text).toContain(
      'This scorecard is the scorecard for Cold call (call type rule). Archived or back in draft, it cannot score',
    );
    expect((await wendy.get(`/scorecards/${SCORECARDS.negotiation}`)).text).toContain(
      'This scorecard is the team default.',
    );
    expect((await wendy.get(`/scorecards/${SCORECARDS.discovery}`)).text).not.toContain('archive-warning');
    // Another manager's team is 404.
    expect(
      (await post(web['mo@acme.test']!, `/scorecards/teams/${westId}/choice`, { default: '' })).status,
    ).toBe(404);
  });
});
