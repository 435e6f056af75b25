/**
 * The llm scorer and the model speaker inferrer against a fake OpenAI-compatible server on loopback (the one outside
 * service we fake): the scorer alone, through the scoring worker, and the inferrer through POST /v1/calls.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createScorer } from '../../src/container.js';
import { createLlmScorer, MAX_ANSWER_BYTES, type LlmScorerOptions } from '../../src/scoring/scorers/llm.js';
import type { ScoreInput } from '../../src/scoring/scorers/scorer.js';
import type { Criterion } from '../../src/scoring/criteria.js';
import { currentResult } from '../../src/store/results.repo.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { startFakeLlm, type FakeLlm, type FakeLlmRequest } from '../helpers/fake-llm.js';
import { callBody } from '../helpers/workspace.js';
import {
  addCall,
  callRow,
  clock,
  jobRow,
  longTurns,
  REP,
  seededStore,
  testWorker,
  type TestStore,
} from './fixtures.js';

const criteria: Criterion[] = [
  {
    key: 'next_steps',
    title: 'Agrees next steps',
    description: 'Ends with a dated next step.',
    weight: 2,
    check: { type: 'phrases', any: ['next step'] },
  },
  { key: 'asks', title: 'Asks discovery questions', weight: 1, check: { type: 'questions', min: 2 } },
  {
    key: 'pricing',
    title: 'Handles pricing',
    weight: 1,
    applies_when: { customer_mentions_any: ['price', 'budget'] },
    check: { type: 'phrases', any: ['value'] },
  },
];

// longTurns(): 0 customer, 1 rep, 2 customer, 3 rep, 4 customer, 5 rep, 6 rep ("As a next step I will send …", 31 s).
const input = (): ScoreInput => ({ turns: longTurns(), repLabel: REP, callType: 'discovery', criteria });

const item = (
  key: string,
  score: number,
  evidence: { turn_index: number; quote: string }[] = [],
  applicable = true,
) => ({
  key,
  applicable,
  score,
  rationale: `About ${key}.`,
  evidence,
});

const goodAnswer = () => ({
  criteria: [
    item('asks', 0.5, [
      { turn_index: 1, quote: 'Could you walk me through how your team handles renewals today, end to end?' },
    ]),
    item('next_steps', 0.9, [{ turn_index: 6, quote: 'As a next step I will send a calendar invite' }]),
  ],
});

/** The keys the request's response_format schema allows. */
const askedKeys = (request: FakeLlmRequest): string[] =>
  request.body.response_format.json_schema.schema.properties.criteria.items.properties.key.enum;

