/**
 * Coaching actions on a call (POST, CSRF-checked, 303 back to the call page with a notice or an error code; a
 * refused note or override shows the page again at 422 with what was typed) and
 * the call's recording (GET with HTTP Range). Every route finds the call through the viewer's visibility first:
 * a call outside it is 404. Reps may add notes; reassign, re-run, speaker correction and overrides need a
 * manager or an admin (a rep gets 404 for those, like any page they cannot use).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { RecordingStore } from '../../../recordings/store.js';
import {
  addComment,
  addOverride,
  assignableMembers,
  callRecording,
  currentResultId,
  reassignCall,
  recordAction,
  setRepSpeaker,
  teamScorecardFor,
} from '../../../store/coaching.repo.js';
import { callTitle } from '../../../ingest/call-title.js';
import { requeueCall } from '../../../store/jobs.repo.js';
import type { Database } from '../../../store/schema.js';
import { findVisibleCall } from '../../../store/web-calls.repo.js';
import { formField, requireSignIn, sessionCsrfValid, viewerOf, type WebSession } from '../session.js';
import { callPage, type VisibleCall } from '../call-page.js';
import { sendPage } from '../render.js';
import { idParam, isManager, sendExpiredForm, sendNotFound } from './common.js';
import { COACHING_SCRIPT, COACHING_SCRIPT_PATH } from './views.js';
import { createHash } from 'node:crypto';

export interface CoachingRoutesOptions {
  db: Kysely<Database>;
  staging: boolean;
  recordings?: RecordingStore | undefined;
}

export const MAX_NOTE_CHARS = 2000;
const SCRIPT_ETAG = `"${createHash('sha256').update(COACHING_SCRIPT).digest('base64url').slice(0, 16)}"`;

function parseTurns(json: string): { speaker: string; text: string }[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value)
      ? value.map((t) => ({
          speaker: String((t as { speaker?: unknown })?.speaker ?? ''),
          text: String((t as { text?: unknown })?.text ?? ''),
        }))
      : [];
  } catch {
    return [];
  }
}

function parseCriteria(json: string): { key: string }[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value)
      ? value.map((c) => ({ key: String((c as { key?: unknown })?.key ?? '') }))
      : [];
  } catch {
    return [];
  }
}

/** Code points, as everywhere in the contract. */
const chars = (s: string): number => [...s].length;

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` against `size`: a range, 'unsatisfiable', or null to send it all. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!match) {
    // Several ranges, or another unit: served whole (a server may ignore Range). A broken bytes spec is refused.
    return /^bytes=/i.test(header.trim()) && !header.includes(',') ? 'unsatisfiable' : null;
  }
  const [, a, b] = match;
  if (a === '' && b === '') return 'unsatisfiable';
  if (a === '') {
    const suffix = Number(b);
    if (!Number.isSafeInteger(suffix) || suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start >= size || end < start)
    return 'unsatisfiable';
  return { start, end };
}

export async function coachingRoutes(app: FastifyInstance, options: CoachingRoutesOptions): Promise<void> {
  const { db, staging } = options;

  app.get(COACHING_SCRIPT_PATH, async (request, reply) => {
    reply.header('ETag', SCRIPT_ETAG).header('Cache-Control', 'public, max-age=300, must-revalidate');
    if (request.headers['if-none-match'] === SCRIPT_ETAG) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(COACHING_SCRIPT);
  });

  /** The visible call for a POST (after the CSRF check), or a reply already sent. */
  async function postGuard(
    request: FastifyRequest,
    reply: FastifyReply,
    managersOnly: boolean,
  ): Promise<{ session: WebSession; call: VisibleCall } | null> {
    const session = request.webSession!;
    if (!sessionCsrfValid(request)) {
      await sendExpiredForm(reply, session, staging);
      return null;
    }
    const id = idParam(request);
    const call = id ? await findVisibleCall(db, viewerOf(session), id) : undefined;
    if (!call || (managersOnly && !isManager(session.user.role))) {
      await sendNotFound(reply, session, staging);
      return null;
    }
    return { session, call };
  }

  const back = (reply: FastifyReply, callId: string, outcome: string, anchor = '') =>
    reply.redirect(`/calls/${callId}?${outcome}${anchor}`, 303);

  /** A refused form with typed text: the call page again (422), the text kept and the error beside its field. */
  const refuse = async (
    reply: FastifyReply,
    g: { session: WebSession; call: VisibleCall },
    error: string,
    draft: Record<string, string>,
  ) => {
    const kept = Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, v.replaceAll('\u0000', '')]));
    const page = await callPage(db, staging, g.session, g.call, { notice: '', error, draft: kept });
    return sendPage(reply, 422, page);
  };

  await app.register(async (signedIn) => {
    signedIn.addHook('preHandler', requireSignIn);

    signedIn.post('/calls/:id/comments', async (request, reply) => {
      const g = await postGuard(request, reply, false);
      if (!g) return reply;
      const typed = formField(request.body, 'body') ?? '';
      const body = typed.trim();
      const turnRaw = formField(request.body, 'turn') ?? '';
      const draft = { body: typed, turn: turnRaw };
      if (!body || chars(body) > MAX_NOTE_CHARS || body.includes('\u0000'))
        return refuse(reply, g, 'comment', draft);
      let turnIndex: number | null = null;
      if (turnRaw !== '') {
        const n = Number(turnRaw);
        if (!/^\d{1,5}$/.test(turnRaw) || n >= parseTurns(g.call.turns).length)
          return refuse(reply, g, 'turn', draft);
        turnIndex = n;
      }
      await addComment(db, {
        callId: g.call.id,
        accountId: g.session.user.accountId,
        authorUserId: g.session.user.id,
        turnIndex,
        body,
      });
      return back(reply, g.call.id, 'notice=commented', turnIndex === null ? '#notes' : `#turn-${turnIndex}`);
    });

    signedIn.post('/calls/:id/reassign', async (request, reply) => {
      const g = await postGuard(request, reply, true);
      if (!g) return reply;
      const viewer = viewerOf(g.session);
      const [userId, teamId] = (formField(request.body, 'member') ?? '').split(':');
      const member = (await assignableMembers(db, viewer)).find(
        (m) => m.user_id === userId && m.team_id === teamId,
      );
      if (!member) return back(reply, g.call.id, 'error=member', '#manage');
      const current = await db
        .selectFrom('calls')
        .select(['rep_user_id', 'team_id', 'call_type'])
        .where('id', '=', g.call.id)
        .executeTakeFirstOrThrow();
      if (current.rep_user_id === member.user_id && current.team_id === member.team_id)
        return back(reply, g.call.id, 'error=same_owner', '#manage');
      const card = await teamScorecardFor(db, member.team_id, current.call_type);
      if ('error' in card) return back(reply, g.call.id, 'error=no_scorecard', '#manage');
      await reassignCall(db, g.call.id, {
        userId: member.user_id,
        teamId: member.team_id,
        scorecardId: card.id,
      });
      await requeueCall(db, g.call.id, 'reassign');
      await recordAction(db, {
        callId: g.call.id,
        accountId: viewer.accountId,
        userId: viewer.userId,
        kind: 'reassign',
        detail: {
          from_rep: g.call.rep_name,
          from_team: g.call.team_name,
          to_rep: member.name,
          to_team: member.team_name,
          to_user_id: member.user_id,
          to_team_id: member.team_id,
          scorecard_id: card.id,
        },
      });
      // After a reassignment the manager may no longer see the call (another team): go back to the library then.
      const stillVisible = await findVisibleCall(db, viewer, g.call.id);
      return stillVisible ? back(reply, g.call.id, 'notice=reassigned') : reply.redirect('/calls', 303);
    });

    signedIn.post('/calls/:id/rerun', async (request, reply) => {
      const g = await postGuard(request, reply, true);
      if (!g) return reply;
      if (g.call.status !== 'failed') return back(reply, g.call.id, 'error=not_failed', '#manage');
      await requeueCall(db, g.call.id, 'rerun');
      await recordAction(db, {
        callId: g.call.id,
        accountId: g.session.user.accountId,
        userId: g.session.user.id,
        kind: 'rerun',
        detail: {},
      });
      return back(reply, g.call.id, 'notice=rerun');
    });

    signedIn.post('/calls/:id/speaker', async (request, reply) => {
      const g = await postGuard(request, reply, true);
      if (!g) return reply;
      const label = formField(request.body, 'label') ?? '';
      const labels = [...new Set(parseTurns(g.call.turns).map((t) => t.speaker))];
      if (!labels.includes(label)) return back(reply, g.call.id, 'error=label', '#manage');
      if (label === g.call.rep_speaker) return back(reply, g.call.id, 'error=same_label', '#manage');
      // The title names the first label that is not the rep's when no customer participant was sent (DESIGN 4).
      const participants = g.call.participants
        ? (JSON.parse(g.call.participants) as { role: string; name: string }[])
        : null;
      const title = callTitle(participants, labels, label, g.call.occurred_at ?? g.call.created_at);
      await setRepSpeaker(db, g.call.id, label, title);
      await requeueCall(db, g.call.id, 'speaker');
      await recordAction(db, {
        callId: g.call.id,
        accountId: g.session.user.accountId,
        userId: g.session.user.id,
        kind: 'speaker',
        detail: { from: g.call.rep_speaker, to: label },
      });
      return back(reply, g.call.id, 'notice=speaker');
    });

    signedIn.post('/calls/:id/overrides', async (request, reply) => {
      const g = await postGuard(request, reply, true);
      if (!g) return reply;
      const resultId = await currentResultId(db, g.call.id);
      const result = resultId
        ? await db
            .selectFrom('score_results')
            .select(['criteria', 'score'])
            .where('id', '=', resultId)
            .executeTakeFirst()
        : undefined;
      if (!resultId || !result || result.score === null)
        return back(reply, g.call.id, 'error=no_result', '#manage');
      const key = formField(request.body, 'criterion') ?? '';
      const scoreRaw = (formField(request.body, 'score') ?? '').trim();
      const comment = (formField(request.body, 'comment') ?? '').trim();
      const score = Number(scoreRaw);
      const known = parseCriteria(result.criteria).some((c) => c.key === key);
      if (
        !known ||
        !/^\d{1,3}(\.\d{1,2})?$/.test(scoreRaw) ||
        score < 0 ||
        score > 100 ||
        !comment ||
        chars(comment) > MAX_NOTE_CHARS ||
        comment.includes('\u0000')
      ) {
        return refuse(reply, g, 'override', {
          criterion: key,
          score: scoreRaw,
          comment: formField(request.body, 'comment') ?? '',
        });
      }
      await addOverride(db, {
        callId: g.call.id,
        resultId,
        criterionKey: key,
        score: score / 100,
        comment,
        authorUserId: g.session.user.id,
      });
      return back(reply, g.call.id, 'notice=override', '#score-heading');
    });

    signedIn.get('/calls/:id/recording', async (request, reply) => {
      const session = request.webSession!;
      const id = idParam(request);
      const call = id ? await findVisibleCall(db, viewerOf(session), id) : undefined;
      const recording =
        call?.recording_id && options.recordings
          ? await callRecording(db, session.user.accountId, call.recording_id)
          : undefined;
      const stat = recording ? await options.recordings!.stat(recording.storage_key) : null;
      if (!call || !recording || !stat) return sendNotFound(reply, session, staging);
      const size = stat.sizeBytes;
      reply
        .header('Accept-Ranges', 'bytes')
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', 'inline')
        .type(recording.content_type);
      const range = parseRange(request.headers.range, size);
      if (range === 'unsatisfiable') {
        return reply
          .code(416)
          .header('Content-Range', `bytes */${size}`)
          .type('text/plain; charset=utf-8')
          .send('');
      }
      if (range === null) {
        reply.header('Content-Length', String(size));
        if (request.method === 'HEAD' || size === 0) return reply.code(200).send();
        return reply.code(200).send(await options.recordings!.read(recording.storage_key));
      }
      reply
        .code(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
        .header('Content-Length', String(range.end - range.start + 1));
      if (request.method === 'HEAD') return reply.send();
      return reply.send(await options.recordings!.read(recording.storage_key, range));
    });
  });
}
