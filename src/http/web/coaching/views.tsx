/**
 * Coaching pieces of the call page: notices, the recording player, overrides beside the AI's criterion scores,
 * notes under turns, and the forms (note; managers: reassign, re-run, rep speaker, override). Every user string
 * is escaped (`safe`); notices come from fixed tables keyed by code, never from the query string itself.
 */
import { formatCallScore, formatCriterionScore, formatDateTime, scoreBand } from '../views/format.js';

export const COACHING_SCRIPT_PATH = '/assets/coaching.js';

export interface CoachingComment {
  id: string;
  turn_index: number | null;
  body: string;
  created_at: string;
  author_name: string;
}

export interface CoachingOverride {
  score: number;
  comment: string;
  author_name: string;
  created_at: string;
}

export interface CoachingView {
  callId: string;
  csrfToken: string;
  canManage: boolean;
  status: string;
  notice: string | null;
  error: string | null;
  /** The id of the field the error is about (shown beside it), or null for an error of the whole page. */
  errorField: string | null;
  /** What was typed into a refused form, by field name, to show it again. */
  draft: Record<string, string>;
  comments: CoachingComment[];
  /** The override in force per criterion key (the latest). */
  overrides: Record<string, CoachingOverride>;
  /** The call score with the overrides applied, when any override exists. */
  adjustedScore: number | null;
  /** Criteria of the current result that can be overridden. */
  criteria: { key: string; title: string }[];
  /** Reassignment choices: value `userId:teamId`. */
  members: { value: string; label: string; current: boolean }[];
  labels: string[];
  repSpeaker: string;
  turnCount: number;
  actions: { kind: string; text: string; user_name: string; created_at: string }[];
  recording: { src: string; kind: 'audio' | 'video'; contentType: string } | null;
}

export const NOTICES: Record<string, string> = {
  commented: 'Note added.',
  reassigned: 'Call reassigned. It is queued for scoring with the new team’s scorecard.',
  rerun: 'The call is queued for scoring again.',
  speaker: 'Rep speaker corrected. The call is queued for scoring again.',
  override: 'Score override saved.',
  created: 'Call added. It is queued for scoring.',
};

export const ERRORS: Record<string, string> = {
  comment: 'Write a note of 1 to 2,000 characters.',
  turn: 'That turn is not part of this transcript.',
  member: 'Choose an active member of one of your teams.',
  no_scorecard:
    'The new rep’s team has no published scorecard for this call type. Set one on the Scorecards page first.',
  same_owner: 'The call already belongs to that rep in that team.',
  not_failed: 'Only a call whose scoring failed can be re-run.',
  label: 'Choose one of the transcript’s speaker labels.',
  same_label: 'That label is already the rep speaker.',
  override: 'Choose a criterion, enter a score from 0 to 100 and a comment of up to 2,000 characters.',
  no_result: 'This call has no score to override yet.',
};

/** Which field each error is about: the message is shown beside it and the field marked invalid. */
export const ERROR_FIELDS: Record<string, string> = {
  comment: 'note-body',
  turn: 'note-turn',
  member: 'reassign-member',
  no_scorecard: 'reassign-member',
  same_owner: 'reassign-member',
  label: 'speaker-label',
  same_label: 'speaker-label',
  override: 'override-score',
  no_result: 'override-criterion',
};

/** Attributes tying a field to its error, when the error is about it. */
function invalidIf(c: CoachingView, id: string): Record<string, string | boolean> {
  // autofocus takes the reader to the field of a refused form, which a re-shown page would have scrolled away.
  return c.errorField === id
    ? { 'aria-invalid': 'true', 'aria-describedby': `${id}-error`, autofocus: true }
    : {};
}

function FieldError(props: { c: CoachingView; id: string }): JSX.Element {
  return props.c.errorField === props.id && props.c.error ? (
    <p id={`${props.id}-error`} class="field-error" role="alert" safe>
      {props.c.error}
    </p>
  ) : (
    ''
  );
}

export function Notice(props: { coaching: CoachingView | undefined }): JSX.Element {
  const c = props.coaching;
  if (!c) return '';
  return (
    <>
      {c.notice ? (
        <p class="notice" role="status" safe>
          {c.notice}
        </p>
      ) : (
        ''
      )}
      {c.error && c.errorField === null ? (
        <p class="alert" role="alert" safe>
          {c.error}
        </p>
      ) : (
        ''
      )}
    </>
  );
}

export function AdjustedScore(props: { coaching: CoachingView | undefined }): JSX.Element {
  const score = props.coaching?.adjustedScore;
  if (score === null || score === undefined) return '';
  return (
    <p class="adjusted-score">
      Adjusted by a manager: <span class={`score score-${scoreBand(score)}`}>{formatCallScore(score)}</span>
      <span class="sub"> out of 100 (the AI score above is kept)</span>
    </p>
  );
}

