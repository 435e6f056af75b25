import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { quickStringLength } from './ajv-string-length.js';

describe('quickStringLength', () => {
  const schema = { type: 'string', minLength: 2, maxLength: 3 };
  const stock = new Ajv({ allErrors: true }).compile(schema);
  const quick = quickStringLength(new Ajv({ allErrors: true })).compile(schema);

  it('gives the errors of Ajv’s own code-point count, at and around both limits', () => {
    const pieces = ['a', '😀', '\ud800', '\udc00'];
    const strings = [''];
    for (let length = 1; length <= 5; length++) {
      for (const s of strings.filter((x) => [...x].length === length - 1))
        strings.push(...pieces.map((p) => s + p));
    }
    for (const s of strings) {
      expect(quick(s), JSON.stringify(s)).toBe(stock(s));
      expect(quick.errors).toEqual(stock.errors);
    }
  });
});
