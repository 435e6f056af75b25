/**
 * GET/POST /calls/new: a call made in the web application. Same transcript parsing and limits as the API
 * (src/ingest/transcript.ts), files converted with the client's importers, the speaker ladder with the form's
 * rep speaker as step (a). Such calls have no provider, external id or API key, and `attribution: null`
 * (rep_source null; how the speaker was found is kept for the call page). Multipart bodies are read whole (the recording
 * is at most 200 MB), only once the visitor is signed in.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { detectFormat, importTranscript, TranscriptImportError } from '@callscore/client';
import { AppError } from '../../../errors.js';
import { callTitle } from '../../../ingest/call-title.js';
import { CALL_TYPES, classifyCall } from '../../../ingest/classify-call.js';
import { createHeuristicInferrer } from '../../../ingest/infer-speaker.js';
import { resolveSpeaker } from '../../../ingest/resolve-speaker.js';
import {
  checkTranscriptLimits,
  parseTranscript,
  speakerLabels,
  transcriptFingerprint,
  type Turn,
} from '../../../ingest/transcript.js';
import type { RecordingStore } from '../../../recordings/store.js';
import { MAX_RECORDING_BYTES, RECORDING_CONTENT_TYPES } from '../../v1/schemas.js';
import { findCallByFingerprint, insertCallIfAbsent, insertTranscript } from '../../../store/calls.repo.js';
import { assignableMembers, teamScorecardFor } from '../../../store/coaching.repo.js';
import { enqueueScoring } from '../../../store/jobs.repo.js';
import { insertRecording } from '../../../store/recordings.repo.js';
import type { Call, Database } from '../../../store/schema.js';
import { sendPage } from '../render.js';
import { requireSignIn, tokensEqual, viewerOf, type WebSession } from '../session.js';
import { sendExpiredForm } from './common.js';
import { NewCallPage, type NewCallErrors, type NewCallValues } from './new-call.js';

export interface NewCallRoutesOptions {
  db: Kysely<Database>;
  staging: boolean;
  recordings?: RecordingStore | undefined;
}

const MULTIPART_LIMIT = MAX_RECORDING_BYTES + 2 * 1024 * 1024;
const MAX_TRANSCRIPT_FILE_BYTES = 5 * 1024 * 1024;
const SUPPORTED_RECORDING = new Set<string>(RECORDING_CONTENT_TYPES);
const DATE_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Who a call can be made for: the rep themselves; team members for a manager; anyone active for an admin. */
async function repChoices(db: Kysely<Database>, session: WebSession) {
  const viewer = viewerOf(session);
  if (viewer.role === 'admin' || viewer.role === 'manager') return assignableMembers(db, viewer);
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id as user_id', 'u.name', 'u.email', 't.id as team_id', 't.name as team_name'])
    .where('u.id', '=', viewer.userId)
    .where('u.status', '=', 'active')
    .where('t.deleted_at', 'is', null)
    .orderBy('t.name')
    .execute();
}

function text(fd: FormData, name: string): string {
  const v = fd.get(name);
  return typeof v === 'string' ? v : '';
}

function file(fd: FormData, name: string): File | null {
  const v = fd.get(name);
  return v && typeof v !== 'string' && v.size > 0 ? v : null;
}

function messageOf(error: unknown): string | null {
  if (error instanceof AppError || error instanceof TranscriptImportError) return error.message;
  return null;
}

