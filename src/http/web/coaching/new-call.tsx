/** "Add a call": paste or upload a transcript, choose the rep, call type, date and an optional recording. */
import { CALL_TYPES, callTypeLabel } from '../views/format.js';
import { Layout, type LayoutProps } from '../views/layout.js';

export interface NewCallValues {
  transcript: string;
  rep: string;
  rep_speaker: string;
  call_type: string;
  occurred_at: string;
}

export type NewCallErrors = Partial<
  Record<'form' | 'transcript' | 'rep' | 'rep_speaker' | 'call_type' | 'occurred_at' | 'recording', string>
>;

export interface NewCallPageProps extends Pick<LayoutProps, 'staging' | 'user' | 'csrfToken'> {
  reps: { value: string; label: string }[];
  values: NewCallValues;
  errors: NewCallErrors;
  recordingsEnabled: boolean;
  acceptRecording: string;
}

function FieldError(props: { id: string; message: string | undefined }): JSX.Element {
  return props.message ? (
    <p id={props.id} class="field-error" safe>
      {props.message}
    </p>
  ) : (
    ''
  );
}

const described = (id: string, message: string | undefined, hint?: string) =>
  [message ? id : '', hint ?? ''].filter(Boolean).join(' ') || undefined;

export function NewCallPage(props: NewCallPageProps): JSX.Element {
  const { values, errors } = props;
  const count = Object.keys(errors).length;
  // A rep adding a call is its rep; a manager or admin chooses (the first name of a list is no default).
  const viewerReps =
    props.user?.role === 'rep' && values.rep.endsWith(':')
      ? props.reps.filter((r) => r.value.startsWith(values.rep))
      : [];
  const chosenRep =
    props.reps.find((r) => r.value === values.rep)?.value ??
    (viewerReps.length === 1 ? viewerReps[0]!.value : null);
  return (
    <Layout
      title="Add a call"
      staging={props.staging}
      user={props.user}
      csrfToken={props.csrfToken}
      current="calls"
    >
      <p class="breadcrumb">
        <a href="/calls">← All calls</a>
      </p>
      <h1>Add a call</h1>
      {count ? (
        <div class="alert" role="alert">
          <p safe>
            {errors.form ??
              `The call was not added: correct the ${count === 1 ? 'field' : 'fields'} marked below.`}
          </p>
        </div>
      ) : (
        ''
      )}
      <form method="post" action="/calls/new" enctype="multipart/form-data" class="stack card new-call">
        <input type="hidden" name="_csrf" value={props.csrfToken ?? ''} />
        <div class="field">
          <label for="nc-rep">Rep</label>
          <select
            id="nc-rep"
            name="rep"
            required
            aria-invalid={errors.rep ? 'true' : undefined}
            aria-describedby={described('nc-rep-error', errors.rep)}
          >
            {/* Never a silent first choice: a rep themselves (one team), else a prompt. */}
            <option value="" selected={chosenRep === null}>
              Choose a rep
            </option>
            {props.reps.map((r) => (
              <option value={r.value} selected={r.value === chosenRep} safe>
                {r.label}
              </option>
            ))}
          </select>
          <FieldError id="nc-rep-error" message={errors.rep} />
        </div>
        <div class="field">
          <label for="nc-transcript">Transcript</label>
          <p id="nc-transcript-hint" class="sub">
            One line per turn (“Ada Park: Thanks for joining.”), or a header line “[01:23] Ada Park” followed
            by what was said. Or upload a file below instead.
          </p>
          <textarea
            id="nc-transcript"
            name="transcript"
            rows="12"
            aria-invalid={errors.transcript ? 'true' : undefined}
            aria-describedby={described('nc-transcript-error', errors.transcript, 'nc-transcript-hint')}
            safe
          >
            {values.transcript}
          </textarea>
          <FieldError id="nc-transcript-error" message={errors.transcript} />
        </div>
        <div class="field">
          <label for="nc-file">Transcript file (.vtt, .srt or .txt)</label>
          <input
            id="nc-file"
            name="transcript_file"
            type="file"
            accept=".vtt,.srt,.txt,text/vtt,text/plain,application/x-subrip"
          />
        </div>
        <div class="field">
          <label for="nc-speaker">Rep’s speaker label (optional)</label>
          <p id="nc-speaker-hint" class="sub">
            The label the rep has in the transcript. Leave empty to match the rep’s name, or to infer it from
            the dialogue.
          </p>
          <input
            id="nc-speaker"
            name="rep_speaker"
            type="text"
            maxlength="200"
            value={values.rep_speaker}
            aria-invalid={errors.rep_speaker ? 'true' : undefined}
            aria-describedby={described('nc-speaker-error', errors.rep_speaker, 'nc-speaker-hint')}
          />
          <FieldError id="nc-speaker-error" message={errors.rep_speaker} />
        </div>
        <div class="field">
          <label for="nc-type">Call type</label>
          <select
            id="nc-type"
            name="call_type"
            aria-describedby={described('nc-type-error', errors.call_type)}
          >
            <option value="" selected={!values.call_type}>
              Detect from the transcript
            </option>
            {CALL_TYPES.map((t) => (
              <option value={t} selected={values.call_type === t} safe>
                {callTypeLabel(t)}
              </option>
            ))}
          </select>
          <FieldError id="nc-type-error" message={errors.call_type} />
        </div>
        <div class="field">
          <label for="nc-date">Date (UTC)</label>
          <input
            id="nc-date"
            name="occurred_at"
            type="datetime-local"
            value={values.occurred_at}
            aria-invalid={errors.occurred_at ? 'true' : undefined}
            aria-describedby={described('nc-date-error', errors.occurred_at)}
          />
          <FieldError id="nc-date-error" message={errors.occurred_at} />
        </div>
        {props.recordingsEnabled ? (
          <div class="field">
            <label for="nc-recording">Recording (optional)</label>
            <input
              id="nc-recording"
              name="recording"
              type="file"
              accept={props.acceptRecording}
              aria-describedby={described('nc-recording-error', errors.recording)}
            />
            <FieldError id="nc-recording-error" message={errors.recording} />
          </div>
        ) : (
          ''
        )}
        <div>
          <button type="submit" class="button primary">
            Add call
          </button>
        </div>
      </form>
    </Layout>
  );
}
