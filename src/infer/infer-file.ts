/**
 * `callscore infer FILE.jsonl`: rep-speaker inference and call-type classification over a file of calls, through
 * the same code the API uses (transcript parsing and merging, the speaker ladder, the classifier), so an
 * evaluation measures the product. One JSON line per input line on stdout; progress on stderr.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { AppError } from '../errors.js';
import { classifyCall } from '../ingest/classify-call.js';
import { resolveSpeaker, type ParticipantInput, type SpeakerInferrer } from '../ingest/resolve-speaker.js';
import { checkTranscriptLimits, parseTranscript, type TranscriptInput } from '../ingest/transcript.js';

/**
 * One input line: the shared data's record shape (`id`, `segments`), optionally `text`, `participants`, `rep`.
 * A `rep_speaker` field is ignored on purpose: in labelled data sets it is the answer being evaluated.
 */
interface InferInput {
  id?: unknown;
  segments?: TranscriptInput['segments'];
  text?: string | null;
  participants?: ParticipantInput[] | null;
  rep?: { email?: string | null; name?: string | null } | null;
}

export interface InferOutput {
  id: unknown;
  rep_speaker: string | null;
  confidence: number | null;
  call_type: string | null;
  /** Set when the line could not be processed, or the speaker was not decided (the API's error code). */
  error?: string;
}

/** Infers one call. Abstention is `rep_speaker: null` with the code the API would answer. */
export async function inferOne(record: InferInput, inferrer: SpeakerInferrer): Promise<InferOutput> {
  const id = record.id ?? null;
  try {
    const turns = parseTranscript({ segments: record.segments ?? null, text: record.text ?? null });
    checkTranscriptLimits(turns);
    try {
      const speaker = await resolveSpeaker({
        turns,
        repSpeaker: null,
        repNames: [record.rep?.email, record.rep?.name],
        participants: record.participants,
        infer: inferrer,
      });
      const type = classifyCall(turns, speaker.label);
      // A name match decides outright: full confidence.
      return {
        id,
        rep_speaker: speaker.label,
        confidence: speaker.confidence ?? 1,
        call_type: type.callType,
      };
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'rep_speaker_undetermined') throw error;
      return {
        id,
        rep_speaker: null,
        confidence: null,
        call_type: classifyCall(turns, null).callType,
        error: error.code,
      };
    }
  } catch (error) {
    if (error instanceof AppError)
      return { id, rep_speaker: null, confidence: null, call_type: null, error: error.code };
    throw error;
  }
}

export async function inferFile(
  file: string,
  inferrer: SpeakerInferrer,
  out: NodeJS.WritableStream = process.stdout,
  progress: NodeJS.WritableStream = process.stderr,
): Promise<{ lines: number; answered: number; abstained: number; failed: number }> {
  const counts = { lines: 0, answered: 0, abstained: 0, failed: 0 };
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    counts.lines++;
    let result: InferOutput;
    try {
      result = await inferOne(JSON.parse(line) as InferInput, inferrer);
    } catch {
      result = { id: null, rep_speaker: null, confidence: null, call_type: null, error: 'invalid_json' };
    }
    if (result.rep_speaker) counts.answered++;
    else if (result.error === 'rep_speaker_undetermined') counts.abstained++;
    else counts.failed++;
    out.write(`${JSON.stringify(result)}\n`);
    if (counts.lines % 100 === 0) progress.write(`  ${counts.lines} calls…\n`);
  }
  progress.write(
    `Inferred ${counts.lines} calls: ${counts.answered} answered, ${counts.abstained} abstained, ${counts.failed} failed.\n`,
  );
  return counts;
}
