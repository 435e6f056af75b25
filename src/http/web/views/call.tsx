/**
 * The call page: summary, score with each criterion and its evidence, and the transcript with the rep's turns
 * marked. Evidence quotes link to their turn (`#turn-N`). The caller's metadata is never shown (spec).
 */
import {
  callTypeLabel,
  formatCallScore,
  formatCriterionScore,
  formatDateTime,
  formatOffset,
  scoreBand,
  skipReasonLabel,
  speakerSourceLabel,
  statusLabel,
} from './format.js';
import { Layout, type LayoutProps } from './layout.js';
import {
  AdjustedScore,
  CoachingPanel,
  Notice,
  OverrideNote,
  RecordingPlayer,
  TurnNotes,
  TurnTime,
  type CoachingOverride,
  type CoachingView,
} from '../coaching/views.js';

export interface CallTurn {
  speaker: string;
  text: string;
  start_ms: number | null;
  isRep: boolean;
}

export interface CallEvidence {
  turn_index: number;
  start_ms: number | null;
  quote: string;
}

export interface CallCriterion {
  key: string;
  title: string;
  weight: number;
  score: number | null;
  na: boolean;
  evidence: CallEvidence[];
  rationale: string;
}

export interface CallResult {
  score: number | null;
  skip_reason: string | null;
  criteria: CallCriterion[];
  created_at: string;
  /** The scorecard version this result was scored against (editing a scorecard makes a new one). */
  scorecard_version: number | null;
}

export interface CallPageProps extends Pick<LayoutProps, 'staging' | 'user' | 'csrfToken'> {
  call: {
    id: string;
    title: string;
    provider: string | null;
    external_id: string | null;
    status: string;
    skip_reason: string | null;
    call_type: string | null;
    rep_speaker: string;
    speaker_source: string | null;
    speaker_confidence: number | null;
    /** Why inference named this speaker (format.ts speakerReason), when it did. */
    speaker_reason: string | null;
    /** Who corrected the rep speaker in the web application, if anyone did. */
    speaker_corrected_by: string | null;
    occurred_at: string | null;
    created_at: string;
    rep_name: string;
    rep_email: string;
    team_name: string;
    scorecard_name: string | null;
  };
  participants: { role: string; name: string; company: string | null }[];
  turns: CallTurn[];
  result: CallResult | null;
  /** Notes, overrides, recording and managers' actions (coaching/); absent renders the page without them. */
  coaching?: CoachingView;
}

function StatusNote(props: { status: string; skipReason: string | null }): JSX.Element {
  switch (props.status) {
    case 'queued':
      return <p>This call is queued for scoring. Scores usually appear within a few minutes.</p>;
    case 'scoring':
      return <p>This call is being scored now.</p>;
    case 'skipped':
      return (
        <p>
          Not scored. <span safe>{props.skipReason ? skipReasonLabel(props.skipReason) : ''}</span>
        </p>
      );
    case 'failed':
      return <p>Scoring did not finish. A manager can re-run it.</p>;
    default:
      return <p>No score is available for this call.</p>;
  }
}

function Criterion(props: {
  criterion: CallCriterion;
  turnCount: number;
  override?: CoachingOverride | undefined;
}): JSX.Element {
  const c = props.criterion;
  const headingId = `criterion-${c.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <li class="criterion" aria-labelledby={headingId}>
      <div class="criterion-head">
        <h3 id={headingId} safe>
          {c.title}
        </h3>
        {c.na || c.score === null ? (
          <span class="score score-na">N/A</span>
        ) : (
          <span class={`score score-${scoreBand(c.score * 100)}`}>{formatCriterionScore(c.score)}</span>
        )}
      </div>
      <p class="sub">
        Weight {String(c.weight)}
        {c.na ? ' · Not applicable to this call' : ''}
      </p>
      {c.rationale ? (
        <p class="rationale" safe>
          {c.rationale}
        </p>
      ) : (
        ''
      )}
      {c.evidence.length ? (
        <ul class="evidence" aria-label={`Evidence for ${c.title}`}>
          {c.evidence.map((e) =>
            Number.isInteger(e.turn_index) && e.turn_index >= 0 && e.turn_index < props.turnCount ? (
              <li>
                <a href={`#turn-${e.turn_index}`} class="quote">
                  <q safe>{e.quote}</q>
                  <span class="sub">
                    {' '}
                    — turn {String(e.turn_index + 1)}
                    {e.start_ms !== null ? ` at ${formatOffset(e.start_ms)}` : ''}
                  </span>
                </a>
              </li>
            ) : (
              <li>
                <q safe>{e.quote}</q>
              </li>
            ),
          )}
        </ul>
      ) : (
        ''
      )}
      <OverrideNote override={props.override} />
    </li>
  );
}

