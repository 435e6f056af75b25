/** /settings/teams: list and create; a team's page renames it or deletes it (soft: `deleted_at`). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  findTeam,
  findTeamByName,
  insertTeam,
  listTeams,
  listUsers,
  renameTeam,
  softDeleteTeam,
} from '../../../store/admin.repo.js';
import type { Database } from '../../../store/schema.js';
import { sendPage } from '../render.js';
import { idParam, nameProblem, noticeOf, notFound, pageBase, textField } from './guard.js';
import { TeamPage, TeamsPage, type TeamView } from './views/teams.js';

const MAX_TEAM_NAME = 80;

export async function teamsRoutes(
  app: FastifyInstance,
  options: { db: Kysely<Database>; staging: boolean },
): Promise<void> {
  const { db, staging } = options;

  async function teamViews(accountId: string): Promise<TeamView[]> {
    const rows = await listTeams(db, accountId);
    return rows.map((r) => ({ ...r, members: Number(r.members ?? 0), keys: Number(r.keys ?? 0) }));
  }

  /** Names are unique per account, deleted teams included. */
  async function nameErrors(accountId: string, name: string, selfId?: string): Promise<string[]> {
    const problem = nameProblem('Team name', name, MAX_TEAM_NAME);
    if (problem) return [problem];
    const clash = await findTeamByName(db, accountId, name);
    if (clash && clash.id !== selfId) {
      return [
        clash.deleted_at
          ? 'A deleted team had this name. Choose another name.'
          : 'A team with this name already exists.',
      ];
    }
    return [];
  }

  async function teamPage(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string | null,
    status = 200,
    extra: { name?: string; errors?: string[] } = {},
  ) {
    const base = pageBase(request, staging);
    const team = id ? (await teamViews(base.session.user.accountId)).find((t) => t.id === id) : undefined;
    if (!team || team.deleted_at) return notFound(reply, staging, base.session);
    return sendPage(
      reply,
      status,
      TeamPage({
        ...base,
        team,
        members: (await listUsers(db, base.session.user.accountId)).filter((u) =>
          u.teams.some((m) => m.id === team.id),
        ),
        name: extra.name ?? team.name,
        notice: noticeOf(request),
        errors: extra.errors,
      }),
    );
  }

  app.get('/settings/teams', async (request, reply) => {
    const base = pageBase(request, staging);
    const teams = await teamViews(base.session.user.accountId);
    return sendPage(reply, 200, TeamsPage({ ...base, teams, name: '', notice: noticeOf(request) }));
  });

  app.post('/settings/teams', async (request, reply) => {
    const base = pageBase(request, staging);
    const accountId = base.session.user.accountId;
    const name = textField(request.body, 'name');
    const errors = await nameErrors(accountId, name);
    if (errors.length) {
      const teams = await teamViews(accountId);
      return sendPage(reply, 422, TeamsPage({ ...base, teams, name, errors }));
    }
    const id = await insertTeam(db, accountId, name, new Date().toISOString());
    request.log.info({ teamId: id, by: base.session.user.id }, 'team created');
    return reply.redirect('/settings/teams?done=created', 303);
  });

  app.get('/settings/teams/:id', async (request, reply) => teamPage(request, reply, idParam(request)));

  app.post('/settings/teams/:id/rename', async (request, reply) => {
    const session = request.webSession!;
    const accountId = session.user.accountId;
    const id = idParam(request);
    const team = id ? await findTeam(db, accountId, id) : undefined;
    if (!team || team.deleted_at) return notFound(reply, staging, session);
    const name = textField(request.body, 'name');
    const errors = await nameErrors(accountId, name, team.id);
    if (errors.length) return teamPage(request, reply, team.id, 422, { name, errors });
    await renameTeam(db, accountId, team.id, name);
    return reply.redirect(`/settings/teams/${team.id}?done=renamed`, 303);
  });

  app.post('/settings/teams/:id/delete', async (request, reply) => {
    const session = request.webSession!;
    const accountId = session.user.accountId;
    const id = idParam(request);
    const team = id ? await findTeam(db, accountId, id) : undefined;
    if (!team || team.deleted_at) return notFound(reply, staging, session);
    await softDeleteTeam(db, accountId, team.id, new Date().toISOString());
    request.log.info({ teamId: team.id, by: session.user.id }, 'team deleted');
    return reply.redirect('/settings/teams?done=deleted', 303);
  });
}
