/** The model speaker inferrer against the fake OpenAI-compatible server (real HTTP on loopback). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../../test/helpers/fake-llm.js';
import { AppError } from '../errors.js';
import { createHeuristicInferrer } from './infer-speaker.js';
import { chainInferrers, createModelInferrer, type ModelInferrerOptions } from './model-inferrer.js';
import type { Turn } from './transcript.js';

const turn = (speaker: string, text: string): Turn => ({ speaker, text, start_ms: null });
const symmetric: Turn[] = [turn('Alex', 'Morning.'), turn('Jo', 'Morning.')];
const none = { excludedLabels: new Set<string>() };

describe('createModelInferrer', () => {
  let fake: FakeLlm;
  beforeEach(async () => {
    fake = await startFakeLlm();
  });
  afterEach(async () => fake.close());

  const inferrer = (options: Partial<ModelInferrerOptions> = {}) =>
    createModelInferrer({ baseUrl: fake.url, model: 'm', apiKey: 'sk', ...options });

  it('returns the label the model names, with its confidence and a model signal', async () => {
    fake.handle(() => ({ content: { rep_label: 'Jo', confidence: 0.87 } }));
    expect(await inferrer()(symmetric, none)).toEqual({
      label: 'Jo',
      confidence: 0.87,
      signals: { method: 'model', model: 'm', confidence: 0.87 },
    });
    const prompt = fake.requests[0]!.prompt;
    expect(prompt).toContain('Candidate labels: ["Alex","Jo"]');
    expect(prompt).toContain('"Alex": Morning.');
  });

  it('maps an answer differing only in case or spacing to the transcript label', async () => {
    fake.handle(() => ({ content: { rep_label: '  jo ', confidence: 0.9 } }));
    expect((await inferrer()(symmetric, none))?.label).toBe('Jo');
  });

  it('abstains on an excluded or unknown label, on null and below the confidence floor', async () => {
    const excluded = { excludedLabels: new Set(['Alex']) };
    for (const [content, options] of [
      [{ rep_label: 'Alex', confidence: 0.99 }, excluded],
      [{ rep_label: 'Sam', confidence: 0.99 }, none],
      [{ rep_label: null, confidence: 0.99 }, none],
      [{ rep_label: 'Jo', confidence: 0.59 }, none],
    ] as const) {
      fake.handle(() => ({ content }));
      expect(await inferrer()(symmetric, options)).toBeNull();
    }
    expect(fake.requests[0]!.prompt).toContain(
      'Known not to be the rep (customers or other participants): ["Alex"]',
    );
  });

  it('asks nothing when every label is excluded', async () => {
    expect(await inferrer()(symmetric, { excludedLabels: new Set(['Alex', 'Jo']) })).toBeNull();
    expect(fake.requests).toHaveLength(0);
  });

  it('throws inference_unavailable (Retry-After 30) on HTTP failure, timeout and an unusable answer', async () => {
    const replies = [
      { status: 500 },
      { status: 429 },
      { content: { rep_label: 'Jo' }, delayMs: 10_000 },
      { content: 'Jo' },
      { content: { rep_label: 3, confidence: 1 } },
    ];
    for (const reply of replies) {
      fake.handle(() => reply);
      const error = await inferrer({ timeoutMs: 50 })(symmetric, none).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, JSON.stringify(reply)).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'inference_unavailable', retryAfter: 30 });
    }
    // One request each: no retries inside the ingest deadline.
    expect(fake.requests).toHaveLength(replies.length);
  });

  it('sends at most maxPromptChars of transcript and says where it was cut', async () => {
    fake.handle(() => ({ content: { rep_label: null, confidence: 0 } }));
    const long = Array.from({ length: 50 }, (_, i) =>
      turn(i % 2 ? 'Jo' : 'Alex', `Turn number ${i} `.repeat(10)),
    );
    await inferrer({ maxPromptChars: 1_000 })(long, none);
    const prompt = fake.requests[0]!.prompt;
    expect(prompt).toContain('Turn number 0');
    expect(prompt).not.toContain('Turn number 49');
    expect(prompt).toMatch(/transcript cut after turn \d+ of 50/);
  });
});

describe('chainInferrers', () => {
  let fake: FakeLlm;
  beforeEach(async () => {
    fake = await startFakeLlm();
  });
  afterEach(async () => fake.close());

  it('uses the heuristic when it decides and the model only when it abstains', async () => {
    fake.handle(() => ({ content: { rep_label: 'Alex', confidence: 0.95 } }));
    const chain = chainInferrers(
      createHeuristicInferrer(),
      createModelInferrer({ baseUrl: fake.url, model: 'm' }),
    );
    const clear: Turn[] = [
      turn('Alex', 'Hello, Pat speaking.'),
      turn(
        'Jo',
        "Hi Pat, this is Jo from Acme. I know this is out of the blue; the reason I'm calling is your reporting. How do you handle it today?",
      ),
      turn('Alex', 'We use spreadsheets, honestly. It is slow and our finance team hates it.'),
      turn(
        'Jo',
        'That makes sense. Our platform helps teams like yours. Could we set up a call next week? I will send a calendar invite.',
      ),
    ];
    expect((await chain(clear, none))?.signals).toMatchObject({ method: 'heuristic' });
    expect((await chain(clear, none))?.label).toBe('Jo');
    expect(fake.requests).toHaveLength(0);
    expect(await chain(symmetric, none)).toMatchObject({ label: 'Alex', signals: { method: 'model' } });
    expect(fake.requests).toHaveLength(1);
  });
});
