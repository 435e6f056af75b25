/** Deterministic synthetic sales-call bodies for load tests: realistic sizes, unique per request. */

const WORDS = (
  'we our team pipeline renewal budget quarter pricing contract onboarding integration forecast dashboard ' +
  'customers workflow reporting timeline decision approval security rollout pilot training support value ' +
  'process calendar meeting follow next step question data accounts region manager priority goal risk'
).split(' ');
const CJK = '日本語の会話記録営業顧客契約価格予算導入支援計画品質確認次回会議時間説明提案'.split('');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function sentence(next: () => number, chars: number, cjkShare: number): string {
  let out = '';
  while ([...out].length < chars) {
    out +=
      next() < cjkShare
        ? CJK[Math.floor(next() * CJK.length)]
        : `${WORDS[Math.floor(next() * WORDS.length)]} `;
  }
  return out.trim();
}

export interface BodyTemplate {
  /** JSON with the placeholder __UNIQ__ in external_id and in the first utterance. */
  json: string;
  bytes: number;
  characters: number;
  segments: number;
}

export function bodyTemplate(kind: 'typical' | 'large'): BodyTemplate {
  const next = rng(kind === 'typical' ? 42 : 7);
  const count = kind === 'typical' ? 300 : 1300;
  const chars = kind === 'typical' ? 110 : 300;
  const cjkShare = kind === 'typical' ? 0 : 0.95;
  const segments = Array.from({ length: count }, (_, i) => ({
    speaker: i % 2 ? 'Jordan Lee' : 'Riley Rep',
    text: (i === 0 ? '__UNIQ__ ' : '') + sentence(next, chars, cjkShare),
    start_ms: i * 7000,
  }));
  const body = {
    external_id: 'bench-__UNIQ__',
    provider: 'bench',
    occurred_at: '2026-11-20T15:00:00Z',
    call_type: 'discovery',
    rep: { email: 'rep@bench.test' },
    transcript: { segments, rep_speaker: 'Riley Rep' },
  };
  const json = JSON.stringify(body);
  return {
    json,
    bytes: Buffer.byteLength(json),
    characters: segments.reduce((n, s) => n + [...s.text].length, 0),
    segments: count,
  };
}
