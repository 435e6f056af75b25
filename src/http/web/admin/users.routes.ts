/**
 * /settings/users: list, invite (pending user + one-time link, 7 days), role/name/teams, deactivate (ends the
 * user's sessions) and reactivate, new invitation link, password reset link (1 hour).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  countLiveKeysOwnedBy,
  deactivateUser,
  emailTaken,
  findAccountUser,
  insertInvitedUser,
  issueUserToken,
  listActiveTeams,
  listUsers,
  ownActiveTeamIds,
  reactivateUser,
  updateUserProfile,
  type TokenPurpose,
  type UserListRow,
} from '../../../store/admin.repo.js';
import type { Database } from '../../../store/schema.js';
import { sendPage } from '../render.js';
import { digestToken, randomToken } from '../session.js';
import { idParam, listField, nameProblem, noticeOf, notFound, pageBase, textField } from './guard.js';
import { ROLES, InviteUserPage, UserLinkPage, UserPage, UsersPage, type InviteForm } from './views/users.js';

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
export const PASSWORD_RESET_TTL_MS = 3600_000;

export const LINK_PATHS: Record<TokenPurpose, string> = {
  invitation: '/invitations',
  password_reset: '/password-reset',
};

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

export interface UsersRoutesOptions {
  db: Kysely<Database>;
  staging: boolean;
  /** PUBLIC_APP_BASE_URL; links fall back to the address the admin is using. */
  appBaseUrl?: string;
}

