import { describe, expect, it } from 'vitest';
import { SignInThrottle } from './throttle.js';

describe('SignInThrottle', () => {
  it('blocks the 6th attempt for an email and IP within 15 minutes, then lets it through as failures age out', () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle({ now: () => now });
    for (let i = 0; i < 5; i++) {
      expect(throttle.retryAfterMs('Ada@acme.test', '10.0.0.1')).toBe(0);
      throttle.recordFailure('ada@acme.test', '10.0.0.1');
      now += 60_000;
    }
    // First failure at 1_000_000; it leaves the window at 1_000_000 + 15 min.
    expect(throttle.retryAfterMs('ada@acme.test', '10.0.0.1')).toBe(1_000_000 + 15 * 60_000 - now);
    expect(throttle.retryAfterMs('ada@acme.test', '10.0.0.2')).toBe(0);
    expect(throttle.retryAfterMs('bob@acme.test', '10.0.0.1')).toBe(0);
    now = 1_000_000 + 15 * 60_000 + 1;
    expect(throttle.retryAfterMs('ada@acme.test', '10.0.0.1')).toBe(0);
  });

  it('limits one IP across many emails, and a success clears only that email', () => {
    const throttle = new SignInThrottle({ perIp: 3, now: () => 0 });
    throttle.recordFailure('a@x.test', '10.0.0.9');
    throttle.recordFailure('b@x.test', '10.0.0.9');
    throttle.recordSuccess('b@x.test', '10.0.0.9');
    expect(throttle.retryAfterMs('c@x.test', '10.0.0.9')).toBe(0);
    throttle.recordFailure('c@x.test', '10.0.0.9');
    expect(throttle.retryAfterMs('d@x.test', '10.0.0.9')).toBeGreaterThan(0);
  });

  it('stays bounded', () => {
    const throttle = new SignInThrottle({ maxKeys: 10, now: () => 0 });
    for (let i = 0; i < 100; i++) throttle.recordFailure(`u${i}@x.test`, `10.0.${i}.1`);
    expect((throttle as unknown as { failures: Map<string, number[]> }).failures.size).toBeLessThanOrEqual(
      10,
    );
  });
});
