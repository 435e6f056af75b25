/**
 * /settings/api-keys: list, create (secret shown once), rotate (new secret shown once; the old one keeps working
 * for a grace period through `expires_at`), revoke (`revoked_at`, immediate) and transfer (`created_by`).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { digestApiKey, displayPrefix, generateApiKey, SCOPES } from '../../../auth/api-keys.js';
import {
  findApiKey,
  insertApiKey,
  listActiveAdmins,
  listActiveTeams,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  transferApiKey,
  type ApiKeyListRow,
} from '../../../store/admin.repo.js';
import type { Database } from '../../../store/schema.js';
import { sendPage } from '../render.js';
import { SubmissionLedger } from '../submissions.js';
import { idParam, listField, nameProblem, noticeOf, notFound, pageBase, textField } from './guard.js';
import {
  ApiKeyPage,
  ApiKeysPage,
  KeySecretPage,
  NewApiKeyPage,
  type KeyView,
  type NewKeyForm,
} from './views/api-keys.js';

export const DEFAULT_GRACE_HOURS = 24;
export const MAX_GRACE_HOURS = 720;

function parseScopes(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export function keyView(row: ApiKeyListRow, now: number): KeyView {
  const expired = row.expires_at !== null && Date.parse(row.expires_at) <= now;
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: parseScopes(row.scopes),
    team_name: row.team_name,
    team_deleted: row.team_deleted_at !== null,
    creator_name: row.creator_name,
    creator_email: row.creator_email,
    creator_active: row.creator_status === 'active',
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    state: row.revoked_at !== null || expired ? 'revoked' : row.expires_at !== null ? 'rotating' : 'active',
    revoked_at: row.revoked_at,
    expires_at: row.expires_at,
  };
}

/** Grace period in whole hours, 0..720; an empty field means the default. Null when invalid. */
export function parseGraceHours(raw: string): number | null {
  if (raw === '') return DEFAULT_GRACE_HOURS;
  if (!/^\d{1,4}$/.test(raw)) return null;
  const hours = Number(raw);
  return hours <= MAX_GRACE_HOURS ? hours : null;
}

