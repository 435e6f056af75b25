/**
 * The admin part of the web application: /settings/** for admins only (404 for everyone else, sign-in first),
 * plus the public one-time link pages for invitations and password resets.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../../config.js';
import type { Database } from '../../../store/schema.js';
import { accountRoutes } from './account.routes.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { adminGuard } from './guard.js';
import { linksRoutes } from './links.routes.js';
import { teamsRoutes } from './teams.routes.js';
import { usersRoutes } from './users.routes.js';

export interface AdminRoutesOptions {
  db: Kysely<Database>;
  staging: boolean;
  /** The web plugin's config; `publicAppBaseUrl`, when present, builds the one-time links. */
  config: Pick<Config, 'serviceEnv'> & Partial<Pick<Config, 'publicAppBaseUrl'>>;
}

export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  const { db, staging } = options;
  const appBaseUrl = options.config.publicAppBaseUrl;

  await app.register(async (settings) => {
    settings.addHook('preHandler', adminGuard(staging));
    await settings.register(usersRoutes, { db, staging, appBaseUrl });
    await settings.register(teamsRoutes, { db, staging });
    await settings.register(apiKeysRoutes, { db, staging });
    await settings.register(accountRoutes, { db, staging });
  });
  await app.register(linksRoutes, { db, staging });
}
