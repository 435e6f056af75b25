import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { describeEachDialect, createTestStore } from './helpers/databases.js';
import { startApp } from './helpers/app.js';
import { KEYS, SCORECARDS, TEST_WORKSPACE, callBody } from './helpers/workspace.js';
import {
  parseWorkspace,
  seedWorkspace,
  unknownWorkspaceFields,
  WorkspaceError,
} from '../src/seed/workspace.js';
import { createDemoWorkspace, isEmptyDatabase } from '../src/seed/demo.js';
import { verifyPassword } from '../src/auth/passwords.js';
import { digestApiKey } from '../src/auth/api-keys.js';
import { sqliteFile } from '../src/store/db.js';

const run = promisify(execFile);

async function counts(db: Awaited<ReturnType<typeof createTestStore>>['db']) {
  const n = async (
    table:
      | 'accounts'
      | 'teams'
      | 'users'
      | 'team_members'
      | 'api_keys'
      | 'scorecards'
      | 'scorecard_versions'
      | 'team_scorecard_rules',
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    accounts: await n('accounts'),
    teams: await n('teams'),
    users: await n('users'),
    members: await n('team_members'),
    keys: await n('api_keys'),
    scorecards: await n('scorecards'),
    versions: await n('scorecard_versions'),
    rules: await n('team_scorecard_rules'),
  };
}

/** Every row of the tables a workspace file writes, in a stable order. */
async function snapshot(db: Awaited<ReturnType<typeof createTestStore>>['db']) {
  const tables = [
    'accounts',
    'teams',
    'users',
    'team_members',
    'api_keys',
    'scorecards',
    'scorecard_versions',
    'team_settings',
    'team_scorecard_rules',
  ] as const;
  const out: Record<string, string[]> = {};
  for (const table of tables)
    out[table] = (await db.selectFrom(table).selectAll().execute()).map((r) => JSON.stringify(r)).sort();
  return out;
}