export function OverrideNote(props: { override: CoachingOverride | undefined }): JSX.Element {
  const o = props.override;
  if (!o) return '';
  return (
    <div class="override">
      <p>
        <strong>Manager’s score:</strong>{' '}
        <span class={`score score-${scoreBand(o.score * 100)}`}>{formatCriterionScore(o.score)}</span>{' '}
        <span class="sub">
          by <span safe>{o.author_name}</span>,{' '}
          <time datetime={o.created_at} safe>
            {formatDateTime(o.created_at)}
          </time>
        </span>
      </p>
      <p class="override-comment" safe>
        {o.comment}
      </p>
    </div>
  );
}

/** `preload` is valid on <video> too; kitajs' typings only know it on <audio>. */
const PRELOAD: Record<string, string> = { preload: 'metadata' };

export function RecordingPlayer(props: { coaching: CoachingView | undefined }): JSX.Element {
  const r = props.coaching?.recording;
  if (!r) return '';
  return (
    <section aria-labelledby="recording-heading">
      <h2 id="recording-heading">Recording</h2>
      {r.kind === 'video' ? (
        <video id="call-player" class="player" controls src={r.src} {...PRELOAD}>
          <a href={r.src}>Download the recording</a>
        </video>
      ) : (
        <audio id="call-player" class="player" controls="" preload="metadata" src={r.src}>
          <a href={r.src}>Download the recording</a>
        </audio>
      )}
      <p class="sub">Select a turn’s time to play the recording from there.</p>
      <script src={COACHING_SCRIPT_PATH} defer></script>
    </section>
  );
}

/** A turn's offset: a seek button when the call has a recording, plain text otherwise. */
export function TurnTime(props: { text: string; ms: number; seekable: boolean; index: number }): JSX.Element {
  if (!props.seekable) return <span class="sub">{props.text}</span>;
  return (
    <button
      type="button"
      class="button-link seek"
      data-seek-ms={String(props.ms)}
      aria-label={`Play from ${props.text} (turn ${props.index + 1})`}
    >
      {props.text}
    </button>
  );
}

function CommentItem(props: { comment: CoachingComment }): JSX.Element {
  const k = props.comment;
  return (
    <li class="note">
      <p class="note-body" safe>
        {k.body}
      </p>
      <p class="sub">
        <span safe>{k.author_name}</span>,{' '}
        <time datetime={k.created_at} safe>
          {formatDateTime(k.created_at)}
        </time>
      </p>
    </li>
  );
}

export function TurnNotes(props: { coaching: CoachingView | undefined; index: number }): JSX.Element {
  const notes = props.coaching?.comments.filter((k) => k.turn_index === props.index) ?? [];
  if (!notes.length) return '';
  return (
    <ul class="notes turn-notes" aria-label={`Coaching notes on turn ${props.index + 1}`}>
      {notes.map((k) => (
        <CommentItem comment={k} />
      ))}
    </ul>
  );
}

