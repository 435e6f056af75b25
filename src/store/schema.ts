/**
 * Table interfaces for Kysely. One schema for SQLite and PostgreSQL, so column types are the common
 * denominator: ids are UUID text, timestamps are ISO-8601 UTC text (they sort as strings), JSON is text,
 * flags are nullable timestamps or small integers.
 */
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  /** active | suspended | payment_required */
  status: string;
  /** JSON array of feature names, e.g. ["call_scoring_api"]. */
  features: string;
  created_at: string;
}

export interface TeamsTable {
  id: string;
  account_id: string;
  name: string;
  deleted_at: string | null;
  created_at: string;
}

export interface UsersTable {
  id: string;
  account_id: string;
  /** Stored lower-cased: emails compare case-insensitively. */
  email: string;
  name: string;
  /** scrypt hash, null until a password is set. */
  password_hash: string | null;
  /** admin | manager | rep */
  role: string;
  /** active | inactive | pending (never signed in) */
  status: string;
  last_sign_in_at: string | null;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  team_id: string;
  created_by: string;
  /** Hex SHA-256 of the whole secret; the secret itself is never stored. */
  digest: string;
  /** First characters of the secret, to recognise a key in the web app. */
  prefix: string;
  name: string;
  /** JSON array of scopes. */
  scopes: string;
  revoked_at: string | null;
  /** Set when the key was rotated: the old secret keeps working until then. */
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface ScorecardsTable {
  id: string;
  account_id: string;
  team_id: string;
  name: string;
  /** draft | published | archived */
  status: string;
  /** Latest version number; editing criteria adds a version. */
  current_version: number;
  created_at: string;
  updated_at: string;
}

export interface ScorecardVersionsTable {
  scorecard_id: string;
  version: number;
  /** JSON array of criteria (DESIGN section 5). */
  criteria: string;
  created_at: string;
}

export interface TeamSettingsTable {
  team_id: string;
  default_scorecard_id: string | null;
}

export interface TeamScorecardRulesTable {
  team_id: string;
  call_type: string;
  scorecard_id: string;
}

export interface CallsTable {
  id: string;
  account_id: string;
  team_id: string;
  /** Current owner; a manager may reassign. */
  rep_user_id: string;
  /** The owner at ingestion, fixed at insert: the same-transcript key never moves with a reassignment. */
  ingest_rep_user_id: string;
  provider: string | null;
  external_id: string | null;
  /** SHA-256 over the merged turns (labels and normalised text). */
  fingerprint: string;
  /** queued | scoring | scored | skipped | failed */
  status: string;
  skip_reason: string | null;
  call_type: string | null;
  scorecard_id: string | null;
  title: string;
  rep_speaker: string;
  /** rep_speaker | name_match | inferred; null for calls made in the web app. */
  speaker_source: string | null;
  /** rep_email | api_key_owner; null for calls made in the web app. */
  rep_source: string | null;
  speaker_confidence: number | null;
  recording_id: string | null;
  api_key_id: string | null;
  occurred_at: string | null;
  created_at: string;
  updated_at: string;
  /**
   * The current result's score (0..100), kept by `recordResult` in the transaction that makes a result current;
   * null before the first scoring and while the current result is skipped (migration 2026-12-02; optional on
   * insert: a new call has no result).
   */
  current_score: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Large, write-once call content, kept apart so status and lease updates never rewrite it. */
export interface CallTranscriptsTable {
  call_id: string;
  /** JSON array of merged turns: {speaker, text, start_ms}. */
  turns: string;
  /** JSON array of participants or null. */
  participants: string | null;
  /** Caller's metadata JSON or null; never shown, never scored. */
  metadata: string | null;
  /** Signals that decided the rep speaker (JSON) when it was inferred. */
  speaker_signals: string | null;
}

export interface ScoringJobsTable {
  id: string;
  call_id: string;
  account_id: string;
  /** queued | running | done */
  status: string;
  /** ISO time the current lease ends; null when not leased. */
  lease_until: string | null;
  /** Incremented on every claim; a worker writes only while its token is current. */
  fencing_token: number;
  attempts: number;
  available_at: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** Why the job exists: ingest | rerun | reassign | … (added by the scoring migration; optional on insert). */
  reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RecordingsTable {
  id: string;
  account_id: string;
  api_key_id: string | null;
  content_type: string;
  size_bytes: number;
  filename: string | null;
  storage_key: string;
  /** pending (URL issued) | uploaded */
  status: string;
  call_id: string | null;
  expires_at: string;
  uploaded_at: string | null;
  created_at: string;
}

export interface Database {
  accounts: AccountsTable;
  teams: TeamsTable;
  users: UsersTable;
  team_members: TeamMembersTable;
  api_keys: ApiKeysTable;
  scorecards: ScorecardsTable;
  scorecard_versions: ScorecardVersionsTable;
  team_settings: TeamSettingsTable;
  team_scorecard_rules: TeamScorecardRulesTable;
  calls: CallsTable;
  call_transcripts: CallTranscriptsTable;
  scoring_jobs: ScoringJobsTable;
  recordings: RecordingsTable;
  score_results: ScoreResultsTable;
  scoring_fairness: ScoringFairnessTable;
  sessions: SessionsTable;
  call_comments: CallCommentsTable;
  criterion_overrides: CriterionOverridesTable;
  call_actions: CallActionsTable;
  user_tokens: UserTokensTable;
}

/** A signed-in browser (web application). The cookie holds a random token; only its SHA-256 is stored. */
export interface SessionsTable {
  /** Hex SHA-256 of the session cookie's token. */
  id: string;
  user_id: string;
  account_id: string;
  /** Synchronizer token every form of this session carries. */
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  /** Sliding idle expiry (never later than absolute_expires_at). */
  expires_at: string;
  absolute_expires_at: string;
}

/** One scoring outcome of a call; a re-score adds a row and flips the old one's is_current to 0. */
export interface ScoreResultsTable {
  id: string;
  call_id: string;
  /** The scorecard chosen at ingestion (null when the call had none). */
  scorecard_id: string | null;
  /** Its version at scoring time; null when it was gone. */
  scorecard_version: number | null;
  /** rules | llm */
  scorer: string;
  /** 0..100; null when skipped. */
  score: number | null;
  skip_reason: string | null;
  /** JSON array of per-criterion results with evidence ([] when skipped). */
  criteria: string;
  /** 1 for the call's current result (at most one, by a unique partial index), else 0. */
  is_current: number;
  created_at: string;
}

/** When each account last had a job claimed: claims go to the account served longest ago. */
export interface ScoringFairnessTable {
  account_id: string;
  /** ISO time of the last claim; '' when never claimed. */
  last_claimed_at: string;
}

export type Account = Selectable<AccountsTable>;
export type Team = Selectable<TeamsTable>;
export type User = Selectable<UsersTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type Scorecard = Selectable<ScorecardsTable>;
export type Call = Selectable<CallsTable>;
export type NewCall = Insertable<CallsTable>;
export type CallUpdate = Updateable<CallsTable>;
export type ScoringJob = Selectable<ScoringJobsTable>;
export type Recording = Selectable<RecordingsTable>;
export type ScoreResultRow = Selectable<ScoreResultsTable>;

/** A coaching note on a call (turn_index null) or on one of its turns. */
export interface CallCommentsTable {
  id: string;
  call_id: string;
  account_id: string;
  author_user_id: string;
  turn_index: number | null;
  body: string;
  created_at: string;
}

/** A manager's score for one criterion of one result, with a comment; the AI's score stays in score_results. */
export interface CriterionOverridesTable {
  id: string;
  call_id: string;
  result_id: string;
  criterion_key: string;
  /** 0..1 */
  score: number;
  comment: string;
  author_user_id: string;
  created_at: string;
}

/** Audit trail of managers' actions on a call: reassign | rerun | speaker (detail is JSON). */
export interface CallActionsTable {
  id: string;
  call_id: string;
  account_id: string;
  user_id: string;
  kind: string;
  detail: string;
  created_at: string;
}

/** A one-time link for an invitation (7 days) or a password reset (1 hour); only the token's SHA-256 is stored. */
export interface UserTokensTable {
  /** Hex SHA-256 of the link's random token. */
  id: string;
  account_id: string;
  user_id: string;
  /** invitation | password_reset */
  purpose: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
