import { describe, expect, it } from 'vitest';
import { SubmissionLedger } from './submissions.js';

describe('SubmissionLedger', () => {
  it('lets a submission act once within the hour, again after it', () => {
    let now = 0;
    const ledger = new SubmissionLedger(() => now);
    expect(ledger.first('u1:a')).toBe(true);
    expect(ledger.first('u1:a')).toBe(false);
    expect(ledger.first('u1:b')).toBe(true);
    now += 60 * 60 * 1000;
    expect(ledger.first('u1:a')).toBe(true);
  });

  it('stays bounded: the oldest ids are forgotten first', () => {
    const ledger = new SubmissionLedger(() => 0);
    for (let i = 0; i < 10_001; i++) expect(ledger.first(`k${i}`)).toBe(true);
    expect(ledger.first('k0')).toBe(true); // forgotten
    expect(ledger.first('k10000')).toBe(false); // still remembered
  });
});
