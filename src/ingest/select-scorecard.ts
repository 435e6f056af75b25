/** Scorecard selection (spec rule 5): explicit id → the team's rule for the call type → the team default. */
import { AppError } from '../errors.js';
import type { Store } from '../store/db.js';
import { findScorecard, teamScorecardChoice } from '../store/scorecards.repo.js';

export async function selectScorecard(
  store: Store,
  input: { accountId: string; teamId: string; callType: string; scorecardId: string | null | undefined },
): Promise<string> {
  if (input.scorecardId) {
    const card = await findScorecard(store.db, input.scorecardId.toLowerCase()); // a UUID in any case
    // Another team's, a draft or an archived scorecard does not resolve: ids of other teams do not leak.
    if (
      !card ||
      card.account_id !== input.accountId ||
      card.team_id !== input.teamId ||
      card.status !== 'published'
    ) {
      const message = "No published scorecard with this id exists in the rep's team.";
      throw new AppError('scorecard_not_found', message, { fields: [{ field: 'scorecard_id', message }] });
    }
    return card.id;
  }
  const { ruleId, defaultId } = await teamScorecardChoice(store.db, input.teamId, input.callType);
  const chosen = ruleId ?? defaultId;
  if (!chosen) {
    throw new AppError(
      'scorecard_not_configured',
      "The rep's team has no scorecard for this call type and no default; send scorecard_id or configure the team.",
    );
  }
  const card = await findScorecard(store.db, chosen);
  if (!card || card.status !== 'published') {
    throw new AppError(
      'scorecard_rule_unavailable',
      "The team's scorecard for this call type is no longer available; a manager must update the team settings.",
    );
  }
  return card.id;
}
