/**
 * GET /calls.csv: the library view as CSV, with the library's filters and the viewer's visibility, every page
 * (keyset walk, streamed). Cells are CSV-injection safe: a cell starting with = + - @ (or a tab or carriage
 * return) is prefixed with an apostrophe, so spreadsheets never run it as a formula.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../../store/db.js';
import type { Database } from '../../../store/schema.js';
import { listVisibleCalls, type LibraryCursor } from '../../../store/web-calls.repo.js';
import { requireSignIn, viewerOf } from '../session.js';
import { libraryFilterValues, toLibraryFilters } from '../library-filters.js';

export const CSV_COLUMNS = [
  'date',
  'rep',
  'team',
  'title',
  'call_type',
  'status',
  'score',
  'app_url',
] as const;
const PAGE = 500;

export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export async function csvRoutes(
  app: FastifyInstance,
  options: { db: Kysely<Database>; dialect: Dialect; publicAppBaseUrl: string },
): Promise<void> {
  const { db, dialect } = options;
  app.addHook('preHandler', requireSignIn);

  app.get('/calls.csv', async (request, reply) => {
    const viewer = viewerOf(request.webSession!);
    const filters = toLibraryFilters(libraryFilterValues(request.query));
    const base = options.publicAppBaseUrl.replace(/\/+$/, '');
    async function* lines(): AsyncGenerator<string> {
      yield `${CSV_COLUMNS.join(',')}\r\n`;
      let after: LibraryCursor | null = null;
      for (;;) {
        const rows = await listVisibleCalls(db, dialect, viewer, filters, after, PAGE);
        let chunk = '';
        for (const r of rows) {
          const score = r.score === null ? null : Math.round(Number(r.score) * 10) / 10;
          chunk +=
            [
              r.occurred_at ?? r.created_at,
              r.rep_name,
              r.team_name,
              r.title,
              r.call_type,
              r.status,
              score,
              `${base}/calls/${r.id}`,
            ]
              .map(csvCell)
              .join(',') + '\r\n';
        }
        if (chunk) yield chunk;
        const last = rows[rows.length - 1];
        if (rows.length < PAGE || !last) return;
        after = { at: last.occurred_at ?? last.created_at, id: last.id };
      }
    }
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="calls-${day}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(Readable.from(lines()));
  });
}