describeEachDialect('seed on %s', (dialect) => {
  it("seeds the README's example workspace (examples/workspace.json) with every part in place", async () => {
    const value: unknown = JSON.parse(fs.readFileSync('examples/workspace.json', 'utf8'));
    expect(unknownWorkspaceFields(value)).toEqual([]);
    const store = await createTestStore(dialect);
    try {
      await seedWorkspace(store.db, parseWorkspace(value));
      expect(await counts(store.db)).toEqual({
        accounts: 1,
        teams: 1,
        users: 2,
        members: 2,
        keys: 1,
        scorecards: 1,
        versions: 1,
        rules: 1,
      });
    } finally {
      await store.cleanup();
    }
  });

  it('is idempotent: the same file twice changes nothing', async () => {
    const store = await createTestStore(dialect);
    try {
      await seedWorkspace(store.db, parseWorkspace(structuredClone(TEST_WORKSPACE)));
      const first = await counts(store.db);
      const rows = await snapshot(store.db);
      await seedWorkspace(store.db, parseWorkspace(structuredClone(TEST_WORKSPACE)));
      expect(await counts(store.db)).toEqual(first);
      // Every row as it was, timestamps and password hashes included.
      expect(await snapshot(store.db)).toEqual(rows);
      expect(first.accounts).toBe(5);
      const ada = await store.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'ada@acme.test')
        .executeTakeFirstOrThrow();
      expect(await verifyPassword('correct horse battery staple', ada.password_hash!)).toBe(true);
      const bob = await store.db
        .selectFrom('users')
        .select('email')
        .where('name', '=', 'Bob Stone')
        .executeTakeFirstOrThrow();
      expect(bob.email).toBe('bob.stone@acme.test');
    } finally {
      await store.cleanup();
    }
  });

  it('seeding again keeps what the web app changed since and the file does not state', async () => {
    const store = await createTestStore(dialect);
    try {
      const bareDeletedAt = async () =>
        (
          await store.db
            .selectFrom('teams')
            .select('deleted_at')
            .where('name', '=', 'Bare')
            .executeTakeFirstOrThrow()
        ).deleted_at;
      await seedWorkspace(store.db, parseWorkspace(structuredClone(TEST_WORKSPACE)));
      // In the web app meanwhile: a key revoked, a pending user's first sign-in, a team deleted.
      const then = new Date().toISOString();
      await store.db
        .updateTable('api_keys')
        .set({ revoked_at: then })
        .where('digest', '=', digestApiKey(KEYS.full))
        .execute();
      await store.db
        .updateTable('users')
        .set({ status: 'active', last_sign_in_at: then })
        .where('email', '=', 'new@acme.test')
        .execute();
      await store.db.updateTable('teams').set({ deleted_at: then }).where('name', '=', 'Bare').execute();
      const partial = structuredClone(TEST_WORKSPACE);
      delete partial.accounts[0]!.features; // unstated: kept, not emptied
      await seedWorkspace(store.db, parseWorkspace(partial));
      const key = await store.db
        .selectFrom('api_keys')
        .select(['revoked_at', 'scopes'])
        .where('digest', '=', digestApiKey(KEYS.full))
        .executeTakeFirstOrThrow();
      expect(key.revoked_at).not.toBeNull();
      const nia = await store.db
        .selectFrom('users')
        .select(['status', 'last_sign_in_at'])
        .where('email', '=', 'new@acme.test')
        .executeTakeFirstOrThrow();
      expect(nia.status).toBe('active');
      expect(nia.last_sign_in_at).not.toBeNull();
      expect(await bareDeletedAt()).not.toBeNull();
      const acme = await store.db
        .selectFrom('accounts')
        .select('features')
        .where('name', '=', 'Acme')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(acme.features)).toEqual(['call_scoring_api']);
      // What the file does state still applies: a team marked deleted: false is restored.
      const restored = structuredClone(TEST_WORKSPACE);
      restored.accounts[0]!.teams!.find((t) => t.name === 'Bare')!.deleted = false;
      await seedWorkspace(store.db, parseWorkspace(restored));
      expect(await bareDeletedAt()).toBeNull();
    } finally {
      await store.cleanup();
    }
  });

  it('versions a scorecard whose criteria changed and applies status changes', async () => {
    const store = await createTestStore(dialect);
    try {
      await seedWorkspace(store.db, parseWorkspace(structuredClone(TEST_WORKSPACE)));
      const changed = structuredClone(TEST_WORKSPACE);
      const card = changed.accounts[0]!.scorecards![0]!;
      card.criteria = [{ key: 'questions', title: 'Asks questions', check: { type: 'questions', min: 3 } }];
      changed.accounts[0]!.users![1]!.status = 'inactive';
      await seedWorkspace(store.db, parseWorkspace(changed));
      const row = await store.db
        .selectFrom('scorecards')
        .selectAll()
        .where('id', '=', card.id!)
        .executeTakeFirstOrThrow();
      expect(row.current_version).toBe(2);
      const versions = await store.db
        .selectFrom('scorecard_versions')
        .select('version')
        .where('scorecard_id', '=', card.id!)
        .execute();
      expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
      const bob = await store.db
        .selectFrom('users')
        .select('status')
        .where('email', '=', 'bob.stone@acme.test')
        .executeTakeFirstOrThrow();
      expect(bob.status).toBe('inactive');
    } finally {
      await store.cleanup();
    }
  });
});

const SCORECARD_ID = '8f1c2d3e-1111-4222-8333-444455556666';
const criteria = [{ key: 'q', title: 'Asks questions', check: { type: 'questions', min: 1 } }];

