/**
 * The client's types come from the server's OpenAPI document (src/generated/openapi.ts, written by
 * `npm run client:types`). The first test regenerates that file in memory from the server's current schemas
 * and fails when the committed copy differs, so a schema change without a regeneration fails CI. The rest
 * are type-level checks: `tsc -p packages/client/tsconfig.test.json` (npm run typecheck) fails when the
 * hand-made refinements in src/types.ts stop fitting the generated shapes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  Call,
  CallIngestResult,
  CallType,
  CreateCallRequest,
  CreateRecordingRequest,
  ErrorEnvelope,
  OpenEnum,
  operations,
  ParticipantRole,
  paths,
  RecordingUpload,
  TranscriptInput,
} from '../src/index.js';

const CLIENT_SRC = fileURLToPath(new URL('../src/', import.meta.url));
const GENERATED_FILE = path.join(CLIENT_SRC, 'generated/openapi.ts');
// The generator lives outside the package and imports the server. It is loaded by a computed URL so that
// the package's own typecheck (rootDir: packages/client) never follows it into the server's sources.
const GENERATOR_URL = pathToFileURL(
  fileURLToPath(new URL('../../../scripts/generate-client-types.ts', import.meta.url)),
).href;

interface Generator {
  generateClientTypes(): Promise<string>;
}

describe('generated OpenAPI types', () => {
  it('match the server document: run `npm run client:types` after changing the v1 schemas', async () => {
    const { generateClientTypes } = (await import(GENERATOR_URL)) as Generator;
    const expected = await generateClientTypes();
    const committed = readFileSync(GENERATED_FILE, 'utf8');
    expect(
      committed === expected,
      'packages/client/src/generated/openapi.ts is stale: run `npm run client:types` and commit the result',
    ).toBe(true);
    expect(committed).toContain('Do not edit.');
  });

  it('is types only and the package imports nothing outside itself', () => {
    const generated = readFileSync(GENERATED_FILE, 'utf8');
    expect(generated).not.toMatch(/^\s*import\s/m);
    expect(generated).not.toMatch(/\brequire\(/);

    const files = readdirSync(CLIENT_SRC, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    expect(files).toContain(path.join('generated', 'openapi.ts'));
    for (const file of files) {
      const source = readFileSync(path.join(CLIENT_SRC, file), 'utf8');
      for (const [, fromSpecifier, importSpecifier] of source.matchAll(
        /\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g,
      )) {
        const specifier = fromSpecifier ?? importSpecifier;
        if (specifier === undefined || specifier.startsWith('node:')) continue;
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\//);
        const target = path.resolve(path.dirname(path.join(CLIENT_SRC, file)), specifier);
        expect(
          target.startsWith(CLIENT_SRC),
          `${file} imports ${specifier}, outside packages/client/src`,
        ).toBe(true);
      }
    }
  });
});

// ---------------------------------------------------------------- type-level checks (tsc)

type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type GeneratedCreateCall = JsonOf<paths['/v1/calls']['post']['requestBody']>;
type GeneratedCreateRecording = JsonOf<paths['/v1/recordings']['post']['requestBody']>;

/** Drops `(string & {})` from an open enum, leaving its known values. */
type Known<T> = T extends string ? (string extends T ? never : T) : never;

const sampleCall = {
  external_id: 'zoom-88812345',
  provider: 'zoom',
  occurred_at: '2025-03-04T15:30:00+01:00',
  call_type: 'discovery',
  scorecard_id: null,
  rep: { email: 'ada@acme.com', name: 'Ada Park' },
  participants: [{ role: 'customer', name: 'Sam Lee', email: 'sam@globex.test', company: 'Globex' }],
  transcript: {
    segments: [
      { speaker: 'Ada Park', text: 'Thanks for joining.', start_ms: 0 },
      { speaker: 'Sam Lee', text: 'Happy to be here.', start_ms: null },
    ],
    rep_speaker: 'Ada Park',
  },
  metadata: { crm_id: 'opp-1' },
} satisfies CreateCallRequest;

const sampleRecording = {
  content_type: 'audio/mpeg',
  size_bytes: 1024,
  filename: 'call.mp3',
} satisfies CreateRecordingRequest;

