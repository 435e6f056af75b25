/**
 * Ajv's minLength and maxLength count the code points of every string with a JavaScript loop (measured: most of
 * the schema check of a 1 MiB transcript). A code point is one or two UTF-16 units, so a string whose `.length`
 * already settles the limit needs no count: same keywords, same errors, counted only near the limits.
 */
import { createRequire } from 'node:module';
import { _, type Ajv, type KeywordCxt } from 'ajv';

// Ajv's own count, so the result near a limit is exactly what it was (CommonJS: the function is `.default`).
const ucs2length = (
  createRequire(import.meta.url)('ajv/dist/runtime/ucs2length.js') as { default: (s: string) => number }
).default;

export function quickStringLength(ajv: Ajv): Ajv {
  for (const keyword of ['maxLength', 'minLength'] as const) {
    const limitLength = ajv.getKeyword(keyword);
    if (!limitLength || typeof limitLength !== 'object') throw new Error(`Ajv has no ${keyword} keyword`);
    ajv.removeKeyword(keyword);
    ajv.addKeyword({
      ...limitLength,
      keyword,
      code(cxt: KeywordCxt) {
        const { data, schemaCode, gen } = cxt;
        const codePoints = gen.scopeValue('func', { ref: ucs2length });
        cxt.fail$data(
          keyword === 'maxLength'
            ? _`${data}.length > ${schemaCode} && ${codePoints}(${data}) > ${schemaCode}`
            : _`${data}.length < 2 * ${schemaCode} && ${codePoints}(${data}) < ${schemaCode}`,
        );
      },
    });
  }
  return ajv;
}