describeEachDialect('seed conflicts with the database on %s', (dialect) => {
  it('names a scorecard id that is taken or differs from the stored one, and a key of another account, changing nothing', async () => {
    const store = await createTestStore(dialect);
    try {
      await seedWorkspace(store.db, parseWorkspace(structuredClone(TEST_WORKSPACE)));
      const before = await counts(store.db);
      const renamed = structuredClone(TEST_WORKSPACE);
      const acme = renamed.accounts[0]!;
      acme.scorecards![0]!.name = 'Discovery v2';
      acme.team_settings![0]!.default_scorecard = 'Discovery v2';
      await expect(seedWorkspace(store.db, parseWorkspace(renamed))).rejects.toThrow(
        `The id ${SCORECARDS.discovery} of the scorecard "Discovery v2" of team "West" (account "Acme") already belongs to the scorecard "Discovery"`,
      );
      const moved = structuredClone(TEST_WORKSPACE);
      moved.accounts[0]!.scorecards![0]!.id = SCORECARD_ID;
      await expect(seedWorkspace(store.db, parseWorkspace(moved))).rejects.toThrow(
        `already exists with id ${SCORECARDS.discovery}; the file gives ${SCORECARD_ID}`,
      );
      const other = structuredClone(TEST_WORKSPACE.accounts[1]!);
      other.api_keys![0]!.secret = KEYS.full;
      await expect(seedWorkspace(store.db, parseWorkspace({ accounts: [other] }))).rejects.toThrow(
        'An api key secret of account "Other" already belongs to another account',
      );
      expect(await counts(store.db)).toEqual(before);
      const key = await store.db
        .selectFrom('api_keys as k')
        .innerJoin('accounts as a', 'a.id', 'k.account_id')
        .select('a.name')
        .where('k.digest', '=', digestApiKey(KEYS.full))
        .executeTakeFirstOrThrow();
      expect(key.name).toBe('Acme');
    } finally {
      await store.cleanup();
    }
  });

  it('refuses a file whose second account clashes without writing its first', async () => {
    const store = await createTestStore(dialect);
    try {
      await seedWorkspace(store.db, parseWorkspace(structuredClone(TEST_WORKSPACE)));
      const before = await counts(store.db);
      const clash = structuredClone(TEST_WORKSPACE.accounts[1]!);
      clash.api_keys![0]!.secret = KEYS.full;
      const file = { accounts: [{ name: 'Newco', teams: [{ name: 'North' }] }, clash] };
      await expect(seedWorkspace(store.db, parseWorkspace(file))).rejects.toThrow(
        'already belongs to another account',
      );
      expect(await counts(store.db)).toEqual(before);
    } finally {
      await store.cleanup();
    }
  });

  it('stores a scorecard id given in upper case in lower case, and the API resolves it in either case', async () => {
    const workspace = structuredClone(TEST_WORKSPACE);
    workspace.accounts[0]!.scorecards![0]!.id = SCORECARDS.discovery.toUpperCase();
    const t = await startApp(dialect, { workspace });
    try {
      const row = await t.deps.store.db
        .selectFrom('scorecards')
        .select('id')
        .where('name', '=', 'Discovery')
        .executeTakeFirstOrThrow();
      expect(row.id).toBe(SCORECARDS.discovery);
      for (const id of [SCORECARDS.discovery, SCORECARDS.discovery.toUpperCase()]) {
        const res = await t.api('POST', '/v1/calls', { body: callBody({ scorecard_id: id }) });
        expect(res.status).toBe(202);
      }
    } finally {
      await t.close();
    }
  });
});

describe('seed beside a running serve on sqlite', () => {
  it('waits for a writer of another process instead of failing with SQLITE_BUSY', async () => {
    const store = await createTestStore('sqlite');
    try {
      await seedWorkspace(store.db, parseWorkspace(structuredClone(TEST_WORKSPACE)));
      // Another connection (a serve, a worker) in its own thread holds a write for 300 ms as the seed starts;
      // better-sqlite3 waits synchronously, so the writer must not share this thread.
      const writer = new Worker(
        `const { workerData, parentPort } = require('node:worker_threads');
           const db = new (require(workerData.module))(workerData.file);
           db.exec('BEGIN IMMEDIATE');
           db.exec("UPDATE accounts SET status = status WHERE name = 'Acme'");
           parentPort.postMessage('writing');
           Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
           db.exec('COMMIT');
           db.close();`,
        {
          eval: true,
          workerData: {
            module: createRequire(import.meta.url).resolve('better-sqlite3'),
            file: sqliteFile(store.testDb.dataDir),
          },
        },
      );
      await once(writer, 'message');
      const file = { accounts: [{ name: 'Newco', teams: [{ name: 'North' }] }] };
      await expect(seedWorkspace(store.db, parseWorkspace(file))).resolves.toMatchObject({ accounts: 1 });
      await once(writer, 'exit');
    } finally {
      await store.cleanup();
    }
  });
});