describe('llm scorer', () => {
  let fake: FakeLlm;
  beforeEach(async () => {
    fake = await startFakeLlm();
  });
  afterEach(async () => fake.close());

  const scorer = (options: Partial<LlmScorerOptions> = {}) =>
    createLlmScorer({
      baseUrl: fake.url,
      model: 'test-model',
      apiKey: 'sk-test-123',
      retryDelayMs: () => 0,
      ...options,
    });

  it('scores the applicable criteria from the model, in scorecard order, with verified evidence and start_ms', async () => {
    fake.handle(() => ({ content: goodAnswer() }));
    const results = await scorer().scoreCriteria(input());
    expect(results).toEqual([
      {
        key: 'next_steps',
        title: 'Agrees next steps',
        weight: 2,
        score: 0.9,
        na: false,
        rationale: 'About next_steps.',
        evidence: [{ turn_index: 6, start_ms: 31000, quote: 'As a next step I will send a calendar invite' }],
      },
      {
        key: 'asks',
        title: 'Asks discovery questions',
        weight: 1,
        score: 0.5,
        na: false,
        rationale: 'About asks.',
        evidence: [
          {
            turn_index: 1,
            start_ms: 4000,
            quote: 'Could you walk me through how your team handles renewals today, end to end?',
          },
        ],
      },
      expect.objectContaining({
        key: 'pricing',
        score: null,
        na: true,
        evidence: [],
        rationale: expect.stringContaining('customer did not mention'),
      }),
    ]);
  });

  it('sends the OpenAI request: model, Bearer key, strict json_schema, REP/CUSTOMER turns, only applicable criteria', async () => {
    fake.handle(() => ({ content: goodAnswer() }));
    await scorer().scoreCriteria(input());
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.headers.authorization).toBe('Bearer sk-test-123');
    expect(request!.body.model).toBe('test-model');
    expect(request!.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'scorecard_result', strict: true },
    });
    expect(askedKeys(request!)).toEqual(['next_steps', 'asks']);
    expect(request!.body.messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringMatching(/Only the sales rep is scored/),
    });
    expect(request!.prompt).toContain('[0] CUSTOMER: Hi, thanks for making time today.');
    expect(request!.prompt).toContain('[6] REP: As a next step I will send a calendar invite');
    expect(request!.prompt).toContain('title: Agrees next steps');
    expect(request!.prompt).toContain('description: Ends with a dated next step.');
    expect(request!.prompt).toContain('"type":"questions"');
    expect(request!.prompt).not.toContain('pricing');
    expect(request!.prompt).not.toContain('Carla Diaz');
  });

  it('sends no Authorization header without an API key', async () => {
    fake.handle(() => ({ content: goodAnswer() }));
    await scorer({ apiKey: undefined }).scoreCriteria(input());
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('drops a fabricated quote and keeps the verbatim one', async () => {
    fake.handle(() => ({
      content: {
        criteria: [
          item('next_steps', 1, [
            { turn_index: 6, quote: 'I will give you a 50% discount' },
            { turn_index: 6, quote: 'calendar invite for a demo' },
          ]),
          item('asks', 0.5),
        ],
      },
    }));
    const [nextSteps] = await scorer().scoreCriteria(input());
    expect(nextSteps!.evidence).toEqual([
      { turn_index: 6, start_ms: 31000, quote: 'calendar invite for a demo' },
    ]);
  });

  it('drops huge quotes without failing the criterion, and looks at a bounded number of them', async () => {
    const words = Array.from({ length: 8_000 }, (_, i) => `word${i}`).join(' ');
    fake.handle(() => ({
      content: {
        criteria: [
          item('next_steps', 1, [
            { turn_index: 6, quote: 'x'.repeat(40_000) },
            { turn_index: 6, quote: words },
            ...Array.from({ length: 20 }, () => ({ turn_index: 6, quote: 'not said at all' })),
            { turn_index: 6, quote: 'calendar invite for a demo' },
          ]),
          item('asks', 0.5),
        ],
      },
    }));
    const [nextSteps] = await scorer().scoreCriteria(input());
    // The verbatim quote came after the examined ones: nothing is kept, and nothing failed.
    expect(nextSteps).toMatchObject({ score: 1, evidence: [] });
  });

  it("drops a customer's words, a rep quote cited at a customer turn, and a turn index out of range", async () => {
    fake.handle(() => ({
      content: {
        criteria: [
          item('next_steps', 0.4, [
            { turn_index: 2, quote: 'Mostly spreadsheets, and we lose track of dates.' },
            { turn_index: 2, quote: 'As a next step' },
            { turn_index: 99, quote: 'As a next step' },
            { turn_index: -1, quote: 'As a next step' },
          ]),
          item('asks', 0.5),
        ],
      },
    }));
    const [nextSteps] = await scorer().scoreCriteria(input());
    expect(nextSteps).toMatchObject({ score: 0.4, evidence: [] });
  });

  it('stores the exact turn text for a quote whose whitespace or wrapping quotation marks differ', async () => {
    const turns = longTurns();
    turns[6] = { ...turns[6]!, text: 'As a next step\nI will  send a calendar invite.' };
    fake.handle(() => ({
      content: {
        criteria: [
          item('next_steps', 1, [{ turn_index: 6, quote: '"next step I will send a calendar invite"' }]),
          item('asks', 0),
        ],
      },
    }));
    const [nextSteps] = await scorer().scoreCriteria({ ...input(), turns });
    expect(nextSteps!.evidence).toEqual([
      { turn_index: 6, start_ms: 31000, quote: 'next step\nI will  send a calendar invite' },
    ]);
  });

  it('takes N/A from the model when it says a criterion does not apply', async () => {
    fake.handle(() => ({ content: { criteria: [item('next_steps', 0.7), item('asks', 0, [], false)] } }));
    const [, asks] = await scorer().scoreCriteria(input());
    expect(asks).toMatchObject({
      key: 'asks',
      na: true,
      score: null,
      evidence: [],
      rationale: 'About asks.',
    });
  });

  it('does not call the model when no criterion applies', async () => {
    const results = await scorer().scoreCriteria({ ...input(), criteria: [criteria[2]!] });
    expect(results).toEqual([expect.objectContaining({ key: 'pricing', na: true })]);
    expect(fake.requests).toHaveLength(0);
  });

  it('retries malformed JSON, then throws after the retries', async () => {
    fake.handle(() => ({ content: '{"criteria": [' }));
    await expect(scorer({ maxRetries: 2 }).scoreCriteria(input())).rejects.toThrow(
      /not valid JSON \(3 attempts\)/,
    );
    expect(fake.requests).toHaveLength(3);
  });

  it('recovers when a malformed answer is followed by a good one', async () => {
    fake.queue({ raw: '{not json' });
    fake.handle(() => ({ content: goodAnswer() }));
    const results = await scorer().scoreCriteria(input());
    expect(results[0]).toMatchObject({ key: 'next_steps', score: 0.9 });
    expect(fake.requests).toHaveLength(2);
  });

  it('retries HTTP 500 and 429 (with Retry-After), then succeeds', async () => {
    fake.queue({ status: 500 }, { status: 429, headers: { 'retry-after': '0' } });
    fake.handle(() => ({ content: goodAnswer() }));
    const results = await scorer().scoreCriteria(input());
    expect(results[1]).toMatchObject({ key: 'asks', score: 0.5 });
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a 401 (a configuration error)', async () => {
    fake.handle(() => ({ status: 401 }));
    await expect(scorer().scoreCriteria(input())).rejects.toThrow(/HTTP 401/);
    expect(fake.requests).toHaveLength(1);
  });

  it('does not follow a redirect: the transcript goes to the configured endpoint only', async () => {
    // The redirect points back at the fake itself, so a followed one would show as a second request.
    fake.handle((_request, index) =>
      index === 0
        ? { status: 307, raw: '', headers: { location: '/v1/chat/completions' } }
        : { content: goodAnswer() },
    );
    await expect(scorer({ maxRetries: 0 }).scoreCriteria(input())).rejects.toThrow();
    expect(fake.requests).toHaveLength(1);
  });

  it('stops reading an answer over MAX_ANSWER_BYTES, declared or streamed, and counts it a failed attempt', async () => {
    const huge = 'x'.repeat(MAX_ANSWER_BYTES + 1);
    // The first answer declares its length; the second streams without one (chunked).
    fake.handle((_request, index) => ({
      raw: huge,
      headers: index === 0 ? { 'content-length': String(huge.length) } : ({} as Record<string, string>),
    }));
    await expect(scorer({ maxRetries: 1 }).scoreCriteria(input())).rejects.toThrow(
      new RegExp(`more than ${MAX_ANSWER_BYTES} bytes \\(2 attempts\\)`),
    );
    expect(fake.requests).toHaveLength(2);
  });

  it('times out a slow answer and throws after the retries', async () => {
    fake.handle(() => ({ content: goodAnswer(), delayMs: 10_000 }));
    await expect(scorer({ timeoutMs: 50, maxRetries: 1 }).scoreCriteria(input())).rejects.toThrow(
      /timed out after 50 ms \(2 attempts\)/,
    );
    expect(fake.requests).toHaveLength(2);
  });

  it('throws when a criterion is missing, unknown, repeated or scored outside 0..1', async () => {
    const cases: [unknown, RegExp][] = [
      [{ criteria: [item('next_steps', 1)] }, /missing criteria "asks"/],
      [
        { criteria: [item('next_steps', 1), item('asks', 1), item('budget', 1)] },
        /unknown criterion "budget"/,
      ],
      [{ criteria: [item('next_steps', 1), item('asks', 1), item('asks', 0)] }, /"asks" twice/],
      [{ criteria: [item('next_steps', 1.5), item('asks', 1)] }, /"next_steps" outside 0\.\.1/],
      [{ criteria: [{ key: 'next_steps', score: 1 }] }, /does not match the schema/],
    ];
    for (const [content, message] of cases) {
      fake.handle(() => ({ content }));
      await expect(scorer({ maxRetries: 0 }).scoreCriteria(input())).rejects.toThrow(message);
    }
    expect(fake.requests).toHaveLength(cases.length);
  });

  it('treats a truncated answer (finish_reason length) as a failure', async () => {
    fake.handle(() => ({ content: goodAnswer(), finishReason: 'length' }));
    await expect(scorer({ maxRetries: 0 }).scoreCriteria(input())).rejects.toThrow(/cut off/);
  });
});