function Csrf(props: { token: string }): JSX.Element {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

export function CoachingPanel(props: {
  coaching: CoachingView | undefined;
  turns: { speaker: string }[];
}): JSX.Element {
  const c = props.coaching;
  if (!c) return '';
  const base = `/calls/${c.callId}`;
  const callNotes = c.comments.filter((k) => k.turn_index === null);
  return (
    <>
      <section aria-labelledby="notes-heading" class="card coaching" id="notes">
        <h2 id="notes-heading">Coaching notes</h2>
        {callNotes.length ? (
          <ul class="notes">
            {callNotes.map((k) => (
              <CommentItem comment={k} />
            ))}
          </ul>
        ) : (
          <p class="sub">
            No notes on the whole call yet. Notes on a turn appear under it in the transcript.
          </p>
        )}
        <form method="post" action={`${base}/comments`} class="stack">
          <Csrf token={c.csrfToken} />
          <div class="field">
            <label for="note-turn">About</label>
            <select id="note-turn" name="turn" {...invalidIf(c, 'note-turn')}>
              <option value="">The whole call</option>
              {props.turns.map((t, i) => (
                <option value={String(i)} selected={c.draft.turn === String(i)} safe>
                  {`Turn ${i + 1} — ${t.speaker}`}
                </option>
              ))}
            </select>
            <FieldError c={c} id="note-turn" />
          </div>
          <div class="field">
            <label for="note-body">Note</label>
            <textarea
              id="note-body"
              name="body"
              rows="3"
              maxlength="2000"
              required
              {...invalidIf(c, 'note-body')}
              safe
            >
              {c.draft.body ?? ''}
            </textarea>
            <FieldError c={c} id="note-body" />
          </div>
          <div>
            <button type="submit" class="button primary">
              Add note
            </button>
          </div>
        </form>
      </section>

      {c.canManage ? (
        <section aria-labelledby="manage-heading" class="card coaching" id="manage">
          <h2 id="manage-heading">Manager actions</h2>
          <div class="manage-grid">
            <form method="post" action={`${base}/reassign`} class="stack">
              <Csrf token={c.csrfToken} />
              <h3>Reassign</h3>
              <div class="field">
                <label for="reassign-member">New rep</label>
                <select id="reassign-member" name="member" {...invalidIf(c, 'reassign-member')}>
                  {c.members.map((m) => (
                    <option value={m.value} selected={m.current} safe>
                      {m.label}
                    </option>
                  ))}
                </select>
                <FieldError c={c} id="reassign-member" />
              </div>
              <p class="sub">The call is scored again with the new team’s scorecard.</p>
              <div>
                <button type="submit" class="button">
                  Reassign call
                </button>
              </div>
            </form>

            <form method="post" action={`${base}/speaker`} class="stack">
              <Csrf token={c.csrfToken} />
              <h3>Rep speaker</h3>
              <div class="field">
                <label for="speaker-label">The rep is</label>
                <select id="speaker-label" name="label" {...invalidIf(c, 'speaker-label')}>
                  {c.labels.map((l) => (
                    <option value={l} selected={l === c.repSpeaker} safe>
                      {l}
                    </option>
                  ))}
                </select>
                <FieldError c={c} id="speaker-label" />
              </div>
              <p class="sub">Correcting the speaker scores the call again.</p>
              <div>
                <button type="submit" class="button">
                  Correct rep speaker
                </button>
              </div>
            </form>

            {c.criteria.length ? (
              <form method="post" action={`${base}/overrides`} class="stack">
                <Csrf token={c.csrfToken} />
                <h3>Override a score</h3>
                <div class="field">
                  <label for="override-criterion">Criterion</label>
                  <select id="override-criterion" name="criterion" {...invalidIf(c, 'override-criterion')}>
                    {c.criteria.map((k) => (
                      <option value={k.key} selected={c.draft.criterion === k.key} safe>
                        {k.title}
                      </option>
                    ))}
                  </select>
                  <FieldError c={c} id="override-criterion" />
                </div>
                <div class="field">
                  <label for="override-score">Score (0–100)</label>
                  <input
                    id="override-score"
                    name="score"
                    type="number"
                    min="0"
                    max="100"
                    step="1"
                    required
                    value={c.draft.score}
                    {...invalidIf(c, 'override-score')}
                  />
                  <FieldError c={c} id="override-score" />
                </div>
                <div class="field">
                  <label for="override-comment">Comment</label>
                  <textarea id="override-comment" name="comment" rows="2" maxlength="2000" required safe>
                    {c.draft.comment ?? ''}
                  </textarea>
                </div>
                <div>
                  <button type="submit" class="button">
                    Save override
                  </button>
                </div>
              </form>
            ) : (
              ''
            )}

            {c.status === 'failed' ? (
              <form method="post" action={`${base}/rerun`} class="stack">
                <Csrf token={c.csrfToken} />
                <h3>Re-run scoring</h3>
                <p class="sub">Scoring did not finish. Queue the call again.</p>
                <div>
                  <button type="submit" class="button">
                    Re-run scoring
                  </button>
                </div>
              </form>
            ) : (
              ''
            )}
          </div>
        </section>
      ) : (
        ''
      )}

      {c.actions.length ? (
        <section aria-labelledby="history-heading">
          <h2 id="history-heading">History</h2>
          <ul class="notes">
            {c.actions.map((a) => (
              <li class="note">
                <span safe>{a.text}</span>{' '}
                <span class="sub">
                  — <span safe>{a.user_name}</span>,{' '}
                  <time datetime={a.created_at} safe>
                    {formatDateTime(a.created_at)}
                  </time>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : (
        ''
      )}
    </>
  );
}

/** The progressive-enhancement script (served as a file: the CSP forbids inline scripts). */
export const COACHING_SCRIPT = `'use strict';
document.addEventListener('click', function (event) {
  var target = event.target instanceof Element ? event.target.closest('[data-seek-ms]') : null;
  if (!target) return;
  var player = document.getElementById('call-player');
  if (!player) return;
  var ms = Number(target.getAttribute('data-seek-ms'));
  if (!isFinite(ms) || ms < 0) return;
  event.preventDefault();
  player.currentTime = ms / 1000;
  var played = player.play();
  if (played && typeof played.catch === 'function') played.catch(function () {});
});
// Playback follows the transcript: the turn being spoken (latest start_ms at or before the playhead) is marked.
(function () {
  var player = document.getElementById('call-player');
  var turns = Array.prototype.slice.call(document.querySelectorAll('.transcript [data-start-ms]'));
  if (!player || !turns.length) return;
  var current = null;
  function follow() {
    var now = player.currentTime * 1000;
    var best = null;
    var bestStart = -1;
    turns.forEach(function (turn) {
      var start = Number(turn.getAttribute('data-start-ms'));
      if (isFinite(start) && start <= now && start >= bestStart) {
        best = turn;
        bestStart = start;
      }
    });
    if (best === current) return;
    if (current) {
      current.removeAttribute('aria-current');
      current.classList.remove('turn-playing');
    }
    current = best;
    if (current) {
      current.setAttribute('aria-current', 'true');
      current.classList.add('turn-playing');
    }
  }
  player.addEventListener('timeupdate', follow);
  player.addEventListener('seeked', follow);
})();
`;
