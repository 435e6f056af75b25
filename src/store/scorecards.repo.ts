import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { hotQuery } from './hot-query.js';

const scorecardById = hotQuery((db, p: { id: string }) =>
  db.selectFrom('scorecards').selectAll().where('id', '=', p.id),
);

export async function findScorecard(db: Kysely<Database>, id: string) {
  return (await scorecardById(db, { id })).rows[0];
}

const teamDefault = hotQuery((db, p: { teamId: string }) =>
  db.selectFrom('team_settings').select('default_scorecard_id').where('team_id', '=', p.teamId),
);

const teamRule = hotQuery((db, p: { teamId: string; callType: string }) =>
  db
    .selectFrom('team_scorecard_rules')
    .select('scorecard_id')
    .where('team_id', '=', p.teamId)
    .where('call_type', '=', p.callType),
);

/** The team's default scorecard id and its rule for a call type, if any. */
export async function teamScorecardChoice(db: Kysely<Database>, teamId: string, callType: string) {
  const [settings, rule] = await Promise.all([
    teamDefault(db, { teamId }),
    teamRule(db, { teamId, callType }),
  ]);
  return {
    defaultId: settings.rows[0]?.default_scorecard_id ?? null,
    ruleId: rule.rows[0]?.scorecard_id ?? null,
  };
}

export async function scorecardVersion(db: Kysely<Database>, scorecardId: string, version: number) {
  return db
    .selectFrom('scorecard_versions')
    .selectAll()
    .where('scorecard_id', '=', scorecardId)
    .where('version', '=', version)
    .executeTakeFirst();
}
