/**
 * The demo workspace `npm start` creates on an empty embedded database: one account, team, admin, manager,
 * rep, published starter scorecards and an API key. Passwords and the key are generated and shown once.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { generateApiKey } from '../auth/api-keys.js';
import { SCORECARD_TEMPLATES } from '../scoring/templates.js';
import { FEATURE_CALL_SCORING_API } from '../auth/features.js';
import { seedWorkspace, type Workspace } from './workspace.js';

export interface DemoCredentials {
  adminEmail: string;
  managerEmail: string;
  repEmail: string;
  password: string;
  apiKey: string;
}

export async function isEmptyDatabase(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

export async function createDemoWorkspace(db: Kysely<Database>): Promise<DemoCredentials> {
  const password = randomBytes(9).toString('base64url');
  const apiKey = generateApiKey();
  const team = 'Sales';
  const scorecards = SCORECARD_TEMPLATES.map((t) => ({
    team,
    name: t.name,
    status: 'published' as const,
    criteria: t.criteria,
  }));
  const rules: Record<string, string> = {};
  for (const template of SCORECARD_TEMPLATES)
    for (const type of template.callTypes) rules[type] ??= template.name;
  const workspace: Workspace = {
    accounts: [
      {
        name: 'Demo Company',
        status: 'active',
        features: [FEATURE_CALL_SCORING_API],
        teams: [{ name: team }],
        users: [
          {
            email: 'admin@demo.test',
            name: 'Avery Admin',
            password,
            role: 'admin',
            teams: [team],
            status: 'active',
          },
          {
            email: 'manager@demo.test',
            name: 'Morgan Manager',
            password,
            role: 'manager',
            teams: [team],
            status: 'active',
          },
          {
            email: 'rep@demo.test',
            name: 'Riley Rep',
            password,
            role: 'rep',
            teams: [team],
            status: 'active',
          },
        ],
        scorecards,
        team_settings: [{ team, default_scorecard: SCORECARD_TEMPLATES[0]!.name, rules }],
        api_keys: [{ secret: apiKey, name: 'Demo key', team, created_by: 'admin@demo.test' }],
      },
    ],
  };
  await seedWorkspace(db, workspace);
  return {
    adminEmail: 'admin@demo.test',
    managerEmail: 'manager@demo.test',
    repEmail: 'rep@demo.test',
    password,
    apiKey,
  };
}
