/**
 * GET /dashboard: score trend, per-criterion averages, counts by status, per team and per rep, inside the viewer's
 * visibility (admins the account, managers their teams and own calls, reps their own calls). Admins and managers
 * may narrow to one of their filterable teams or reps; a value outside that list is ignored (never an oracle).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { dashboardBuckets, namesOf, recentCriteria } from '../../../store/dashboard.repo.js';
import type { Database } from '../../../store/schema.js';
import { filterableReps, viewerTeams } from '../../../store/web-calls.repo.js';
import { queryParam } from '../coaching/common.js';
import { sendPage } from '../render.js';
import { requireSignIn, viewerOf } from '../session.js';
import { CRITERIA_SAMPLE, criteriaAverages, summarise, weekBounds } from './model.js';
import { DashboardPage } from './views.js';

export interface DashboardRoutesOptions {
  db: Kysely<Database>;
  staging: boolean;
  /** The clock (tests and benchmarks keep the real one). */
  now?: () => Date;
}

export async function dashboardRoutes(app: FastifyInstance, options: DashboardRoutesOptions): Promise<void> {
  const { db, staging } = options;
  const now = options.now ?? (() => new Date());
  app.addHook('preHandler', requireSignIn);

  app.get('/dashboard', async (request, reply) => {
    const session = request.webSession!;
    const viewer = viewerOf(session);
    const [teams, reps] = await Promise.all([viewerTeams(db, viewer), filterableReps(db, viewer)]);
    const wantedTeam = queryParam(request.query, 'team');
    const wantedRep = queryParam(request.query, 'rep');
    const filters = {
      team: teams.some((t) => t.id === wantedTeam) ? wantedTeam : '',
      rep: reps.some((r) => r.id === wantedRep) ? wantedRep : '',
    };
    const scope = { teamId: filters.team || undefined, repUserId: filters.rep || undefined };
    const bounds = weekBounds(now());

    const [buckets, criteriaJson] = await Promise.all([
      dashboardBuckets(db, viewer, scope, bounds),
      recentCriteria(db, viewer, scope, bounds, CRITERIA_SAMPLE),
    ]);
    const names = await namesOf(
      db,
      viewer.accountId,
      [...new Set(buckets.map((b) => b.team_id))],
      [...new Set(buckets.map((b) => b.rep_user_id))],
    );
    return sendPage(
      reply,
      200,
      DashboardPage({
        staging,
        user: session.user,
        csrfToken: session.csrfToken,
        role: session.user.role,
        bounds,
        summary: summarise(buckets, bounds, names),
        criteria: criteriaAverages(criteriaJson),
        criteriaCalls: criteriaJson.length,
        filters,
        teams,
        reps,
      }),
    );
  });
}
