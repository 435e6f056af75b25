/**
 * `--dry-run`: checks a CreateCallRequest locally exactly as POST /v1/calls would, without the database steps.
 * Same schema (TypeBox → JSON Schema), same Ajv options as the server (Fastify's defaults overridden by
 * server.ts's `customOptions`, plus ajv-formats as Fastify adds it), same rule checks and the same order:
 * body size (413) → forbidden keys → unknown fields → every schema and rule violation (NUL included) → transcript parse
 * and limits (`transcript_unlabeled`, `transcript_too_long`). The answer is the error code the server would send.
 * What cannot be checked offline (rep, speaker, scorecard, recording, idempotency) is left to the real run.
 */
import { createRequire } from 'node:module';
import { Ajv, type Plugin, type ValidateFunction } from 'ajv';
import { AppError } from '../errors.js';
import { CreateCallRequestSchema } from '../http/v1/schemas.js';
import { callRuleViolations, checkBodyStrings, throwSchemaErrors } from '../ingest/check-request.js';
import { checkTranscriptLimits, parseTranscript, type TranscriptInput } from '../ingest/transcript.js';
import type { ResultError } from './results.js';

// ajv-formats is CommonJS with `module.exports = plugin`; require() sidesteps the default-import typing gap.
const addFormats = createRequire(import.meta.url)('ajv-formats') as Plugin<unknown>;

/** server.ts BODY_LIMIT_BYTES (not imported: that would load Fastify into the CLI for one number). */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** The options Fastify's Ajv ends up with (its defaults, then server.ts's customOptions). */
const SERVER_AJV_OPTIONS = {
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  addUsedSchema: false,
  allErrors: true,
  allowUnionTypes: true,
} as const;

export type CallValidator = (body: unknown) => ResultError | null;

export function createCallValidator(now: () => number = Date.now): CallValidator {
  const ajv = new Ajv(SERVER_AJV_OPTIONS);
  addFormats(ajv);
  const validate: ValidateFunction = ajv.compile(CreateCallRequestSchema);

  return (body) => {
    try {
      // The client sends JSON.stringify(body), so that is the size the server's 1 MiB limit sees.
      if (Buffer.byteLength(JSON.stringify(body) ?? '', 'utf8') > BODY_LIMIT_BYTES) {
        throw new AppError(
          'payload_too_large',
          `The request body is over ${BODY_LIMIT_BYTES} bytes (1 MiB).`,
        );
      }
      // The order of calls.routes.ts.
      const ruleViolations = [
        ...checkBodyStrings(body),
        ...callRuleViolations((body ?? {}) as object, now()),
      ];
      if (!validate(body)) throwSchemaErrors(validate.errors ?? [], ruleViolations);
      if (ruleViolations.length) throwSchemaErrors([], ruleViolations);
      // ingest-call.ts step 5: the first step of the use case, and a pure one.
      checkTranscriptLimits(parseTranscript((body as { transcript: TranscriptInput }).transcript));
      return null;
    } catch (err) {
      if (err instanceof AppError) {
        return { code: err.code, message: err.message, fields: err.fields ?? [], request_id: null };
      }
      throw err;
    }
  };
}