describeEachDialect('llm scorer in the scoring worker on %s', (dialect) => {
  let store: TestStore;
  let fake: FakeLlm;
  beforeEach(async () => {
    store = await seededStore(dialect);
    fake = await startFakeLlm();
  });
  afterEach(async () => {
    await fake.close();
    await store?.cleanup();
  });

  const llm = () =>
    createLlmScorer({ baseUrl: fake.url, model: 'test-model', apiKey: 'k', retryDelayMs: () => 0 });

  it('scores a queued call end to end and stores the model result with its evidence', async () => {
    // The test workspace's Discovery card has one criterion, next_steps.
    fake.handle(() => ({
      content: { criteria: [item('next_steps', 0.8, [{ turn_index: 6, quote: 'send a calendar invite' }])] },
    }));
    const id = await addCall(store);
    const worker = testWorker(store, { scorer: llm() });
    expect(await worker.runOnce()).toMatchObject({ callId: id, outcome: 'scored' });
    expect(await callRow(store, id)).toEqual({ status: 'scored', skip_reason: null });
    const result = await currentResult(store.db, id);
    expect(result).toMatchObject({ scorer: 'llm', score: 80, skip_reason: null });
    expect(JSON.parse(result!.criteria)).toEqual([
      expect.objectContaining({
        key: 'next_steps',
        score: 0.8,
        evidence: [{ turn_index: 6, start_ms: 31000, quote: 'send a calendar invite' }],
      }),
    ]);
  });

  it('fails the call after 3 worker attempts when the model keeps failing', async () => {
    fake.handle(() => ({ status: 503 }));
    const id = await addCall(store);
    const c = clock();
    const worker = testWorker(store, { scorer: llm(), now: c.now, backoffMs: (n) => n * 10_000 });
    expect(await worker.runOnce()).toMatchObject({
      outcome: 'retry',
      error: expect.stringContaining('HTTP 503'),
    });
    expect(await callRow(store, id)).toEqual({ status: 'queued', skip_reason: null });
    c.set(10_000);
    expect(await worker.runOnce()).toMatchObject({ outcome: 'retry' });
    c.set(40_000);
    expect(await worker.runOnce()).toMatchObject({ outcome: 'failed' });
    expect(await callRow(store, id)).toEqual({ status: 'failed', skip_reason: null });
    expect(await jobRow(store, id)).toMatchObject({
      status: 'done',
      attempts: 3,
      last_error: expect.stringContaining('LlmError'),
    });
    expect(await currentResult(store.db, id)).toBeUndefined();
    // Three worker attempts, each with the scorer's own 1 + 2 requests.
    expect(fake.requests).toHaveLength(9);
  });
});

