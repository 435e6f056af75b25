/**
 * Pure: which transcript speaker is the rep (spec rule 3, DESIGN section 4 "Speaker matching"). The ladder:
 * (a) transcript.rep_speaker → (b) the single label matching the rep's names and emails → (c) the inferrer.
 * All matching compares normalizeLabel forms. Nothing here ever falls back to the first speaker.
 */
import { AppError } from '../errors.js';
import { normalizeLabel, speakerLabels, type Turn } from './transcript.js';

export type SpeakerSource = 'rep_speaker' | 'name_match' | 'inferred';

export interface ParticipantInput {
  role: 'rep' | 'customer' | 'other';
  name: string;
  email?: string | null;
  company?: string | null;
  speaker_label?: string | null;
}

export interface InferenceResult {
  label: string;
  confidence: number;
  signals: Record<string, unknown>;
}

/** Port: the dialogue inferrer (heuristic or model). Returns null to abstain. May throw AppError('inference_unavailable'). */
export type SpeakerInferrer = (
  turns: Turn[],
  options: { excludedLabels: ReadonlySet<string> },
) => Promise<InferenceResult | null>;

export interface SpeakerResolution {
  label: string;
  source: SpeakerSource;
  confidence: number | null;
  signals: Record<string, unknown> | null;
}

/** Stands in until a real inferrer lands: always abstains, so (c) answers rep_speaker_undetermined. */
export const abstainingInferrer: SpeakerInferrer = async () => null;

const REP_SPEAKER_FIELD = 'transcript.rep_speaker';

function speakerError(
  code: 'rep_speaker_not_found' | 'rep_speaker_ambiguous' | 'rep_speaker_undetermined',
  message: string,
): AppError {
  return new AppError(code, message, { fields: [{ field: REP_SPEAKER_FIELD, message }] });
}

/** The participant's strings that may name its label. */
function participantNames(p: ParticipantInput): (string | null | undefined)[] {
  return [p.name, p.email, p.speaker_label];
}

/** Transcript labels whose normalised form equals one of the candidates'. */
function labelsMatching(
  labels: readonly string[],
  candidates: readonly (string | null | undefined)[],
): string[] {
  const wanted = new Set<string>();
  for (const c of candidates) {
    const normalized = c == null ? '' : normalizeLabel(c);
    if (normalized !== '') wanted.add(normalized);
  }
  return labels.filter((label) => wanted.has(normalizeLabel(label)));
}

export async function resolveSpeaker(input: {
  turns: Turn[];
  repSpeaker: string | null | undefined;
  repNames: (string | null | undefined)[];
  participants: ParticipantInput[] | null | undefined;
  infer: SpeakerInferrer;
}): Promise<SpeakerResolution> {
  const labels = speakerLabels(input.turns);
  const participants = input.participants ?? [];

  // (a) The caller named the rep's label: it must match exactly one label.
  if (input.repSpeaker != null) {
    // Compared as given, even blank: "   " is a label a transcript may use.
    const wanted = normalizeLabel(input.repSpeaker);
    const matches = labels.filter((label) => normalizeLabel(label) === wanted);
    if (matches.length === 0) {
      throw speakerError(
        'rep_speaker_not_found',
        'transcript.rep_speaker matches no speaker label in the transcript (case and extra spaces are ignored).',
      );
    }
    if (matches.length > 1) {
      throw speakerError(
        'rep_speaker_ambiguous',
        `transcript.rep_speaker matches ${matches.length} speaker labels that differ only in case or spacing; label the rep consistently.`,
      );
    }
    return { label: matches[0]!, source: 'rep_speaker', confidence: null, signals: null };
  }

  // Labels claimed by a customer or other participant: never the rep, whatever else matches them.
  const excludedLabels = new Set(
    labelsMatching(labels, participants.filter((p) => p.role !== 'rep').flatMap(participantNames)),
  );

  // (b) Names and emails: one matching label decides; none or several go on to inference.
  const repCandidates = [
    ...input.repNames,
    ...participants.filter((p) => p.role === 'rep').flatMap(participantNames),
  ];
  const nameMatches = labelsMatching(labels, repCandidates).filter((label) => !excludedLabels.has(label));
  if (nameMatches.length === 1) {
    return { label: nameMatches[0]!, source: 'name_match', confidence: null, signals: null };
  }

  // (c) Inference. An answer outside the transcript or among the excluded labels counts as an abstention.
  const undetermined = (): AppError =>
    speakerError(
      'rep_speaker_undetermined',
      'Could not determine which speaker is the rep; send transcript.rep_speaker.',
    );
  // No label left to pick: skip a possibly slow inferrer.
  if (labels.every((label) => excludedLabels.has(label))) throw undetermined();
  const inferred = await input.infer(input.turns, { excludedLabels });
  if (inferred === null || excludedLabels.has(inferred.label) || !labels.includes(inferred.label))
    throw undetermined();
  return {
    label: inferred.label,
    source: 'inferred',
    confidence: inferred.confidence,
    signals: inferred.signals,
  };
}
