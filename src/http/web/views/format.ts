/** Pure display helpers for the web views. */

export { CALL_TYPES } from '../../../ingest/classify-call.js';

export const STATUSES = ['queued', 'scoring', 'scored', 'skipped', 'failed'] as const;

const CALL_TYPE_LABELS: Record<string, string> = {
  discovery: 'Discovery',
  cold_call: 'Cold call',
  warm_call: 'Warm call',
  customer_success: 'Customer success',
  cross_selling: 'Cross-selling',
  evaluation: 'Evaluation',
  negotiation: 'Negotiation',
  gatekeeper: 'Gatekeeper',
  inbound_call: 'Inbound call',
  technical_discovery: 'Technical discovery',
};

const STATUS_LABELS: Record<string, string> = {
  queued: 'Queued',
  scoring: 'Scoring',
  scored: 'Scored',
  skipped: 'Skipped',
  failed: 'Failed',
};

const SKIP_REASONS: Record<string, string> = {
  too_short: 'Too short: the rep said too little to score.',
  no_scorecard: 'No scorecard: the scorecard chosen for this call is gone or no longer published.',
  empty_scorecard: 'Empty scorecard: the scorecard has no criteria.',
  all_criteria_na: 'Not applicable: no criterion of the scorecard applies to this call.',
};

const SPEAKER_SOURCES: Record<string, string> = {
  rep_speaker: 'named by the sender',
  name_match: "matched by the rep's name or email",
  inferred: 'inferred from the dialogue',
};

const ROLES: Record<string, string> = { admin: 'Admin', manager: 'Manager', rep: 'Rep' };

export const callTypeLabel = (value: string | null): string =>
  value ? (CALL_TYPE_LABELS[value] ?? value) : '—';
export const statusLabel = (value: string): string => STATUS_LABELS[value] ?? value;
export const skipReasonLabel = (value: string): string => SKIP_REASONS[value] ?? value;
export const roleLabel = (value: string): string => ROLES[value] ?? value;
export const speakerSourceLabel = (value: string | null): string =>
  value ? (SPEAKER_SOURCES[value] ?? value) : 'set in the web application';

/** "2026-11-20 15:04 UTC" (server-rendered, so one unambiguous zone). */
export function formatDateTime(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Offset in a call: "m:ss" or "h:mm:ss". */
export function formatOffset(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Call score 0..100 → "82"; criterion score 0..1 → "75%". */
export const formatCallScore = (score: number): string => String(Math.round(score));
export const formatCriterionScore = (score: number): string => `${Math.round(score * 100)}%`;

/** A score band for colour *and* text (never colour alone). */
export function scoreBand(score0to100: number): 'high' | 'mid' | 'low' {
  // Banded as shown: 74.6 shows as 75, which is high.
  const shown = Math.round(score0to100);
  if (shown >= 75) return 'high';
  if (shown >= 50) return 'mid';
  return 'low';
}

/**
 * Why inference named the rep speaker, in a line a coach can read, from the signals stored with the call
 * (infer-speaker.ts, model-inferrer.ts): the strongest cue phrases of the pick, or the word model's or the LLM's
 * rating. Null when the signals are absent or of an unknown shape.
 */
export function speakerReason(signals: unknown): string | null {
  if (typeof signals !== 'object' || signals === null) return null;
  const s = signals as Record<string, unknown>;
  const percent = (v: unknown): string => `${Math.round(Number(v) * 100)}%`;
  if (s.decided_by === 'word_model') {
    const overruled =
      typeof s.phrases_pick === 'string'
        ? ` The phrases pointed to ${s.phrases_pick}, whose words do not.`
        : s.phrases === 'undecidable'
          ? ' The phrases could not tell two possible reps apart.'
          : '';
    return `Their words sound like the rep's (${percent(s.rep_likelihood)}); no other speaker's do (at most ${percent(s.strongest_other)}).${overruled}`;
  }
  if (s.method === 'model') return `Chosen by the language model (${percent(s.confidence)}).`;
  const winner = s.winner as { cues?: Record<string, number> } | undefined;
  if (s.method !== 'heuristic' || typeof winner?.cues !== 'object') return null;
  const cues = Object.entries(winner.cues)
    .filter(([name]) => name.startsWith('seller.'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, n]) => `${name.slice('seller.'.length).replace(/_/g, ' ')}${n > 1 ? ` ×${n}` : ''}`);
  const lead = s.decided_by === 'runs_call' ? ' They run the call (agenda, next steps, terms).' : '';
  return cues.length > 0 ? `Seller-side phrases: ${cues.join(', ')}.${lead}` : lead.trim() || null;
}
