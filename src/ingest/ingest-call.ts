/**
 * POST /v1/calls as a story, DESIGN 1b steps 5–14: transcript → replay → rep → same transcript → speaker →
 * call type → scorecard → recording → one short transaction → result. The first failing step answers, and a
 * rejected request writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { ApiCaller } from '../auth/caller.js';
import type { Store } from '../store/db.js';
import type { Call } from '../store/schema.js';
import { findCallByExternalId, findCallByFingerprint } from '../store/calls.repo.js';
import { storeIngestedCall } from '../store/ingest.repo.js';
import { findRecording } from '../store/recordings.repo.js';
import { checkTranscriptLimits, parseTranscript, speakerLabels, type Turn } from './transcript.js';
import { digestInThread } from './digest-thread.js';
import { confirmRecordingUpload } from './confirm-recording.js';
import type { RecordingStore } from '../recordings/store.js';
import { resolveRep } from './resolve-rep.js';
import { resolveSpeaker, type SpeakerInferrer, type SpeakerResolution } from './resolve-speaker.js';
import { selectScorecard } from './select-scorecard.js';
import { callTitle } from './call-title.js';
import { parseDateTime } from './check-request.js';
import type { CreateCallRequest } from '../http/v1/schemas.js';

export interface IngestDeps {
  store: Store;
  inferrer: SpeakerInferrer;
  /** Picks a call type when the caller sent none; null falls back to discovery. */
  classify: (turns: Turn[], repLabel: string) => string | null;
  /** Server deadline for inference and classification together, below the client's 60 s timeout. */
  inferenceDeadlineMs: number;
  /** Where recordings are stored: step 12 checks a pending recording there (size must equal size_bytes). */
  recordings?: RecordingStore;
}

export interface IngestOutcome {
  call: Call;
  created: boolean;
}

/** Step 6 and the answer to a lost race: the same (provider, external_id) is a replay or a conflict. */
function replayOrConflict(existing: Call, fingerprint: string): IngestOutcome {
  if (existing.fingerprint !== fingerprint) {
    throw new AppError(
      'external_id_conflict',
      'A call with this provider and external_id already exists with a different transcript; calls cannot be updated, use a new external_id.',
    );
  }
  return { call: existing, created: false };
}

async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AppError(
            'inference_unavailable',
            'Speaker inference timed out; retry later or send transcript.rep_speaker.',
            { retryAfter: 30 },
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export async function ingestCall(
  deps: IngestDeps,
  caller: ApiCaller,
  request: CreateCallRequest,
): Promise<IngestOutcome> {
  const { store } = deps;
  const provider = request.provider.toLowerCase();
  const externalId = request.external_id;

  // 5. Transcript: parse and merge, then limits, then the fingerprint (with the JSON stored in step 13).
  const turns = parseTranscript(request.transcript);
  checkTranscriptLimits(turns);
  const { fingerprint, turnsJson } = await digestInThread(turns);

  // 6. Replay, before any rep check: a replay succeeds even if the rep has since left.
  const existing = await findCallByExternalId(store.db, caller.accountId, provider, externalId);
  if (existing) return replayOrConflict(existing, fingerprint);

  // 7. Rep.
  const rep = await resolveRep(store, caller, request.rep);

  // 8. The same transcript for the same rep under another external_id is the same call.
  const duplicate = await findCallByFingerprint(store.db, caller.accountId, rep.userId, fingerprint);
  if (duplicate) return { call: duplicate, created: false };

  // 9–10. Speaker, then call type, under one deadline.
  const { speaker, callType } = await withDeadline(
    (async () => {
      const speaker: SpeakerResolution = await resolveSpeaker({
        turns,
        repSpeaker: request.transcript.rep_speaker,
        repNames: [request.rep?.email, request.rep?.name, rep.name, rep.email],
        participants: request.participants,
        infer: deps.inferrer,
      });
      const callType = request.call_type ?? deps.classify(turns, speaker.label) ?? 'discovery';
      return { speaker, callType };
    })(),
    deps.inferenceDeadlineMs,
  );

  // 11. Scorecard.
  const scorecardId = await selectScorecard(store, {
    accountId: caller.accountId,
    teamId: rep.teamId,
    callType,
    scorecardId: request.scorecard_id,
  });

  // 12. Recording: it must exist in the account, be uploaded and be free. A pending one is looked up in the
  // store first: with S3 the client uploads straight to the bucket, so this is where the service learns of it.
  const recordingId = request.recording_id ?? null;
  if (recordingId) {
    let recording = await findRecording(store.db, caller.accountId, recordingId);
    if (recording?.status === 'pending' && deps.recordings)
      recording = await confirmRecordingUpload(store, deps.recordings, recording);
    if (!recording || recording.status !== 'uploaded') {
      const message = 'No uploaded recording with this id exists; upload the file to upload_url first.';
      throw new AppError('recording_not_found', message, { fields: [{ field: 'recording_id', message }] });
    }
    if (recording.call_id) throw recordingAlreadyUsed();
  }

  // 13. One short transaction; the unique keys decide races, and the loser re-reads the winner.
  const now = new Date().toISOString();
  const occurredAt = new Date(parseDateTime(request.occurred_at)).toISOString();
  const call: Call = {
    id: randomUUID(),
    account_id: caller.accountId,
    team_id: rep.teamId,
    rep_user_id: rep.userId,
    ingest_rep_user_id: rep.userId,
    provider,
    external_id: externalId,
    fingerprint,
    status: 'queued',
    skip_reason: null,
    call_type: callType,
    scorecard_id: scorecardId,
    title: callTitle(request.participants, speakerLabels(turns), speaker.label, occurredAt),
    rep_speaker: speaker.label,
    speaker_source: speaker.source,
    rep_source: rep.repSource,
    speaker_confidence: speaker.confidence,
    recording_id: recordingId,
    api_key_id: caller.keyId,
    occurred_at: occurredAt,
    created_at: now,
    updated_at: now,
    current_score: null,
  };
  const outcome = await storeIngestedCall(store, {
    call,
    transcript: {
      call_id: call.id,
      turns: turnsJson,
      participants: request.participants ? JSON.stringify(request.participants) : null,
      metadata: request.metadata ? JSON.stringify(request.metadata) : null,
      speaker_signals: speaker.signals ? JSON.stringify(speaker.signals) : null,
    },
    recordingId,
    now,
  });
  if (outcome === 'recording_taken') throw recordingAlreadyUsed();
  if (outcome === 'inserted') return { call, created: true };

  const winner = await findCallByExternalId(store.db, caller.accountId, provider, externalId);
  if (winner) return replayOrConflict(winner, fingerprint);
  const sameTranscript = await findCallByFingerprint(store.db, caller.accountId, rep.userId, fingerprint);
  if (sameTranscript) return { call: sameTranscript, created: false };
  throw new Error('call insert conflicted but no conflicting call was found');
}

function recordingAlreadyUsed(): AppError {
  const message = 'This recording is already attached to another call.';
  return new AppError('recording_already_used', message, { fields: [{ field: 'recording_id', message }] });
}
