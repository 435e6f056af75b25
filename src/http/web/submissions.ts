/**
 * Forms whose second submission must not act twice (creating an API key: a reload of the page that shows the new
 * secret would re-post the form and create a second live key whose secret nobody saw). Each such form carries a
 * random `submission` id; the ledger remembers ids already acted on, per process, for an hour, at most 10,000.
 * A second process may miss a replay; the cost is the behaviour without the ledger.
 */
const TTL_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 10_000;

export class SubmissionLedger {
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True the first time `key` is offered within the hour; false for a replay. */
  first(key: string): boolean {
    const now = this.now();
    const at = this.seen.get(key);
    if (at !== undefined && now - at < TTL_MS) return false;
    this.seen.delete(key);
    this.seen.set(key, now);
    // Map keeps insertion order: the oldest entries go first.
    for (const [old, time] of this.seen) {
      if (this.seen.size <= MAX_ENTRIES && now - time < TTL_MS) break;
      this.seen.delete(old);
    }
    return true;
  }
}
