/** The call library (GET /calls) and the call page (GET /calls/:id = the API's app_url). */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { normaliseSpeaker } from '../../scoring/scorers/scorer.js';
import type { Dialect } from '../../store/db.js';
import type { Database } from '../../store/schema.js';
import {
  filterableReps,
  viewerTeams,
  findCurrentResult,
  findVisibleCall,
  listVisibleCalls,
  type LibraryCursor,
} from '../../store/web-calls.repo.js';
import { filterParams, libraryFilterValues, toLibraryFilters } from './library-filters.js';
import { sendPage } from './render.js';
import { requireSignIn, viewerOf } from './session.js';
import { CallPage, type CallCriterion, type CallResult, type CallTurn } from './views/call.js';
import { ErrorPage, NOT_FOUND } from './views/errors.js';
import { speakerReason } from './views/format.js';
import { LibraryPage } from './views/library.js';
import { loadCoaching } from './coaching/load.js';

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
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
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
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through: a mangled cursor shows the first page
  }
  return null;
}

/** Stored JSON, or null when absent or unreadable (a page never fails on one bad column). */
function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function parseJsonArray(text: string | null): unknown[] {
  const value = parseJson(text);
  return Array.isArray(value) ? value : [];
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function toTurns(turnsJson: string, repSpeaker: string): CallTurn[] {
  const rep = normaliseSpeaker(repSpeaker);
  return parseJsonArray(turnsJson).map((raw) => {
    const t = (raw ?? {}) as Record<string, unknown>;
    const speaker = str(t.speaker);
    return {
      speaker,
      text: str(t.text),
      start_ms: numOrNull(t.start_ms),
      isRep: normaliseSpeaker(speaker) === rep,
    };
  });
}

function toCriteria(criteriaJson: string): CallCriterion[] {
  return parseJsonArray(criteriaJson).map((raw, index) => {
    const c = (raw ?? {}) as Record<string, unknown>;
    const evidence = Array.isArray(c.evidence) ? c.evidence : [];
    return {
      key: str(c.key, `criterion_${index}`),
      title: str(c.title, str(c.key, `Criterion ${index + 1}`)),
      weight: numOrNull(c.weight) ?? 1,
      score: numOrNull(c.score),
      na: c.na === true,
      rationale: str(c.rationale),
      evidence: evidence.map((e) => {
        const ev = (e ?? {}) as Record<string, unknown>;
        return {
          turn_index: numOrNull(ev.turn_index) ?? -1,
          start_ms: numOrNull(ev.start_ms),
          quote: str(ev.quote),
        };
      }),
    };
  });
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
        nextHref: rows.length > perPage && last ? link({ createdAt: last.created_at, id: last.id }) : null,
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
    const resultRow = await findCurrentResult(db, call.id);
    const result: CallResult | null = resultRow
      ? {
          score: resultRow.score === null ? null : Number(resultRow.score),
          skip_reason: resultRow.skip_reason,
          criteria: toCriteria(resultRow.criteria),
          created_at: resultRow.created_at,
          scorecard_version:
            resultRow.scorecard_version === null ? null : Number(resultRow.scorecard_version),
        }
      : null;
    const participants = parseJsonArray(call.participants).map((raw) => {
      const p = (raw ?? {}) as Record<string, unknown>;
      return {
        role: str(p.role, 'other'),
        name: str(p.name),
        company: typeof p.company === 'string' ? p.company : null,
      };
    });
    const turns = toTurns(call.turns, call.rep_speaker);
    const coaching = await loadCoaching(db, session, call, turns, result?.criteria ?? null, request.query);
    // A manager's correction replaces how the speaker was found (the API's attribution keeps the arrival).
    const correction = [...coaching.actions].reverse().find((a) => a.kind === 'speaker') ?? null;
    return sendPage(
      reply,
      200,
      CallPage({
        staging,
        user: session.user,
        csrfToken: session.csrfToken,
        call: {
          ...call,
          speaker_confidence: call.speaker_confidence === null ? null : Number(call.speaker_confidence),
          speaker_reason: correction ? null : speakerReason(parseJson(call.speaker_signals)),
          speaker_corrected_by: correction?.user_name ?? null,
        },
        participants,
        turns,
        result,
        coaching,
      }),
    );
  });
}
