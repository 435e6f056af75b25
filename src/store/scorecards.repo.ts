import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function findScorecard(db: Kysely<Database>, id: string) {
  return db.selectFrom('scorecards').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The team's default scorecard id and its rule for a call type, if any. */
export async function teamScorecardChoice(db: Kysely<Database>, teamId: string, callType: string) {
  const [settings, rule] = await Promise.all([
    db
      .selectFrom('team_settings')
      .select('default_scorecard_id')
      .where('team_id', '=', teamId)
      .executeTakeFirst(),
    db
      .selectFrom('team_scorecard_rules')
      .select('scorecard_id')
      .where('team_id', '=', teamId)
      .where('call_type', '=', callType)
      .executeTakeFirst(),
  ]);
  return { defaultId: settings?.default_scorecard_id ?? null, ruleId: rule?.scorecard_id ?? null };
}

export async function scorecardVersion(db: Kysely<Database>, scorecardId: string, version: number) {
  return db
    .selectFrom('scorecard_versions')
    .selectAll()
    .where('scorecard_id', '=', scorecardId)
    .where('version', '=', version)
    .executeTakeFirst();
}