describe('workspace file validation', () => {
  it.each([
    ['not an object', 42, 'not valid'],
    [
      'unknown team on a user',
      {
        accounts: [
          { name: 'A', teams: [], users: [{ email: 'a@a.test', name: 'A', role: 'rep', teams: ['Nope'] }] },
        ],
      },
      'unknown team "Nope"',
    ],
    [
      'bad criteria',
      {
        accounts: [
          {
            name: 'A',
            teams: [{ name: 'T' }],
            scorecards: [{ team: 'T', name: 'S', criteria: [{ key: 'x' }] }],
          },
        ],
      },
      'scorecard "S"',
    ],
    [
      'bad key secret',
      {
        accounts: [
          {
            name: 'A',
            teams: [{ name: 'T' }],
            users: [{ email: 'a@a.test', name: 'A', role: 'admin' }],
            api_keys: [{ secret: 'sk_1', team: 'T', created_by: 'a@a.test' }],
          },
        ],
      },
      'svc_sk_',
    ],
    [
      'unknown scorecard in a rule',
      {
        accounts: [
          {
            name: 'A',
            teams: [{ name: 'T' }],
            team_settings: [{ team: 'T', rules: { negotiation: 'Missing' } }],
          },
        ],
      },
      'unknown scorecard "Missing"',
    ],
    [
      'a rule for an unknown call type',
      {
        accounts: [
          {
            name: 'A',
            teams: [{ name: 'T' }],
            scorecards: [{ team: 'T', name: 'N', criteria }],
            team_settings: [{ team: 'T', rules: { negotation: 'N' } }],
          },
        ],
      },
      'unknown call type "negotation"',
    ],
    [
      'a user listed twice (emails compare case-insensitively)',
      {
        accounts: [
          {
            name: 'A',
            users: [
              { email: 'a@a.test', name: 'A', role: 'admin' },
              { email: 'A@a.test', name: 'Other', role: 'rep' },
            ],
          },
        ],
      },
      'the user A@a.test is listed twice',
    ],
    [
      'a scorecard name listed twice in one team',
      {
        accounts: [
          {
            name: 'A',
            teams: [{ name: 'T' }],
            scorecards: [
              { team: 'T', name: 'S', criteria },
              { team: 'T', name: 'S', criteria: [] },
            ],
          },
        ],
      },
      'the scorecard "S" of team "T" is listed twice',
    ],
    [
      'two scorecards with one id',
      {
        accounts: [
          {
            name: 'A',
            teams: [{ name: 'T' }],
            scorecards: [
              { id: SCORECARD_ID, team: 'T', name: 'S', criteria },
              { id: SCORECARD_ID.toUpperCase(), team: 'T', name: 'R', criteria },
            ],
          },
        ],
      },
      'scorecard "R" has the same id as scorecard "S"',
    ],
    [
      'a team listed twice',
      { accounts: [{ name: 'A', teams: [{ name: 'T' }, { name: 'T' }] }] },
      'the team "T" is listed twice',
    ],
    [
      'settings of an unknown team',
      { accounts: [{ name: 'A', teams: [], team_settings: [{ team: 'Nope' }] }] },
      'team_settings name unknown team "Nope"',
    ],
    [
      'an account listed twice',
      { accounts: [{ name: 'A' }, { name: 'A' }] },
      'the account "A" is listed twice',
    ],
    [
      'a key secret listed twice',
      {
        accounts: [
          {
            name: 'A',
            teams: [{ name: 'T' }],
            users: [{ email: 'a@a.test', name: 'A', role: 'admin' }],
            api_keys: [
              { secret: 'svc_sk_same_secret_000000000000', team: 'T', created_by: 'a@a.test' },
              { secret: 'svc_sk_same_secret_000000000000', team: 'T', created_by: 'a@a.test' },
            ],
          },
        ],
      },
      'an api key secret is listed twice',
    ],
    [
      'a status outside its values',
      { accounts: [{ name: 'A', status: 'paused' }] },
      '/accounts/0/status: must be one of "active", "suspended", "payment_required"',
    ],
    [
      'a role outside its values',
      { accounts: [{ name: 'A', users: [{ email: 'a@a.test', name: 'A', role: 'owner' }] }] },
      '/accounts/0/users/0/role: must be one of "admin", "manager", "rep"',
    ],
  ])('refuses %s with a message naming the problem', (_name, value, fragment) => {
    expect(() => parseWorkspace(value)).toThrow(WorkspaceError);
    expect(() => parseWorkspace(value)).toThrow(fragment);
  });

  it('names a missing field once, as required', () => {
    const value = { accounts: [{ name: 'A', users: [{ email: 'a@a.test', name: 'A' }] }] };
    const message = (() => {
      try {
        parseWorkspace(value);
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    expect(message.split('\n').filter((line) => line.includes('/accounts/0/users/0/role'))).toEqual([
      '  /accounts/0/users/0/role: is required',
    ]);
  });

  it('lists fields the format does not know (ignored, so `seed` can warn about typos), never criteria fields', () => {
    const value = {
      accounts: [
        {
          name: 'A',
          typo: 1,
          teams: [{ name: 'T', colour: 'red' }],
          scorecards: [{ team: 'T', name: 'S', criteria }],
          team_settings: [{ team: 'T', default_scorecards: 'S' }],
        },
      ],
    };
    expect(() => parseWorkspace(value)).not.toThrow();
    expect(unknownWorkspaceFields(value)).toEqual([
      'accounts[0].typo',
      'accounts[0].teams[0].colour',
      'accounts[0].team_settings[0].default_scorecards',
    ]);
    expect(unknownWorkspaceFields(structuredClone(TEST_WORKSPACE))).toEqual([]);
  });
});

describe('demo workspace', () => {
  it('creates a working account, scorecards with rules, and an API key that can send a call', async () => {
    const t = await startApp('sqlite', { workspace: null });
    try {
      expect(await isEmptyDatabase(t.deps.store.db)).toBe(true);
      const demo = await createDemoWorkspace(t.deps.store.db);
      expect(await isEmptyDatabase(t.deps.store.db)).toBe(false);
      expect(demo.apiKey).toMatch(/^svc_sk_/);
      const body = JSON.parse(fs.readFileSync('examples/call.json', 'utf8'));
      const res = await t.api('POST', '/v1/calls', { key: demo.apiKey, body });
      expect(res.status).toBe(202);
      expect(res.body.attribution).toEqual({ rep_source: 'rep_email', speaker_source: 'name_match' });
      const other = await t.api('POST', '/v1/calls', {
        key: demo.apiKey,
        body: callBody({
          rep: { email: 'rep@demo.test' },
          call_type: 'negotiation',
          transcript: {
            segments: [
              { speaker: 'Riley Rep', text: 'Let us go over pricing.' },
              { speaker: 'Kim', text: 'Sure.' },
            ],
          },
        }),
      });
      expect(other.status).toBe(202);
    } finally {
      await t.close();
    }
  });
});

describe('callscore CLI', () => {
  it('seeds an empty DATA_DIR, creating the database first, and prints the OpenAPI document without one', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-cli-'));
    const file = path.join(dataDir, 'workspace.json');
    fs.writeFileSync(file, JSON.stringify(TEST_WORKSPACE));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    try {
      const seeded = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'seed', file], { env });
      expect(seeded.stdout).toContain('Seeded 5 account(s)');
      expect(fs.existsSync(path.join(dataDir, 'callscore.sqlite'))).toBe(true);
      const again = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'seed', file], { env });
      expect(again.stdout).toContain('Seeded 5 account(s)');
      expect(again.stderr).not.toContain('Warning');
      const typo = path.join(dataDir, 'typo.json');
      fs.writeFileSync(typo, JSON.stringify({ accounts: [{ ...TEST_WORKSPACE.accounts[0], feature: [] }] }));
      const warned = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'seed', typo], { env });
      expect(warned.stdout).toContain('Seeded 1 account(s)');
      expect(warned.stderr).toContain(
        'Warning: ignoring fields the workspace format does not know: accounts[0].feature',
      );
      const duplicate = path.join(dataDir, 'duplicate.json');
      fs.writeFileSync(duplicate, JSON.stringify({ accounts: [{ name: 'Z' }, { name: 'Z' }] }));
      const refused = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'seed', duplicate], {
        env,
      }).catch((e) => e);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('the account "Z" is listed twice');
      const bad = await run(
        process.execPath,
        ['--import', 'tsx', 'src/main.ts', 'seed', path.join(dataDir, 'missing.json')],
        { env },
      ).catch((e) => e);
      expect(bad.code).toBe(1);
      const doc = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'openapi'], {
        env: { ...process.env, DATA_DIR: path.join(dataDir, 'never-created') },
      });
      expect(JSON.parse(doc.stdout).openapi).toBe('3.1.0');
      expect(fs.existsSync(path.join(dataDir, 'never-created'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serve exits 1 when it cannot listen, naming the port or HOST; an unusable DATA_DIR is named too', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-cli-'));
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as net.AddressInfo).port);
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', DEMO: 'false' };
    const serve = (extra: Record<string, string>) =>
      run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
        env: { ...env, ...extra },
        timeout: 30_000,
      }).catch((e) => e);
    try {
      const busy = await serve({ PORT: port, HOST: '127.0.0.1' });
      expect([busy.code, busy.signal]).toEqual([1, null]); // exited by itself, not killed by the timeout
      expect(busy.stderr).toContain(`Port ${port} is already in use: stop the other process or set PORT.`);
      // The demo's one-time secrets wait for a start that serves: the next start on the fixed port prints them.
      const demo = await serve({
        PORT: port,
        HOST: '127.0.0.1',
        DEMO: 'true',
        DATA_DIR: path.join(dataDir, 'demo'),
      });
      expect(demo.code).toBe(1);
      expect(demo.stdout).not.toContain('Demo workspace created');
      expect(demo.stdout).not.toContain('svc_sk_');
      const host = await serve({ PORT: '0', HOST: '999.1.1.1' });
      expect(host.code).toBe(1);
      expect(host.stderr).toContain('Cannot listen on 999.1.1.1:0');
      expect(host.stderr).not.toContain('DATABASE_URL');
      const redis = await serve({ PORT: '0', REDIS_URL: 'redis://127.0.0.1:1' });
      expect([redis.code, redis.signal]).toEqual([1, null]);
      expect(redis.stderr).toContain('Cannot reach Redis at REDIS_URL: is Redis running and the URL right?');
      fs.writeFileSync(path.join(dataDir, 'a-file'), '');
      const dir = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'migrate'], {
        env: { ...env, DATA_DIR: path.join(dataDir, 'a-file', 'data') },
      }).catch((e) => e);
      expect(dir.code).toBe(1);
      expect(dir.stderr).toMatch(
        /Cannot create or write .* set DATA_DIR to a directory this user can write\./,
      );
      expect(dir.stderr).not.toContain('    at ');
    } finally {
      taken.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serve on an empty DATA_DIR prints the demo login and API key once, after it is listening', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-cli-'));
    const start = async (until: string) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve', '--no-worker'], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', DEMO: '', PORT: '0' },
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await vi.waitFor(() => expect(out).toContain(until), { timeout: 30_000, interval: 50 });
      await new Promise((resolve) => setTimeout(resolve, 1000)); // time for a demo that should not come
      child.kill('SIGTERM');
      await once(child, 'exit');
      return out;
    };
    try {
      const first = await start('Try it:');
      expect(first.indexOf('Callscore is running')).toBeLessThan(first.indexOf('Demo workspace created'));
      expect(first).toMatch(/API key: +svc_sk_/);
      const second = await start('Callscore is running');
      expect(second).not.toContain('Demo workspace created');
      expect(second).not.toContain('svc_sk_');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('prints its usage for --help and exits 0, and names an unknown command with exit code 2', async () => {
    const help = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', '--help']);
    expect(help.stdout).toContain('Usage: callscore <command>');
    expect(help.stdout).toContain('seed FILE.json');
    const unknown = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serv']).catch((e) => e);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "serv"');
    const option = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve', '--bogus']).catch(
      (e) => e,
    );
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("Unknown option '--bogus'.");
    expect(option.stderr).toContain('Usage: callscore <command>');
    expect(option.stderr).not.toContain('    at ');
  });
});
