/**
 * Whom the call belongs to (spec rules 1 and 2). A rep that is sent must resolve; it is never silently
 * replaced by the key's owner.
 */
import { AppError, type ErrorCode } from '../errors.js';
import type { Store } from '../store/db.js';
import { activeTeamIdsOfUser, findUserByEmail } from '../store/users.repo.js';
import type { ApiCaller } from '../auth/caller.js';

export interface ResolvedRep {
  userId: string;
  email: string;
  name: string;
  teamId: string;
  repSource: 'rep_email' | 'api_key_owner';
}

function repError(code: ErrorCode, message: string): AppError {
  return new AppError(code, message, { fields: [{ field: 'rep.email', message }] });
}

export async function resolveRep(
  store: Store,
  caller: ApiCaller,
  rep: { email: string } | null | undefined,
): Promise<ResolvedRep> {
  if (!rep) {
    if (caller.teamDeleted) {
      throw new AppError(
        'team_not_configured',
        "The API key's team no longer exists; send rep.email or use another key.",
      );
    }
    return {
      userId: caller.creatorId,
      email: caller.creatorEmail,
      name: caller.creatorName,
      teamId: caller.teamId,
      repSource: 'api_key_owner',
    };
  }
  const user = await findUserByEmail(store.db, caller.accountId, rep.email);
  if (!user) throw repError('rep_not_found', 'No user with this email exists in the account.');
  if (user.status === 'inactive') throw repError('rep_inactive', 'This user is deactivated.');
  if (user.status === 'pending' || user.last_sign_in_at === null) {
    throw repError(
      'rep_pending_activation',
      'This user has not signed in yet; they must accept their invitation first.',
    );
  }
  const teams = await activeTeamIdsOfUser(store.db, user.id);
  if (teams.length === 0)
    throw repError('rep_no_team', 'This user belongs to no team; a manager must add them to one.');
  if (teams.length > 1)
    throw repError('rep_ambiguous', 'This user belongs to several teams, so the scorecard is ambiguous.');
  return { userId: user.id, email: user.email, name: user.name, teamId: teams[0]!, repSource: 'rep_email' };
}