export async function apiKeysRoutes(
  app: FastifyInstance,
  options: { db: Kysely<Database>; staging: boolean },
): Promise<void> {
  const { db, staging } = options;
  const submissions = new SubmissionLedger();

  async function keyPage(
    request: FastifyRequest,
    row: ApiKeyListRow,
    status = 200,
    errors: string[] = [],
    graceHours?: string,
  ) {
    const base = pageBase(request, staging);
    const admins = (await listActiveAdmins(db, base.session.user.accountId)).filter(
      (a) => a.id !== row.created_by,
    );
    return {
      status,
      page: ApiKeyPage({
        ...base,
        k: keyView(row, Date.now()),
        admins,
        notice: noticeOf(request),
        errors,
        graceHours,
      }),
    };
  }

  app.get('/settings/api-keys', async (request, reply) => {
    const base = pageBase(request, staging);
    const rows = await listApiKeys(db, base.session.user.accountId);
    const now = Date.now();
    return sendPage(
      reply,
      200,
      ApiKeysPage({ ...base, keys: rows.map((r) => keyView(r, now)), notice: noticeOf(request) }),
    );
  });

  app.get('/settings/api-keys/new', async (request, reply) => {
    const base = pageBase(request, staging);
    const teams = await listActiveTeams(db, base.session.user.accountId);
    const form: NewKeyForm = {
      name: '',
      team: teams[0]?.id ?? '',
      scopes: [...SCOPES],
      submission: randomUUID(),
    };
    return sendPage(reply, 200, NewApiKeyPage({ ...base, teams, form }));
  });

  app.post('/settings/api-keys', async (request, reply) => {
    const base = pageBase(request, staging);
    const accountId = base.session.user.accountId;
    const teams = await listActiveTeams(db, accountId);
    const form: NewKeyForm = {
      name: textField(request.body, 'name'),
      team: textField(request.body, 'team'),
      scopes: listField(request.body, 'scopes'),
      submission: textField(request.body, 'submission') || randomUUID(),
    };
    const errors: string[] = [];
    const nameError = nameProblem('Name', form.name, 100);
    if (nameError) errors.push(nameError);
    const team = teams.find((t) => t.id === form.team);
    if (!team) errors.push('Choose one of the teams.');
    const scopes = SCOPES.filter((s) => form.scopes.includes(s));
    if (scopes.length === 0 || scopes.length !== form.scopes.length)
      errors.push('Choose at least one scope from the list.');
    if (errors.length || !team) {
      return sendPage(reply, 422, NewApiKeyPage({ ...base, teams, form: { ...form, scopes }, errors }));
    }
    // A reload of the page showing the secret re-posts the form: the key exists, its secret was shown once.
    if (!submissions.first(`${base.session.user.id}:${form.submission}`))
      return reply.redirect('/settings/api-keys?done=already_created', 303);
    const secret = generateApiKey();
    const id = await insertApiKey(db, {
      accountId,
      teamId: team.id,
      createdBy: base.session.user.id,
      digest: digestApiKey(secret),
      prefix: displayPrefix(secret),
      name: form.name,
      scopes: [...scopes],
      now: new Date().toISOString(),
    });
    request.log.info({ apiKeyId: id, by: base.session.user.id }, 'api key created');
    return sendPage(
      reply,
      201,
      KeySecretPage({ ...base, heading: 'API key created', keyName: form.name, secret, keyId: id }),
    );
  });

  app.get('/settings/api-keys/:id', async (request, reply) => {
    const base = pageBase(request, staging);
    const id = idParam(request);
    const row = id ? await findApiKey(db, base.session.user.accountId, id) : undefined;
    if (!row) return notFound(reply, staging, base.session);
    const { status, page } = await keyPage(request, row);
    return sendPage(reply, status, page);
  });

  app.post('/settings/api-keys/:id/rotate', async (request, reply) => {
    const base = pageBase(request, staging);
    const accountId = base.session.user.accountId;
    const id = idParam(request);
    const row = id ? await findApiKey(db, accountId, id) : undefined;
    if (!row) return notFound(reply, staging, base.session);
    const graceText = textField(request.body, 'grace_hours');
    const hours = parseGraceHours(graceText);
    const view = keyView(row, Date.now());
    if (hours === null || view.state !== 'active') {
      const { page } = await keyPage(
        request,
        row,
        422,
        [
          hours === null
            ? `The grace period must be a whole number of hours from 0 to ${MAX_GRACE_HOURS}.`
            : 'Only an active key can be rotated.',
        ],
        hours === null ? graceText.slice(0, 20) : undefined,
      );
      return sendPage(reply, 422, page);
    }
    const now = Date.now();
    const secret = generateApiKey();
    const newId = await rotateApiKey(db, accountId, row.id, {
      createdBy: base.session.user.id,
      digest: digestApiKey(secret),
      prefix: displayPrefix(secret),
      now: new Date(now).toISOString(),
      expiresAt: new Date(now + hours * 3600_000).toISOString(),
    });
    if (!newId) {
      const fresh = (await findApiKey(db, accountId, row.id)) ?? row;
      const { page } = await keyPage(request, fresh, 409, [
        'This key was changed meanwhile; it can no longer be rotated.',
      ]);
      return sendPage(reply, 409, page);
    }
    request.log.info({ apiKeyId: row.id, newApiKeyId: newId, graceHours: hours }, 'api key rotated');
    const extra =
      hours === 0
        ? 'The previous secret stopped working now.'
        : `The previous secret keeps working for ${hours} hour${hours === 1 ? '' : 's'}, until ${new Date(now + hours * 3600_000).toISOString().slice(0, 16).replace('T', ' ')} UTC.`;
    return sendPage(
      reply,
      201,
      KeySecretPage({ ...base, heading: 'API key rotated', keyName: row.name, secret, keyId: newId, extra }),
    );
  });

  app.post('/settings/api-keys/:id/revoke', async (request, reply) => {
    const base = pageBase(request, staging);
    const id = idParam(request);
    const row = id ? await findApiKey(db, base.session.user.accountId, id) : undefined;
    if (!row) return notFound(reply, staging, base.session);
    await revokeApiKey(db, base.session.user.accountId, row.id, new Date().toISOString());
    request.log.info({ apiKeyId: row.id }, 'api key revoked');
    return reply.redirect(`/settings/api-keys/${row.id}?done=revoked`, 303);
  });

  app.post('/settings/api-keys/:id/transfer', async (request, reply) => {
    const base = pageBase(request, staging);
    const accountId = base.session.user.accountId;
    const id = idParam(request);
    const row = id ? await findApiKey(db, accountId, id) : undefined;
    if (!row) return notFound(reply, staging, base.session);
    const owner = textField(request.body, 'owner');
    const ok = owner !== row.created_by && (await transferApiKey(db, accountId, row.id, owner));
    if (!ok) {
      const { page } = await keyPage(request, row, 422, [
        keyView(row, Date.now()).state === 'revoked'
          ? 'A revoked key cannot be transferred.'
          : 'Choose another active admin of this account.',
      ]);
      return sendPage(reply, 422, page);
    }
    request.log.info({ apiKeyId: row.id, to: owner }, 'api key transferred');
    return reply.redirect(`/settings/api-keys/${row.id}?done=transferred`, 303);
  });
}
