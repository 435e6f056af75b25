/**
 * Pure: the request rules JSON Schema cannot say, and the translation of schema errors into the contract's
 * 422s. Order (DESIGN 1b step 4): dangerous keys → unknown fields (all of them) → every other violation, the NUL
 * character included.
 */
import { AppError, type FieldError } from '../errors.js';

/** The subset of an Ajv error we read (kept structural so this module does not import Ajv). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const METADATA_MAX_BYTES = 16_384;
const METADATA_MAX_DEPTH = 5;
/**
 * How deep the body scans descend. The contract's deepest value sits at depth 4 (transcript.segments[i].text)
 * and metadata may go 5 levels below depth 1, so anything deeper is refused anyway (unknown_field, a schema
 * error or the metadata depth rule); the bound keeps a body of nested brackets from overflowing the stack
 * (a 500 where the contract answers 422).
 */
const MAX_SCAN_DEPTH = 32;
const MIN_OCCURRED_AT = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;

/** `/transcript/segments/10/text` → `transcript.segments[10].text` */
export function jsonPointerToField(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

interface ScanProblems {
  forbidden: FieldError[];
  characters: FieldError[];
}

/** What is wrong with a string's characters: a NUL, or a lone surrogate (a `\ud800` escape is no character). */
function characterProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain the NUL character';
  if (!value.isWellFormed()) return 'must be valid Unicode (a lone surrogate escape is not a character)';
  return null;
}

/**
 * Walks every key and string of the body (down to MAX_SCAN_DEPTH): NUL characters, lone surrogates and
 * prototype-polluting keys are refused anywhere. The path is kept as a stack of keys and spelled out only for a
 * problem: most bodies have none.
 */
function scanValues(value: unknown, at: (string | number)[], out: ScanProblems): void {
  if (typeof value === 'string') {
    const problem = characterProblem(value);
    if (problem !== null) out.characters.push({ field: pathOf(at), message: problem });
  } else if (at.length >= MAX_SCAN_DEPTH) {
    return;
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      scanValues(value[i], at, out);
      at.pop();
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      at.push(key);
      if (FORBIDDEN_KEYS.has(key)) {
        out.forbidden.push({ field: pathOf(at), message: `the key "${key}" is not allowed` });
      } else {
        const problem = characterProblem(key);
        if (problem !== null) out.characters.push({ field: pathOf(at), message: `keys ${problem}` });
      }
      scanValues((value as Record<string, unknown>)[key], at, out);
      at.pop();
    }
  }
}

function pathOf(at: readonly (string | number)[]): string {
  return at.reduce<string>(join, '');
}

/**
 * Depth where the object itself is level 1 and every nested object or array adds one. Counting stops below
 * `limit` levels: a deeper value answers more than `limit` without being walked to the bottom.
 */
function depth(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    deepest = Math.max(deepest, depth(child, limit - 1));
    if (deepest >= limit) break;
  }
  return 1 + deepest;
}

/**
 * Scans every key and string of the body: forbidden keys (`__proto__`, …), NULs and lone surrogates are returned. All
 * are rule violations, so they rank after unknown fields (DESIGN 1b step 4) and are listed with the schema's
 * violations (422 validation_failed naming the key, DESIGN 4). Nothing reads the body's values before this
 * answer, so an own `__proto__` key left by JSON.parse pollutes nothing meanwhile.
 */
export function checkBodyStrings(body: unknown): FieldError[] {
  const problems: ScanProblems = { forbidden: [], characters: [] };
  scanValues(body, [], problems);
  return [...problems.forbidden, ...problems.characters];
}

/** `a.__proto__` → true: a path ending in a forbidden key (a rule violation, never an unknown field). */
function endsInForbiddenKey(field: string): boolean {
  return FORBIDDEN_KEYS.has(field.slice(field.lastIndexOf('.') + 1));
}

export function validationFailed(fields: FieldError[]): AppError {
  const first = fields[0];
  const message =
    fields.length === 1 && first
      ? `${first.field}: ${first.message}`
      : `The request has ${fields.length} invalid fields.`;
  return new AppError('validation_failed', message, { fields });
}