describeEachDialect('model speaker inferrer through POST /v1/calls on %s', (dialect) => {
  let app: TestApp;
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
    app = await startApp(dialect, {
      env: { SCORER: 'llm', LLM_BASE_URL: fake.url, LLM_MODEL: 'test', LLM_API_KEY: 'sk-infer' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  /** Two speakers who say the same thing: the heuristic has nothing to go on and abstains. */
  const symmetric = (ref: string) => [
    { speaker: 'Speaker 1', text: `Morning. ${ref}` },
    { speaker: 'Speaker 2', text: `Morning. ${ref}` },
  ];
  const ref = () => Math.random().toString(36).slice(2);

  it('asks the model when the heuristic abstains, and takes its answer (202, inferred)', async () => {
    fake.handle(() => ({ content: { rep_label: 'Speaker 2', confidence: 0.92 } }));
    const res = await app.api('POST', '/v1/calls', {
      body: callBody({ transcript: { segments: symmetric(ref()) } }),
    });
    expect(res.status).toBe(202);
    expect(res.body.attribution).toEqual({ rep_source: 'rep_email', speaker_source: 'inferred' });
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.headers.authorization).toBe('Bearer sk-infer');
    expect(request.body.response_format.json_schema).toMatchObject({ name: 'rep_speaker', strict: true });
    expect(request.body.response_format.json_schema.schema.properties.rep_label.enum).toEqual([
      'Speaker 1',
      'Speaker 2',
      null,
    ]);
    const call = await app.deps.store.db
      .selectFrom('calls')
      .select(['rep_speaker', 'speaker_source'])
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(call).toEqual({ rep_speaker: 'Speaker 2', speaker_source: 'inferred' });
  });

  it('does not ask the model when the heuristic decides', async () => {
    const segments = [
      { speaker: 'Speaker 1', text: `Hello, Pat speaking. ${ref()}` },
      {
        speaker: 'Speaker 2',
        text: "Hi Pat, this is Sam from Acme. I know this is out of the blue; the reason I'm calling is your reporting. How do you handle it today?",
      },
      {
        speaker: 'Speaker 1',
        text: 'We use spreadsheets, honestly. It is slow and our finance team hates it.',
      },
      {
        speaker: 'Speaker 2',
        text: 'That makes sense. Our platform helps teams like yours. Could we set up a call next week? I will send a calendar invite.',
      },
    ];
    fake.handle(() => ({ content: { rep_label: 'Speaker 1', confidence: 0.99 } }));
    const res = await app.api('POST', '/v1/calls', { body: callBody({ transcript: { segments } }) });
    expect(res.status).toBe(202);
    const call = await app.deps.store.db
      .selectFrom('calls')
      .select('rep_speaker')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(call.rep_speaker).toBe('Speaker 2');
    expect(fake.requests).toHaveLength(0);
  });

  it('503 inference_unavailable with Retry-After: 30 when the model fails, and nothing is stored', async () => {
    fake.handle(() => ({ status: 500 }));
    const body = callBody({ transcript: { segments: symmetric(ref()) } });
    const res = await app.api('POST', '/v1/calls', { body });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('inference_unavailable');
    expect(res.headers.get('retry-after')).toBe('30');
    expect(fake.requests).toHaveLength(1);
    const stored = await app.deps.store.db
      .selectFrom('calls')
      .select('id')
      .where('external_id', '=', body.external_id as string)
      .execute();
    expect(stored).toEqual([]);
  });

  it('503 when the model answers garbage', async () => {
    fake.handle(() => ({ content: 'I think it is Speaker 2' }));
    const res = await app.api('POST', '/v1/calls', {
      body: callBody({ transcript: { segments: symmetric(ref()) } }),
    });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('inference_unavailable');
  });

  it('422 rep_speaker_undetermined when the model names an excluded label, an unknown label or abstains', async () => {
    const answers = [
      { rep_label: 'Speaker 1', confidence: 0.95 }, // a customer participant below
      { rep_label: 'Bob Stone', confidence: 0.95 }, // not in the transcript
      { rep_label: null, confidence: 0 },
      { rep_label: 'Speaker 2', confidence: 0.2 }, // too unsure
    ];
    for (const content of answers) {
      fake.handle(() => ({ content }));
      const res = await app.api('POST', '/v1/calls', {
        body: callBody({
          transcript: { segments: symmetric(ref()) },
          participants: [{ role: 'customer', name: 'Speaker 1' }],
        }),
      });
      expect(res.status, JSON.stringify(content)).toBe(422);
      expect(res.body.error.code).toBe('rep_speaker_undetermined');
    }
    expect(fake.requests).toHaveLength(answers.length);
    // The excluded label is offered neither as a candidate nor in the answer schema.
    expect(fake.requests[0]!.body.response_format.json_schema.schema.properties.rep_label.enum).toEqual([
      'Speaker 2',
      null,
    ]);
  });
});

describe('createScorer', () => {
  it('picks rules by default and llm with LLM_BASE_URL and LLM_MODEL, naming a missing variable', () => {
    expect(createScorer(loadConfig({})).name).toBe('rules');
    expect(
      createScorer(loadConfig({ SCORER: 'llm', LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'm' })).name,
    ).toBe('llm');
    expect(() => createScorer(loadConfig({ SCORER: 'llm', LLM_MODEL: 'm' }))).toThrow(/LLM_BASE_URL/);
    expect(() => createScorer(loadConfig({ SCORER: 'llm', LLM_BASE_URL: 'http://127.0.0.1:9/v1' }))).toThrow(
      /LLM_MODEL/,
    );
  });
});