export async function usersRoutes(app: FastifyInstance, options: UsersRoutesOptions): Promise<void> {
  const { db, staging } = options;

  function linkFor(request: FastifyRequest, purpose: TokenPurpose, token: string): string {
    const origin = options.appBaseUrl ?? `${request.protocol}://${request.host}`;
    return `${origin}${LINK_PATHS[purpose]}/${token}`;
  }

  async function newToken(request: FastifyRequest, userId: string, purpose: TokenPurpose) {
    const session = request.webSession!;
    const token = randomToken();
    const now = Date.now();
    const ttl = purpose === 'invitation' ? INVITATION_TTL_MS : PASSWORD_RESET_TTL_MS;
    return {
      token,
      row: {
        id: digestToken(token),
        accountId: session.user.accountId,
        userId,
        purpose,
        createdBy: session.user.id,
        now: new Date(now).toISOString(),
        expiresAt: new Date(now + ttl).toISOString(),
      },
    };
  }

  async function userPage(
    request: FastifyRequest,
    target: UserListRow,
    extra: { form?: { name: string; role: string; teams: string[] }; errors?: string[] } = {},
  ) {
    const base = pageBase(request, staging);
    const accountId = base.session.user.accountId;
    const [teams, liveKeys] = await Promise.all([
      listActiveTeams(db, accountId),
      countLiveKeysOwnedBy(db, accountId, target.id, new Date().toISOString()),
    ]);
    return UserPage({
      ...base,
      target,
      teams,
      self: target.id === base.session.user.id,
      liveKeys,
      form: extra.form ?? { name: target.name, role: target.role, teams: target.teams.map((t) => t.id) },
      notice: noticeOf(request),
      errors: extra.errors,
    });
  }

  async function loadTarget(request: FastifyRequest) {
    const id = idParam(request);
    return id ? findAccountUser(db, request.webSession!.user.accountId, id) : undefined;
  }

  app.get('/settings', async (_request, reply) => reply.redirect('/settings/users', 303));

  app.get('/settings/users', async (request, reply) => {
    const base = pageBase(request, staging);
    const users = await listUsers(db, base.session.user.accountId);
    return sendPage(reply, 200, UsersPage({ ...base, users, notice: noticeOf(request) }));
  });

  app.get('/settings/users/new', async (request, reply) => {
    const base = pageBase(request, staging);
    const teams = await listActiveTeams(db, base.session.user.accountId);
    return sendPage(
      reply,
      200,
      InviteUserPage({ ...base, teams, form: { email: '', name: '', role: 'rep', teams: [] } }),
    );
  });

  app.post('/settings/users', async (request, reply) => {
    const base = pageBase(request, staging);
    const accountId = base.session.user.accountId;
    const form: InviteForm = {
      email: textField(request.body, 'email').toLowerCase(),
      name: textField(request.body, 'name'),
      role: textField(request.body, 'role'),
      teams: listField(request.body, 'teams'),
    };
    const errors: string[] = [];
    if (!EMAIL.test(form.email) || form.email.length > 254) errors.push('Enter a valid email address.');
    else if (await emailTaken(db, accountId, form.email))
      errors.push('A user with this email already exists.');
    const nameError = nameProblem('Name', form.name, 100);
    if (nameError) errors.push(nameError);
    if (!(ROLES as readonly string[]).includes(form.role)) errors.push('Choose a role.');
    const teamIds = await ownActiveTeamIds(db, accountId, form.teams);
    if (teamIds.length !== form.teams.length) errors.push('Choose teams from the list.');
    if (errors.length) {
      const teams = await listActiveTeams(db, accountId);
      return sendPage(reply, 422, InviteUserPage({ ...base, teams, form, errors }));
    }
    const userId = randomUUID();
    const { token, row } = await newToken(request, userId, 'invitation');
    const id = await insertInvitedUser(
      db,
      { id: userId, accountId, email: form.email, name: form.name, role: form.role, teamIds, now: row.now },
      row,
    );
    request.log.info({ userId: id, by: base.session.user.id }, 'user invited');
    return sendPage(
      reply,
      201,
      UserLinkPage({
        ...base,
        heading: 'Invitation created',
        userId: id,
        userName: form.name,
        link: linkFor(request, 'invitation', token),
        validFor: '7 days',
      }),
    );
  });

  app.get('/settings/users/:id', async (request, reply) => {
    const target = await loadTarget(request);
    if (!target) return notFound(reply, staging, request.webSession!);
    return sendPage(reply, 200, await userPage(request, target));
  });

  app.post('/settings/users/:id', async (request, reply) => {
    const session = request.webSession!;
    const accountId = session.user.accountId;
    const target = await loadTarget(request);
    if (!target) return notFound(reply, staging, session);
    const self = target.id === session.user.id;
    const form = {
      name: textField(request.body, 'name'),
      // Nobody changes their own role: an account always keeps the admin who is looking at it.
      role: self ? target.role : textField(request.body, 'role'),
      teams: listField(request.body, 'teams'),
    };
    const errors: string[] = [];
    const nameError = nameProblem('Name', form.name, 100);
    if (nameError) errors.push(nameError);
    if (!(ROLES as readonly string[]).includes(form.role)) errors.push('Choose a role.');
    else if (target.role === 'admin' && form.role !== 'admin') {
      const keys = await countLiveKeysOwnedBy(db, accountId, target.id, new Date().toISOString());
      if (keys > 0) {
        errors.push(
          `${target.name} owns ${keys} API key${keys === 1 ? '' : 's'}. Transfer ${keys === 1 ? 'it' : 'them'} to another admin before changing the role.`,
        );
      }
    }
    const teamIds = await ownActiveTeamIds(db, accountId, form.teams);
    if (teamIds.length !== form.teams.length) errors.push('Choose teams from the list.');
    if (errors.length) return sendPage(reply, 422, await userPage(request, target, { form, errors }));
    await updateUserProfile(db, accountId, target.id, { name: form.name, role: form.role, teamIds });
    request.log.info({ userId: target.id, role: form.role, by: session.user.id }, 'user updated');
    return reply.redirect(`/settings/users/${target.id}?done=saved`, 303);
  });

  app.post('/settings/users/:id/deactivate', async (request, reply) => {
    const session = request.webSession!;
    const target = await loadTarget(request);
    if (!target) return notFound(reply, staging, session);
    if (target.id === session.user.id) {
      return sendPage(
        reply,
        422,
        await userPage(request, target, { errors: ['You cannot deactivate yourself.'] }),
      );
    }
    await deactivateUser(db, session.user.accountId, target.id);
    request.log.info({ userId: target.id, by: session.user.id }, 'user deactivated');
    return reply.redirect(`/settings/users/${target.id}?done=deactivated`, 303);
  });

  app.post('/settings/users/:id/reactivate', async (request, reply) => {
    const session = request.webSession!;
    const target = await loadTarget(request);
    if (!target) return notFound(reply, staging, session);
    await reactivateUser(db, session.user.accountId, target.id);
    request.log.info({ userId: target.id, by: session.user.id }, 'user reactivated');
    return reply.redirect(`/settings/users/${target.id}?done=reactivated`, 303);
  });

  for (const purpose of ['invitation', 'password_reset'] as const) {
    const path = purpose === 'invitation' ? 'invitation' : 'password-reset';
    const wanted = purpose === 'invitation' ? 'pending' : 'active';
    app.post(`/settings/users/:id/${path}`, async (request, reply) => {
      const base = pageBase(request, staging);
      const target = await loadTarget(request);
      if (!target) return notFound(reply, staging, base.session);
      if (target.status !== wanted) {
        const error =
          purpose === 'invitation'
            ? 'Only a user who has not accepted an invitation yet can get a new one.'
            : 'Only an active user can get a password reset link.';
        return sendPage(reply, 409, await userPage(request, target, { errors: [error] }));
      }
      const { token, row } = await newToken(request, target.id, purpose);
      await issueUserToken(db, row);
      request.log.info({ userId: target.id, purpose, by: base.session.user.id }, 'one-time link issued');
      return sendPage(
        reply,
        201,
        UserLinkPage({
          ...base,
          heading: purpose === 'invitation' ? 'New invitation link' : 'Password reset link',
          userId: target.id,
          userName: target.name,
          link: linkFor(request, purpose, token),
          validFor: purpose === 'invitation' ? '7 days' : '1 hour',
        }),
      );
    });
  }
}