describe('client types derived from the document', () => {
  it('accept what the document accepts and refuse what the contract refuses', () => {
    // A request written against the client's types is a valid body for the document.
    expectTypeOf(sampleCall).toExtend<GeneratedCreateCall>();
    expectTypeOf(sampleRecording).toExtend<GeneratedCreateRecording>();
    // Every field of the document's request bodies is in the client's, with the same optionality.
    expectTypeOf<keyof CreateCallRequest>().toEqualTypeOf<keyof GeneratedCreateCall>();
    expectTypeOf<keyof CreateRecordingRequest>().toEqualTypeOf<keyof GeneratedCreateRecording>();

    const text = { text: 'Ada Park: Hello.' } satisfies TranscriptInput;
    // @ts-expect-error exactly one of segments or text
    const neither = {} satisfies TranscriptInput;
    // @ts-expect-error exactly one of segments or text
    const both = { text: 'Hello.', segments: sampleCall.transcript.segments } satisfies TranscriptInput;
    // @ts-expect-error the server refuses fields outside the contract (422 unknown_field)
    const extra = { ...sampleCall, priority: 'high' } satisfies CreateCallRequest;
    const { transcript: _transcript, ...withoutTranscript } = sampleCall;
    // @ts-expect-error transcript is required
    const noTranscript = withoutTranscript satisfies CreateCallRequest;
    expect([text, neither, both, extra, noTranscript]).toHaveLength(5);
  });

  it('keep the enums the document closes as the known values of open enums', () => {
    expectTypeOf<Known<CallType>>().toEqualTypeOf<NonNullable<GeneratedCreateCall['call_type']>>();
    expectTypeOf<Known<ParticipantRole>>().toEqualTypeOf<
      NonNullable<GeneratedCreateCall['participants']>[number]['role']
    >();
    // Values added within v1 still type-check.
    expectTypeOf<'a_new_call_type'>().toExtend<CallType>();
    expectTypeOf<'a_new_status'>().toExtend<Call['status']>();
    expectTypeOf<'a_new_reason'>().toExtend<NonNullable<Call['skip_reason']>>();
    expectTypeOf<'a_new_code'>().toExtend<ErrorEnvelope['error']['code']>();
    expectTypeOf<'a_new_source'>().toExtend<NonNullable<Call['attribution']>['speaker_source']>();
    expectTypeOf<OpenEnum<'x'>>().toExtend<string>();
  });

  it('accept every response the document describes, and fields added later', () => {
    type Created = JsonOf<operations['createCall']['responses'][202]>;
    type Replayed = JsonOf<operations['createCall']['responses'][200]>;
    expectTypeOf<Replayed>().toEqualTypeOf<Created>();
    expectTypeOf<Created>().toExtend<CallIngestResult>();
    expectTypeOf<JsonOf<operations['getCall']['responses'][200]>>().toExtend<Call>();
    expectTypeOf<JsonOf<operations['createRecording']['responses'][201]>>().toExtend<RecordingUpload>();

    // Response fields the document lists keep their types (only enums are widened).
    expectTypeOf<Call['has_recording']>().toEqualTypeOf<boolean>();
    expectTypeOf<Call['occurred_at']>().toEqualTypeOf<string | null>();
    expectTypeOf<CallIngestResult['app_url']>().toEqualTypeOf<string>();
    expectTypeOf<RecordingUpload['upload_headers']>().toEqualTypeOf<{ [key: string]: string }>();
    // Fields the server adds within v1 are kept, as unknown.
    expectTypeOf<Call['added_later']>().toEqualTypeOf<unknown>();
    expectTypeOf<CallIngestResult['added_later']>().toEqualTypeOf<unknown>();
    expectTypeOf<ErrorEnvelope['error']['added_later']>().toEqualTypeOf<unknown>();

    // Every error response of every operation is the one envelope.
    type ErrorBodies = {
      [Op in keyof operations]: {
        [Status in keyof operations[Op]['responses']]: Status extends 200 | 201 | 202
          ? never
          : JsonOf<operations[Op]['responses'][Status]>;
      }[keyof operations[Op]['responses']];
    }[keyof operations];
    expectTypeOf<ErrorBodies>().toExtend<ErrorEnvelope>();
    expectTypeOf<JsonOf<operations['createCall']['responses'][422]>>().toEqualTypeOf<ErrorBodies>();
  });
});
