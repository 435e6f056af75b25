/** /settings/account: the account's name; status and features are shown read-only. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { findAccount, renameAccount } from '../../../store/admin.repo.js';
import type { Database } from '../../../store/schema.js';
import { sendPage } from '../render.js';
import { nameProblem, noticeOf, notFound, pageBase, textField } from './guard.js';
import { AccountPage } from './views/account.js';

function features(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

export async function accountRoutes(
  app: FastifyInstance,
  options: { db: Kysely<Database>; staging: boolean },
): Promise<void> {
  const { db, staging } = options;

  async function page(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    name?: string,
    errors?: string[],
  ) {
    const base = pageBase(request, staging);
    const account = await findAccount(db, base.session.user.accountId);
    if (!account) return notFound(reply, staging, base.session);
    return sendPage(
      reply,
      status,
      AccountPage({
        ...base,
        account: { name: account.name, status: account.status, features: features(account.features) },
        name: name ?? account.name,
        notice: noticeOf(request),
        errors,
      }),
    );
  }

  app.get('/settings/account', async (request, reply) => page(request, reply, 200));

  app.post('/settings/account', async (request, reply) => {
    const session = request.webSession!;
    const name = textField(request.body, 'name');
    const problem = nameProblem('Account name', name, 100);
    if (problem) return page(request, reply, 422, name, [problem]);
    if (!(await renameAccount(db, session.user.accountId, name))) {
      return page(request, reply, 422, name, ['This name cannot be used. Choose another.']);
    }
    request.log.info({ accountId: session.user.accountId, by: session.user.id }, 'account renamed');
    return reply.redirect('/settings/account?done=saved', 303);
  });
}
