/**
 * Pure: the scorecard criterion format (DESIGN section 5) as TypeBox schemas, and the one validator that seeding and
 * the web editor share. The schemas say what JSON Schema can; validateCriteria adds the rules it cannot (unique
 * keys, exactly one deadline for mentions_before, talk_ratio min ≤ max).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CALL_TYPES } from '../ingest/classify-call.js';

export const MAX_CRITERIA = 50;

// A phrase must hold a visible character: a blank phrase would match every word boundary.
const Phrase = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const PhraseList = Type.Array(Phrase, { minItems: 1, maxItems: 100 });
const Fraction = Type.Number({ minimum: 0, maximum: 1 });
const Slug = Type.String({ pattern: '^[a-z0-9_]{1,64}$' });
const closed = { additionalProperties: false } as const;

export const PhrasesCheckSchema = Type.Object(
  {
    type: Type.Literal('phrases'),
    any: PhraseList,
    /** Occurrences needed (all phrases together) for full marks. */
    min: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 1 })),
  },
  closed,
);

export const QuestionsCheckSchema = Type.Object(
  {
    type: Type.Literal('questions'),
    min: Type.Integer({ minimum: 1, maximum: 100 }),
    open_only: Type.Optional(Type.Boolean()),
  },
  closed,
);

export const TalkRatioCheckSchema = Type.Object(
  { type: Type.Literal('talk_ratio'), min: Fraction, max: Fraction },
  closed,
);

export const LongestMonologueCheckSchema = Type.Object(
  { type: Type.Literal('longest_monologue'), max_words: Type.Integer({ minimum: 1, maximum: 100_000 }) },
  closed,
);

export const CustomerTalkCheckSchema = Type.Object(
  { type: Type.Literal('customer_talk'), min_share: Fraction },
  closed,
);

export const MentionsBeforeCheckSchema = Type.Object(
  {
    type: Type.Literal('mentions_before'),
    any: PhraseList,
    /** Exactly one of before_minute / before_turn (checked by validateCriteria). */
    before_minute: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 600 })),
    /** The mention must fall in the call's first N turns (all speakers). */
    before_turn: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  closed,
);

const CHECK_SCHEMAS = {
  phrases: PhrasesCheckSchema,
  questions: QuestionsCheckSchema,
  talk_ratio: TalkRatioCheckSchema,
  longest_monologue: LongestMonologueCheckSchema,
  customer_talk: CustomerTalkCheckSchema,
  mentions_before: MentionsBeforeCheckSchema,
} as const;

export type CheckType = keyof typeof CHECK_SCHEMAS;
export const CHECK_TYPES = Object.keys(CHECK_SCHEMAS) as CheckType[];

export const CheckSchema = Type.Union(Object.values(CHECK_SCHEMAS));

/** Every condition given must hold (AND); a criterion whose condition fails is N/A for the call. */
export const AppliesWhenSchema = Type.Object(
  {
    customer_mentions_any: Type.Optional(PhraseList),
    rep_mentions_any: Type.Optional(PhraseList),
    call_types: Type.Optional(Type.Array(Slug, { minItems: 1, maxItems: 20 })),
  },
  closed,
);

const criterionProperties = {
  key: Slug,
  title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  weight: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100, default: 1 })),
  applies_when: Type.Optional(AppliesWhenSchema),
};

export const CriterionSchema = Type.Object({ ...criterionProperties, check: CheckSchema }, closed);
export const CriteriaSchema = Type.Array(CriterionSchema, { maxItems: MAX_CRITERIA });

// Validated in two steps so an error names the failing field of the chosen check type, not just "union".
const CriterionShapeSchema = Type.Object({ ...criterionProperties, check: Type.Unknown() }, closed);

export type Criterion = Static<typeof CriterionSchema>;
export type Check = Static<typeof CheckSchema>;
export type AppliesWhen = Static<typeof AppliesWhenSchema>;

export type ValidateCriteriaResult = { ok: true; criteria: Criterion[] } | { ok: false; errors: string[] };

/**
 * Checks a scorecard's criteria. On success returns a copy with defaults filled in (weight 1, phrases min 1);
 * on failure one message per offending field, e.g. `criteria[2].check.min: Expected integer`.
 */
export function validateCriteria(value: unknown): ValidateCriteriaResult {
  if (!Array.isArray(value)) return { ok: false, errors: ['criteria: must be an array'] };
  const errors: string[] = [];
  if (value.length > MAX_CRITERIA) errors.push(`criteria: at most ${MAX_CRITERIA} criteria`);

  const seenKeys = new Map<string, number>();
  value.forEach((item: unknown, i) => {
    const at = `criteria[${i}]`;
    if (!isObject(item)) {
      errors.push(`${at}: must be an object`);
      return;
    }
    errors.push(...schemaErrors(CriterionShapeSchema, item, at));

    // A missing check is already reported by the shape schema as a required property.
    if (item.check !== undefined) errors.push(...checkErrors(item.check, `${at}.check`));
    errors.push(...callTypeErrors(item.applies_when, `${at}.applies_when.call_types`));

    if (typeof item.key === 'string') {
      const first = seenKeys.get(item.key);
      if (first === undefined) seenKeys.set(item.key, i);
      else errors.push(`${at}.key: "${item.key}" is already used by criteria[${first}]`);
    }
  });

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    criteria: value.map((item) => Value.Default(CriterionSchema, Value.Clone(item)) as Criterion),
  };
}

/** A call type outside the contract's list would make the criterion N/A on every call: a typo, refused. */
function callTypeErrors(when: unknown, at: string): string[] {
  if (!isObject(when) || !Array.isArray(when.call_types)) return [];
  return when.call_types.flatMap((type: unknown, i) =>
    typeof type === 'string' &&
    /^[a-z0-9_]{1,64}$/.test(type) &&
    !(CALL_TYPES as readonly string[]).includes(type)
      ? [`${at}[${i}]: "${type}" is not a call type (one of ${CALL_TYPES.join(', ')})`]
      : [],
  );
}

function checkErrors(check: unknown, at: string): string[] {
  if (!isObject(check)) return [`${at}: must be an object`];
  if (typeof check.type !== 'string' || !Object.hasOwn(CHECK_SCHEMAS, check.type)) {
    return [`${at}.type: must be one of ${CHECK_TYPES.join(', ')}`];
  }
  const found = schemaErrors(CHECK_SCHEMAS[check.type as CheckType], check, at);
  return found.length > 0 ? found : checkRules(check as Check, at);
}

function checkRules(check: Check, at: string): string[] {
  if (check.type === 'mentions_before') {
    const given = Number(check.before_minute !== undefined) + Number(check.before_turn !== undefined);
    if (given !== 1) return [`${at}: give exactly one of before_minute, before_turn`];
  }
  if (check.type === 'talk_ratio' && check.min > check.max) return [`${at}.min: must not exceed max`];
  return [];
}

/** TypeBox errors as `path: message`, one per path (a failing string can break several keywords at once). */
function schemaErrors(schema: TSchema, value: unknown, at: string): string[] {
  const byPath = new Map<string, string>();
  for (const error of Value.Errors(schema, value)) {
    const path = at + error.path.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');
    if (!byPath.has(path)) byPath.set(path, error.message);
  }
  return [...byPath].map(([path, message]) => `${path}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
