import { describe, expect, it } from 'vitest';
import { digestInThread } from './digest-thread.js';
import { digestTranscript, type Turn } from './transcript.js';

const turns: Turn[] = [
  { speaker: 'Ana  Ruiz', text: ' Hello,\tthere "friend" ', start_ms: 0 },
  { speaker: 'Bo', text: 'Olá — 日本語 😀', start_ms: null },
];

describe('digestInThread', () => {
  it('answers exactly what digestTranscript computes on the event loop', async () => {
    expect(await digestInThread(turns)).toEqual(digestTranscript(turns));
  });

  it('keeps answers paired with their requests when many are in flight', async () => {
    const many = Array.from({ length: 50 }, (_, i) => [{ speaker: `S${i}`, text: `turn ${i}`, start_ms: i }]);
    const digests = await Promise.all(many.map((t) => digestInThread(t)));
    expect(digests.map((d) => d.fingerprint)).toEqual(many.map((t) => digestTranscript(t).fingerprint));
  });

  it('rejects a digest the thread cannot compute, and the next one still works', async () => {
    const bad = [{ speaker: 'A', text: 'x', start_ms: 1n }] as unknown as Turn[];
    await expect(digestInThread(bad)).rejects.toThrow(/transcript digest: .*BigInt/);
    const unclonable = [{ speaker: 'A', text: 'x', start_ms: () => 1 }] as unknown as Turn[];
    await expect(digestInThread(unclonable)).rejects.toThrow();
    expect(await digestInThread(turns)).toEqual(digestTranscript(turns));
  });
});
