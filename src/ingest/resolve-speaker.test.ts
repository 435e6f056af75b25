import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import {
  abstainingInferrer,
  resolveSpeaker,
  type ParticipantInput,
  type SpeakerInferrer,
} from './resolve-speaker.js';
import type { Turn } from './transcript.js';

const turn = (speaker: string, text = 'words'): Turn => ({ speaker, text, start_ms: null });
const twoSpeakers = [turn('Jane Doe'), turn('Bob Smith'), turn('Jane Doe')];

/** An inferrer that records what it was asked and answers `label` (null abstains). */
function fixedInferrer(label: string | null) {
  const calls: { turns: Turn[]; excluded: string[] }[] = [];
  const infer: SpeakerInferrer = async (turns, { excludedLabels }) => {
    calls.push({ turns, excluded: [...excludedLabels] });
    return label === null ? null : { label, confidence: 0.8, signals: { questions: 3 } };
  };
  return { infer, calls };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

function resolve(overrides: Partial<Parameters<typeof resolveSpeaker>[0]> = {}) {
  return resolveSpeaker({
    turns: twoSpeakers,
    repSpeaker: null,
    repNames: [],
    participants: null,
    infer: abstainingInferrer,
    ...overrides,
  });
}

describe('(a) transcript.rep_speaker', () => {
  it('matches ignoring case and extra spaces, returning the transcript’s own label', async () => {
    await expect(resolve({ repSpeaker: '  bob   SMITH ' })).resolves.toEqual({
      label: 'Bob Smith',
      source: 'rep_speaker',
      confidence: null,
      signals: null,
    });
  });

  it('wins over a name match and never calls the inferrer', async () => {
    const { infer, calls } = fixedInferrer('Jane Doe');
    const result = await resolve({ repSpeaker: 'Bob Smith', repNames: ['Jane Doe'], infer });
    expect(result.label).toBe('Bob Smith');
    expect(calls).toHaveLength(0);
  });

  it('answers rep_speaker_not_found naming transcript.rep_speaker when no label matches', async () => {
    const error = await rejection(resolve({ repSpeaker: 'Janet' }));
    expect(error.code).toBe('rep_speaker_not_found');
    expect(error.fields?.map((f) => f.field)).toEqual(['transcript.rep_speaker']);
  });

  it('answers rep_speaker_ambiguous when two labels normalise alike', async () => {
    const turns = [turn('Jane Doe'), turn('Bob'), turn('jane  doe')];
    const error = await rejection(resolve({ turns, repSpeaker: 'JANE DOE' }));
    expect(error.code).toBe('rep_speaker_ambiguous');
    expect(error.fields?.map((f) => f.field)).toEqual(['transcript.rep_speaker']);
  });

  it('is not ambiguous when the same label appears in several turns', async () => {
    await expect(resolve({ repSpeaker: 'jane doe' })).resolves.toMatchObject({ label: 'Jane Doe' });
  });

  it('names a blank label too, which names and emails never match', async () => {
    const turns = [turn('   '), turn('Bob Smith'), turn('   ')];
    await expect(resolve({ turns, repSpeaker: ' ' })).resolves.toMatchObject({
      label: '   ',
      source: 'rep_speaker',
    });
  });
});

describe('(b) name and email match', () => {
  it('matches the rep’s name from repNames, ignoring nulls', async () => {
    await expect(resolve({ repNames: [null, 'jane@acme.com', undefined, 'JANE  doe'] })).resolves.toEqual({
      label: 'Jane Doe',
      source: 'name_match',
      confidence: null,
      signals: null,
    });
  });

  it('matches an email used as a label', async () => {
    const turns = [turn('Bob'), turn('jane@acme.com')];
    await expect(resolve({ turns, repNames: ['Jane@Acme.com'] })).resolves.toMatchObject({
      label: 'jane@acme.com',
      source: 'name_match',
    });
  });

  it.each<[string, ParticipantInput]>([
    ['name', { role: 'rep', name: 'Bob Smith' }],
    ['email', { role: 'rep', name: 'Robert', email: 'bob smith' }],
    ['speaker_label', { role: 'rep', name: 'Robert', speaker_label: 'bob smith' }],
  ])('matches a rep participant’s %s', async (_, participant) => {
    await expect(resolve({ participants: [participant] })).resolves.toMatchObject({
      label: 'Bob Smith',
      source: 'name_match',
    });
  });

  it('does not use customer participants as rep names', async () => {
    const error = await rejection(resolve({ participants: [{ role: 'customer', name: 'Bob Smith' }] }));
    expect(error.code).toBe('rep_speaker_undetermined');
  });

  it('goes on to inference when names match several labels', async () => {
    const { infer, calls } = fixedInferrer('Bob Smith');
    const result = await resolve({ repNames: ['Jane Doe', 'Bob Smith'], infer });
    expect(result).toMatchObject({ label: 'Bob Smith', source: 'inferred' });
    expect(calls).toHaveLength(1);
  });

  it('does not decide on a label that a customer participant also claims', async () => {
    const { infer, calls } = fixedInferrer(null);
    const participants: ParticipantInput[] = [{ role: 'customer', name: 'Jane Doe' }];
    const error = await rejection(resolve({ repNames: ['Jane Doe'], participants, infer }));
    expect(error.code).toBe('rep_speaker_undetermined');
    expect(calls[0]?.excluded).toEqual(['Jane Doe']);
  });

  it('skips an empty candidate rather than matching a blank label', async () => {
    const turns = [turn(' '), turn('Bob')];
    const error = await rejection(resolve({ turns, repNames: ['  '] }));
    expect(error.code).toBe('rep_speaker_undetermined');
  });
});

describe('(c) inference', () => {
  it('never falls back to the first speaker: no match and an abstaining inferrer is undetermined', async () => {
    const error = await rejection(resolve());
    expect(error.code).toBe('rep_speaker_undetermined');
    expect(error.message).toBe('Could not determine which speaker is the rep; send transcript.rep_speaker.');
    expect(error.fields?.map((f) => f.field)).toEqual(['transcript.rep_speaker']);
  });

  it('is undetermined for a single unmatched speaker too', async () => {
    expect((await rejection(resolve({ turns: [turn('Jane Doe')] }))).code).toBe('rep_speaker_undetermined');
  });

  it('returns the inferred label with its confidence and signals', async () => {
    const { infer, calls } = fixedInferrer('Bob Smith');
    await expect(resolve({ infer })).resolves.toEqual({
      label: 'Bob Smith',
      source: 'inferred',
      confidence: 0.8,
      signals: { questions: 3 },
    });
    expect(calls[0]?.turns).toBe(twoSpeakers);
  });

  it('passes the labels of customer and other participants as excluded, matched by name, email or label', async () => {
    const turns = [turn('Rep'), turn('ANN'), turn('bob@x.io'), turn('Guest 1'), turn('Carol')];
    const participants: ParticipantInput[] = [
      { role: 'customer', name: 'Ann' },
      { role: 'other', name: 'Bob', email: 'BOB@x.io' },
      { role: 'customer', name: 'Dee', speaker_label: 'guest  1' },
      { role: 'rep', name: 'Carol Nobody' },
    ];
    const { infer, calls } = fixedInferrer('Rep');
    await expect(resolve({ turns, participants, infer })).resolves.toMatchObject({
      label: 'Rep',
      source: 'inferred',
    });
    expect(calls[0]?.excluded).toEqual(['ANN', 'bob@x.io', 'Guest 1']);
  });

  it('treats an excluded label from the inferrer as an abstention', async () => {
    const { infer } = fixedInferrer('Bob Smith');
    const participants: ParticipantInput[] = [{ role: 'customer', name: 'Bob Smith' }];
    expect((await rejection(resolve({ participants, infer }))).code).toBe('rep_speaker_undetermined');
  });

  it('treats a label that is not in the transcript as an abstention', async () => {
    const { infer } = fixedInferrer('jane doe');
    expect((await rejection(resolve({ infer }))).code).toBe('rep_speaker_undetermined');
  });

  it('does not call the inferrer when every label is excluded', async () => {
    const { infer, calls } = fixedInferrer('Jane Doe');
    const participants: ParticipantInput[] = [
      { role: 'customer', name: 'Jane Doe' },
      { role: 'other', name: 'Bob Smith' },
    ];
    expect((await rejection(resolve({ participants, infer }))).code).toBe('rep_speaker_undetermined');
    expect(calls).toHaveLength(0);
  });

  it('lets inferrer errors through unchanged', async () => {
    const failure = new AppError('inference_unavailable', 'model down', { retryAfter: 30 });
    const infer: SpeakerInferrer = async () => {
      throw failure;
    };
    await expect(resolve({ infer })).rejects.toBe(failure);
  });
});

describe('abstainingInferrer', () => {
  it('always abstains', async () => {
    await expect(abstainingInferrer(twoSpeakers, { excludedLabels: new Set() })).resolves.toBeNull();
  });
});
