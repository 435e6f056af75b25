/** The call library (GET /calls) and the call page (GET /calls/:id = the API's app_url). */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../store/db.js';
import type { Database } from '../../store/schema.js';
import {
  filterableReps,
  viewerTeams,
  findVisibleCall,
  listVisibleCalls,
  type LibraryCursor,
} from '../../store/web-calls.repo.js';
import { filterParams, libraryFilterValues, toLibraryFilters } from './library-filters.js';
import { sendPage } from './render.js';
import { requireSignIn, viewerOf } from './session.js';
import { ErrorPage, NOT_FOUND } from './views/errors.js';
import { LibraryPage } from './views/library.js';
import { outcomeOf } from './coaching/load.js';
import { callPage } from './call-page.js';

export interface CallsRoutesOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  staging: boolean;
}

export const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

/** A single short string query parameter, or '' (repeated or oversized values are ignored). */
function param(query: unknown, name: string): string {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length <= 200 ? value : '';
}

export function encodeCursor(cursor: LibraryCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id]), 'utf8').toString('base64url');
}

export function decodeCursor(value: string): LibraryCursor | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string'
    ) {
      return { at: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through: a mangled cursor shows the first page
  }
  return null;
}

export async function callsRoutes(app: FastifyInstance, options: CallsRoutesOptions): Promise<void> {
  const { db, dialect, staging } = options;
  app.addHook('preHandler', requireSignIn);

  app.get('/', async (_request, reply) => reply.redirect('/calls', 303));

  app.get('/calls', async (request, reply) => {
    const session = request.webSession!;
    const viewer = viewerOf(session);
    const filters = libraryFilterValues(request.query);
    const perPageRaw = Number(param(request.query, 'per_page'));
    const perPage =
      Number.isInteger(perPageRaw) && perPageRaw >= 1
        ? Math.min(perPageRaw, MAX_PAGE_SIZE)
        : DEFAULT_PAGE_SIZE;
    const after = decodeCursor(param(request.query, 'after'));

    const [rows, teams, reps] = await Promise.all([
      listVisibleCalls(db, dialect, viewer, toLibraryFilters(filters), after, perPage + 1),
      viewerTeams(db, viewer),
      filterableReps(db, viewer),
    ]);
    const page = rows.slice(0, perPage);

    const link = (cursor: LibraryCursor | null) => {
      const params = filterParams(filters);
      if (perPage !== DEFAULT_PAGE_SIZE) params.set('per_page', String(perPage));
      if (cursor) params.set('after', encodeCursor(cursor));
      const qs = params.toString();
      return qs ? `/calls?${qs}` : '/calls';
    };
    const last = page[page.length - 1];
    return sendPage(
      reply,
      200,
      LibraryPage({
        staging,
        user: session.user,
        csrfToken: session.csrfToken,
        rows: page.map((r) => ({ ...r, score: r.score === null ? null : Number(r.score) })),
        filters,
        teams,
        reps,
        nextHref:
          rows.length > perPage && last
            ? link({ at: last.occurred_at ?? last.created_at, id: last.id })
            : null,
        firstHref: after ? link(null) : null,
        filtered: Object.values(filters).some(Boolean),
      }),
    );
  });

  app.get('/calls/:id', async (request, reply) => {
    const session = request.webSession!;
    const id = (request.params as { id: string }).id.toLowerCase();
    const call = /^[0-9a-f-]{36}$/.test(id) ? await findVisibleCall(db, viewerOf(session), id) : undefined;
    if (!call) {
      return sendPage(
        reply,
        404,
        ErrorPage({ ...NOT_FOUND, staging, user: session.user, csrfToken: session.csrfToken }),
      );
    }
    return sendPage(reply, 200, await callPage(db, staging, session, call, outcomeOf(request.query)));
  });
}