/** Schema errors → 422 unknown_field (listing every unknown field) or validation_failed (every violation). */
export function schemaErrorsToFields(errors: readonly SchemaError[]): {
  unknown: FieldError[];
  invalid: FieldError[];
} {
  const unknown: FieldError[] = [];
  const invalid: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const base = jsonPointerToField(e.instancePath);
    if (e.keyword === 'additionalProperties') {
      const field = join(base, String(e.params.additionalProperty));
      if (endsInForbiddenKey(field)) continue; // checkBodyStrings names it as a violation
      if (!seen.has(`u:${field}`)) unknown.push({ field, message: 'is not a field of the contract' });
      seen.add(`u:${field}`);
      continue;
    }
    const field = e.keyword === 'required' ? join(base, String(e.params.missingProperty)) : base || '(body)';
    const message = e.keyword === 'required' ? 'is required' : describe(e);
    if (seen.has(`i:${field}`)) continue; // one message per field: the first is the most specific
    seen.add(`i:${field}`);
    invalid.push({ field, message });
  }
  return { unknown, invalid };
}

function describe(e: SchemaError): string {
  switch (e.keyword) {
    case 'pattern':
      return 'has an invalid format';
    case 'format':
      return `must be a valid ${String(e.params.format)}`;
    case 'enum':
      return `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return e.message ?? 'is invalid';
  }
}

export function throwSchemaErrors(errors: readonly SchemaError[], extra: FieldError[] = []): never {
  const { unknown, invalid } = schemaErrorsToFields(errors);
  if (unknown.length) {
    throw new AppError(
      'unknown_field',
      `Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.map((f) => f.field).join(', ')}`,
      {
        fields: unknown,
      },
    );
  }
  throw validationFailed([...invalid, ...extra.filter((x) => !invalid.some((i) => i.field === x.field))]);
}

interface CallRules {
  occurred_at?: unknown;
  metadata?: unknown;
  transcript?: { segments?: unknown; text?: unknown } | null;
}

const LEAP_SECOND = /^(.{16}):60(?=[.,Zz+-])/;

/**
 * Milliseconds of an RFC 3339 date-time the schema's pattern accepted, or NaN. RFC 3339 allows a leap second (:60),
 * which Date.parse refuses: it is read as the first instant after the second 59 it follows.
 */
export function parseDateTime(value: string): number {
  if (!LEAP_SECOND.test(value)) return Date.parse(value);
  return Date.parse(value.replace(LEAP_SECOND, '$1:59')) + 1000;
}

/** Rules of CreateCallRequest beyond the schema. Returns every violation (empty when fine). */
export function callRuleViolations(body: CallRules, now: number): FieldError[] {
  const out: FieldError[] = [];
  if (typeof body.occurred_at === 'string') {
    const at = parseDateTime(body.occurred_at);
    if (Number.isNaN(at)) out.push({ field: 'occurred_at', message: 'must be a valid RFC 3339 date-time' });
    else if (at < MIN_OCCURRED_AT || at > now + DAY_MS) {
      out.push({ field: 'occurred_at', message: 'must lie between 2000-01-01 and one day after now' });
    }
  }
  if (body.metadata !== null && typeof body.metadata === 'object') {
    const levels = depth(body.metadata, MAX_SCAN_DEPTH);
    // JSON.stringify recurses too: past MAX_SCAN_DEPTH levels only the depth is reported.
    if (
      levels <= MAX_SCAN_DEPTH &&
      Buffer.byteLength(JSON.stringify(body.metadata), 'utf8') > METADATA_MAX_BYTES
    ) {
      out.push({ field: 'metadata', message: 'must be at most 16 KB serialized' });
    }
    if (levels > METADATA_MAX_DEPTH)
      out.push({ field: 'metadata', message: 'must be at most 5 levels deep' });
  }
  const transcript = body.transcript;
  // An array is the wrong type, which the schema reports; its missing segments and text are not news.
  if (transcript && typeof transcript === 'object' && !Array.isArray(transcript)) {
    const hasSegments = transcript.segments !== undefined && transcript.segments !== null;
    const hasText = transcript.text !== undefined && transcript.text !== null;
    if (hasSegments === hasText) {
      const message = hasSegments
        ? 'send only one of segments or text'
        : 'one of segments or text is required';
      out.push({ field: 'transcript.segments', message }, { field: 'transcript.text', message });
    }
  }
  return out;
}