export function CallPage(props: CallPageProps): JSX.Element {
  const { call, result } = props;
  const scored = result !== null && result.score !== null;
  const confidence =
    call.speaker_confidence !== null ? ` (confidence ${Math.round(call.speaker_confidence * 100)}%)` : '';
  return (
    <Layout
      title={call.title}
      staging={props.staging}
      user={props.user}
      csrfToken={props.csrfToken}
      current="calls"
    >
      <p class="breadcrumb">
        <a href="/calls">← All calls</a>
      </p>
      <h1 safe>{call.title}</h1>
      <Notice coaching={props.coaching} />

      <dl class="summary">
        <div>
          <dt>Rep</dt>
          <dd>
            <span safe>{call.rep_name}</span> <span class="sub" safe>{`(${call.team_name})`}</span>
          </dd>
        </div>
        <div>
          <dt>Date</dt>
          <dd>
            <time datetime={call.occurred_at ?? call.created_at} safe>
              {formatDateTime(call.occurred_at ?? call.created_at)}
            </time>
          </dd>
        </div>
        <div>
          <dt>Call type</dt>
          <dd safe>{callTypeLabel(call.call_type)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span class={`status status-${/^[a-z_]+$/.test(call.status) ? call.status : 'other'}`} safe>
              {statusLabel(call.status)}
            </span>
          </dd>
        </div>
        {call.skip_reason ? (
          <div>
            <dt>Skip reason</dt>
            <dd safe>{skipReasonLabel(call.skip_reason)}</dd>
          </div>
        ) : (
          ''
        )}
        <div>
          <dt>Scorecard</dt>
          <dd>
            <span safe>{call.scorecard_name ?? '—'}</span>
            {result?.scorecard_version ? (
              <span class="sub" safe>{` (version ${result.scorecard_version})`}</span>
            ) : (
              ''
            )}
          </dd>
        </div>
        <div>
          <dt>Rep speaker</dt>
          <dd>
            <span safe>{call.rep_speaker}</span>{' '}
            <span class="sub" safe>
              {call.speaker_corrected_by
                ? `— corrected by ${call.speaker_corrected_by}`
                : `— ${speakerSourceLabel(call.speaker_source)}${confidence}`}
            </span>
            {call.speaker_reason ? (
              <span class="sub speaker-reason" safe>
                {call.speaker_reason}
              </span>
            ) : (
              ''
            )}
          </dd>
        </div>
        {call.provider ? (
          <div>
            <dt>Source</dt>
            <dd safe>{call.external_id ? `${call.provider} · ${call.external_id}` : call.provider}</dd>
          </div>
        ) : (
          ''
        )}
      </dl>

      <section aria-labelledby="score-heading" class="card">
        <h2 id="score-heading">Score</h2>
        {scored ? (
          <>
            <p class="call-score">
              <span class={`score score-big score-${scoreBand(result.score!)}`}>
                {formatCallScore(result.score!)}
              </span>
              <span class="sub"> out of 100</span>
            </p>
            <AdjustedScore coaching={props.coaching} />
            <ol class="criteria">
              {result.criteria.map((c) => (
                <Criterion
                  criterion={c}
                  turnCount={props.turns.length}
                  override={props.coaching?.overrides[c.key]}
                />
              ))}
            </ol>
          </>
        ) : (
          <>
            <StatusNote status={call.status} skipReason={call.skip_reason ?? result?.skip_reason ?? null} />
            {result?.criteria.length ? (
              <ol class="criteria">
                {result.criteria.map((c) => (
                  <Criterion criterion={c} turnCount={props.turns.length} />
                ))}
              </ol>
            ) : (
              ''
            )}
          </>
        )}
      </section>

      {props.participants.length ? (
        <section aria-labelledby="participants-heading">
          <h2 id="participants-heading">Participants</h2>
          <ul class="participants">
            {props.participants.map((p) => (
              <li>
                <span safe>{p.name}</span>{' '}
                <span class="sub" safe>
                  {`(${p.role}${p.company ? `, ${p.company}` : ''})`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : (
        ''
      )}

      <RecordingPlayer coaching={props.coaching} />

      <section aria-labelledby="transcript-heading">
        <h2 id="transcript-heading">Transcript</h2>
        <p class="sub">
          Turns by the rep (<span safe>{call.rep_speaker}</span>) are marked <span class="badge">Rep</span>.
          Only the rep's side is scored.
        </p>
        <ol class="transcript">
          {props.turns.map((turn, index) => (
            <li
              id={`turn-${index}`}
              class={turn.isRep ? 'turn turn-rep' : 'turn'}
              tabindex="-1"
              data-start-ms={turn.start_ms !== null ? String(turn.start_ms) : undefined}
            >
              <div class="turn-head">
                <span class="speaker" safe>
                  {turn.speaker}
                </span>
                {turn.isRep ? <span class="badge">Rep</span> : ''}
                {turn.start_ms !== null ? (
                  <TurnTime
                    text={formatOffset(turn.start_ms)}
                    ms={turn.start_ms}
                    seekable={!!props.coaching?.recording}
                    index={index}
                  />
                ) : (
                  ''
                )}
              </div>
              <p class="turn-text" safe>
                {turn.text}
              </p>
              <TurnNotes coaching={props.coaching} index={index} />
            </li>
          ))}
        </ol>
      </section>

      <CoachingPanel coaching={props.coaching} turns={props.turns} />
    </Layout>
  );
}