export async function newCallRoutes(app: FastifyInstance, options: NewCallRoutesOptions): Promise<void> {
  const { db, staging } = options;
  const inferrer = createHeuristicInferrer();
  // Checked before the body is read: an anonymous (or cross-site, SameSite) post is refused without buffering up
  // to 200 MB of upload.
  app.addHook('onRequest', requireSignIn);
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MULTIPART_LIMIT },
    (_req, body, done) => done(null, body),
  );

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    values: NewCallValues,
    errors: NewCallErrors,
  ) {
    const session = request.webSession!;
    const reps = await repChoices(db, session);
    return sendPage(
      reply,
      status,
      NewCallPage({
        staging,
        user: session.user,
        csrfToken: session.csrfToken,
        reps: reps.map((r) => ({ value: `${r.user_id}:${r.team_id}`, label: `${r.name} (${r.team_name})` })),
        values,
        errors,
        recordingsEnabled: !!options.recordings,
        acceptRecording: RECORDING_CONTENT_TYPES.join(','),
      }),
    );
  }

  app.get('/calls/new', async (request, reply) => {
    const session = request.webSession!;
    return render(
      request,
      reply,
      200,
      { transcript: '', rep: `${session.user.id}:`, rep_speaker: '', call_type: '', occurred_at: '' },
      {},
    );
  });

  app.post('/calls/new', async (request, reply) => {
    const session = request.webSession!;
    const contentType = String(request.headers['content-type'] ?? '');
    if (!/^multipart\/form-data/i.test(contentType) || !Buffer.isBuffer(request.body)) {
      return sendExpiredForm(reply, session, staging);
    }
    let fd: FormData;
    try {
      const raw = request.body;
      fd = await new Response(new Uint8Array(raw.buffer, raw.byteOffset, raw.length) as unknown as BodyInit, {
        headers: { 'content-type': contentType },
      }).formData();
    } catch {
      return sendExpiredForm(reply, session, staging);
    }
    if (!tokensEqual(text(fd, '_csrf'), session.csrfToken)) return sendExpiredForm(reply, session, staging);

    const values: NewCallValues = {
      transcript: text(fd, 'transcript'),
      rep: text(fd, 'rep'),
      rep_speaker: text(fd, 'rep_speaker').trim(),
      call_type: text(fd, 'call_type'),
      occurred_at: text(fd, 'occurred_at').trim(),
    };
    const errors: NewCallErrors = {};

    // Rep (and team).
    const [userId, teamId] = values.rep.split(':');
    const rep = (await repChoices(db, session)).find((r) => r.user_id === userId && r.team_id === teamId);
    if (!rep) errors.rep = 'Choose an active rep of one of your teams.';

    // Transcript: a file wins over the pasted text.
    let turns: Turn[] = [];
    const transcriptFile = file(fd, 'transcript_file');
    try {
      if (transcriptFile) {
        if (transcriptFile.size > MAX_TRANSCRIPT_FILE_BYTES)
          throw new AppError('transcript_too_long', 'The transcript file is larger than 5 MB.');
        const content = new Uint8Array(await transcriptFile.arrayBuffer());
        const format = detectFormat(transcriptFile.name, content);
        if (format === 'gong') throw new AppError('validation_failed', 'Upload a .vtt, .srt or .txt file.');
        // Plain text is the contract's own form: read by the API's parser, exactly like pasted text.
        turns =
          format === 'text'
            ? parseTranscript({ text: new TextDecoder().decode(content) })
            : parseTranscript({
                segments: importTranscript(content, { filename: transcriptFile.name, format }).segments,
              });
      } else if (values.transcript.trim()) {
        turns = parseTranscript({ text: values.transcript });
      } else {
        errors.transcript = 'Paste the transcript or upload a transcript file.';
      }
      if (turns.some((t) => t.speaker.includes('\u0000') || t.text.includes('\u0000'))) {
        throw new AppError('validation_failed', 'The transcript contains a NUL character.');
      }
      if (!errors.transcript) {
        if (turns.length === 0) throw new AppError('transcript_unlabeled', 'The transcript has no turns.');
        checkTranscriptLimits(turns);
      }
    } catch (error) {
      const message = messageOf(error);
      if (message === null) throw error;
      // The parser's message is the API's; a person at this form uploads a file rather than sending segments.
      errors.transcript = message.replace('; or send transcript.segments.', '; or upload a transcript file.');
    }

    if (values.call_type && !(CALL_TYPES as readonly string[]).includes(values.call_type))
      errors.call_type = 'Choose a call type from the list.';

    let occurredAt: string | null = null;
    if (values.occurred_at) {
      const m = DATE_LOCAL.exec(values.occurred_at);
      const date = m ? new Date(`${values.occurred_at}${m[6] ? '' : ':00'}Z`) : null;
      if (!date || Number.isNaN(date.getTime()) || date.getTime() > Date.now() + 24 * 3600_000) {
        errors.occurred_at = 'Enter a date and time that is not in the future.';
      } else occurredAt = date.toISOString();
    }

    const recordingFile = file(fd, 'recording');
    const recordingType = recordingFile ? recordingFile.type.split(';')[0]!.trim().toLowerCase() : '';
    if (recordingFile) {
      if (!options.recordings) errors.recording = 'Recordings cannot be stored here.';
      else if (!SUPPORTED_RECORDING.has(recordingType))
        errors.recording =
          'This file type is not supported: upload an audio or video file (MP3, WAV, M4A, WebM, OGG, FLAC, MP4, MOV, MKV).';
      else if (recordingFile.size > MAX_RECORDING_BYTES)
        errors.recording = 'The recording is larger than 200 MB.';
    }

    if (Object.keys(errors).length || !rep) return render(request, reply, 422, values, errors);

    // Speaker ladder: the form's label, else the rep's name or email, else inference from the dialogue.
    let speaker: Awaited<ReturnType<typeof resolveSpeaker>>;
    try {
      speaker = await resolveSpeaker({
        turns,
        repSpeaker: values.rep_speaker || null,
        repNames: [rep.name, rep.email],
        participants: null,
        infer: inferrer,
      });
    } catch (error) {
      const message = messageOf(error);
      if (message === null) throw error;
      const text =
        error instanceof AppError && error.code === 'rep_speaker_undetermined'
          ? `Could not tell which speaker is the rep. Enter the rep’s label: ${speakerLabels(turns).join(', ')}.`
          : error instanceof AppError && error.code === 'rep_speaker_not_found'
            ? `No speaker has this label. The transcript’s labels are: ${speakerLabels(turns).join(', ')}.`
            : message;
      return render(request, reply, 422, values, { rep_speaker: text });
    }

    const label = speaker.label;
    const callType = values.call_type || classifyCall(turns, label).callType || 'discovery';
    const card = await teamScorecardFor(db, rep.team_id, callType);
    if ('error' in card) {
      return render(request, reply, 422, values, {
        form:
          card.error === 'not_configured'
            ? `${rep.team_name} has no scorecard for this call type and no default. A manager can set one on the Scorecards page.`
            : `${rep.team_name}’s scorecard for this call type is no longer published. A manager can update it on the Scorecards page.`,
      });
    }

    const fingerprint = transcriptFingerprint(turns);
    const duplicate = await findCallByFingerprint(db, session.user.accountId, rep.user_id, fingerprint);
    if (duplicate) return reply.redirect(`/calls/${duplicate.id}`, 303);

    const now = new Date().toISOString();
    let recordingId: string | null = null;
    if (recordingFile && options.recordings) {
      recordingId = `rec_${randomUUID().replace(/-/g, '')}`;
      const bytes = Buffer.from(await recordingFile.arrayBuffer());
      await options.recordings.writeUpload(recordingId, Readable.from([bytes]), bytes.length, recordingType);
    }
    const call: Call = {
      id: randomUUID(),
      account_id: session.user.accountId,
      team_id: rep.team_id,
      rep_user_id: rep.user_id,
      ingest_rep_user_id: rep.user_id,
      provider: null,
      external_id: null,
      fingerprint,
      status: 'queued',
      skip_reason: null,
      call_type: callType,
      scorecard_id: card.id,
      title: callTitle(null, speakerLabels(turns), label, occurredAt ?? now),
      rep_speaker: label,
      // How the speaker was found is kept for the call page; with rep_source null the API's attribution stays null.
      speaker_source: speaker.source,
      rep_source: null,
      speaker_confidence: speaker.confidence,
      recording_id: recordingId,
      api_key_id: null,
      occurred_at: occurredAt,
      created_at: now,
      updated_at: now,
      current_score: null,
    };
    const inserted = await db.transaction().execute(async (tx) => {
      if (!(await insertCallIfAbsent(tx, call))) return false;
      await insertTranscript(tx, {
        call_id: call.id,
        turns: JSON.stringify(turns),
        participants: null,
        metadata: null,
        speaker_signals: speaker.signals ? JSON.stringify(speaker.signals) : null,
      });
      if (recordingId && recordingFile) {
        await insertRecording(tx, {
          id: recordingId,
          account_id: session.user.accountId,
          api_key_id: null,
          content_type: recordingType,
          size_bytes: recordingFile.size,
          filename: recordingFile.name.slice(0, 255) || null,
          storage_key: recordingId,
          status: 'uploaded',
          call_id: call.id,
          expires_at: now,
          uploaded_at: now,
          created_at: now,
        });
      }
      await enqueueScoring(tx, call.id, call.account_id, now, 'web');
      return true;
    });
    if (!inserted) {
      if (recordingId) await options.recordings?.remove(recordingId);
      const winner = await findCallByFingerprint(db, session.user.accountId, rep.user_id, fingerprint);
      if (winner) return reply.redirect(`/calls/${winner.id}`, 303);
      throw new Error('call insert conflicted but no conflicting call was found');
    }
    return reply.redirect(`/calls/${call.id}?notice=created`, 303);
  });
}
