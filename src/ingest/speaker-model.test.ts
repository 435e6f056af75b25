import { describe, expect, it } from 'vitest';
import { inferRepSpeaker } from './infer-speaker.js';
import {
  shippedSpeakerModel,
  buildSpeakerModel,
  forEachSpeakerFeature,
  likelihoodsOf,
  speakerFeatureRows,
} from './speaker-model.js';
import type { Turn } from './transcript.js';

const none = { excludedLabels: new Set<string>() };

function dialogue(lines: [string, string][]): Turn[] {
  return lines.map(([speaker, text]) => ({ speaker, text, start_ms: null }));
}

/** Small talk on which the phrase reading abstains (infer-speaker.test.ts checks that too). */
const smallTalk = dialogue([
  ['Speaker 1', 'How was your weekend?'],
  ['Speaker 2', 'Good, we went to the lake. How about yours?'],
  ['Speaker 1', 'Quiet. I painted the kitchen.'],
  ['Speaker 2', 'Nice, what colour did you pick?'],
  ['Speaker 1', 'Light green. Are you coming to the barbecue on Saturday?'],
  ['Speaker 2', 'I think so. Should I bring anything?'],
]);

/** A longer chat between two neighbours, each saying well over 50 distinct words and pairs; no one sells. */
const longChat = dialogue([
  ['Speaker 1', 'How was your weekend? I heard the weather turned just as everyone left for the coast.'],
  ['Speaker 2', 'Good, we went to the lake with the kids and stayed in that small cabin by the water again.'],
  ['Speaker 1', 'Quiet one here. I painted the kitchen and finally fixed the squeaky door in the hall.'],
  ['Speaker 2', 'Nice, what colour did you pick in the end? Last time you could not decide between two.'],
  ['Speaker 1', 'Light green, the paler one. Are you still coming to the barbecue on Saturday afternoon?'],
  ['Speaker 2', 'I think so, unless the rain comes back. Should I bring a salad or something to drink?'],
  ['Speaker 1', 'A salad would be lovely. My sister is bringing dessert and her famous lemon cake.'],
  ['Speaker 2', 'Then we will bring the big bowl. The kids keep asking whether your dog will be there.'],
]);

/**
 * A model that knows every word of `turns` (zero weight) and rates speakers by `weights`, and nobody by `nobodyBias`
 * and the words of `nobody`.
 */
function modelOf(
  weights: Record<string, number>,
  nobodyBias = 3,
  turns: Turn[] = longChat,
  nobody: Record<string, number> = {},
) {
  const names = new Set<string>();
  forEachSpeakerFeature(turns, (_, name) => names.add(name));
  for (const w of [...Object.keys(weights), ...Object.keys(nobody)]) names.add(`s:${w}`);
  const list = [...names];
  return buildSpeakerModel(
    list,
    Float64Array.from(list, (n) => weights[n.slice(2)] ?? 0),
    Float64Array.from(list, (n) => nobody[n.slice(2)] ?? 0),
    nobodyBias,
  );
}

describe('speaker word model', () => {
  it("reads each speaker's own words: the same rows whatever the order of the turns", () => {
    const names = new Set<string>();
    forEachSpeakerFeature(smallTalk, (_, name) => names.add(name));
    const model = buildSpeakerModel(
      [...names],
      new Float64Array(names.size),
      new Float64Array(names.size),
      0,
    );
    const forward = speakerFeatureRows(model, smallTalk);
    const backward = speakerFeatureRows(model, [...smallTalk].reverse());
    for (const label of ['Speaker 1', 'Speaker 2'])
      expect([...backward.get(label)!].sort()).toEqual([...forward.get(label)!].sort());
    // "kitchen" is Speaker 1's word only.
    const kitchen = model.index.names.indexOf('s:kitchen');
    expect(forward.get('Speaker 1')).toContain(kitchen);
    expect(forward.get('Speaker 2')).not.toContain(kitchen);
  });

  it('turns weights into a likelihood per speaker, the speakers and nobody adding up to 1', () => {
    const model = modelOf({ lake: 60 });
    const likelihood = likelihoodsOf(model, speakerFeatureRows(model, smallTalk));
    expect(likelihood.get('Speaker 2')).toBeGreaterThan(0.5);
    expect(likelihood.get('Speaker 1')).toBeLessThan(0.01);
    // Without words that tell them apart, each speaker gets the same share, nobody the rest.
    const plain = likelihoodsOf(modelOf({}, 0), speakerFeatureRows(modelOf({}, 0), smallTalk));
    expect(plain.get('Speaker 1')).toBeCloseTo(1 / 3);
    expect(plain.get('Speaker 2')).toBeCloseTo(1 / 3);
  });

  it("reads the whole call's words for nobody: words of a call without a seller lower every speaker", () => {
    const seller = modelOf({ lake: 6 }, 0);
    const peers = modelOf({ lake: 6 }, 0, longChat, { barbecue: 60 });
    const before = likelihoodsOf(seller, speakerFeatureRows(seller, longChat));
    const after = likelihoodsOf(peers, speakerFeatureRows(peers, longChat));
    for (const label of ['Speaker 1', 'Speaker 2'])
      expect(after.get(label)!).toBeLessThan(before.get(label)!);
    expect(after.get('Speaker 2')).toBeLessThan(0.1);
  });

  it('refuses weights that do not match the feature list', () => {
    expect(() => buildSpeakerModel(['s:a', 's:b'], new Float64Array(1), new Float64Array(2), 0)).toThrow(
      /do not match/,
    );
    expect(() => buildSpeakerModel(['s:a', 's:b'], new Float64Array(2), new Float64Array(1), 0)).toThrow(
      /do not match/,
    );
  });

  it('ships a model, every feature named s:word or s:word word', () => {
    expect(shippedSpeakerModel().index.names.length).toBeGreaterThan(1000);
    expect(shippedSpeakerModel().index.names.every((n) => /^s:[a-z][a-z']*( [a-z][a-z']*)?$/.test(n))).toBe(
      true,
    );
  });
});

describe('inferRepSpeaker with the word model', () => {
  const lakeSpeaker = modelOf({ lake: 60, 'the lake': 60 });

  it('picks the one speaker the words clearly point to where the phrases found nothing', () => {
    expect(inferRepSpeaker(longChat, none, modelOf({}))).toBeNull();
    const result = inferRepSpeaker(longChat, none, lakeSpeaker);
    expect(result).toMatchObject({ label: 'Speaker 2', signals: { decided_by: 'word_model' } });
    expect(result!.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('does not pick on words alone while the words leave room for a call without a seller', () => {
    // Speaker 2 still rated over 0.8, but nobody (a call without a seller) over 0.02.
    const unsure = modelOf({ lake: 60, 'the lake': 60 }, 9);
    const likelihood = likelihoodsOf(unsure, speakerFeatureRows(unsure, longChat));
    expect(likelihood.get('Speaker 2')).toBeGreaterThanOrEqual(0.8);
    expect(1 - likelihood.get('Speaker 1')! - likelihood.get('Speaker 2')!).toBeGreaterThan(0.02);
    expect(inferRepSpeaker(longChat, none, unsure)).toBeNull();
  });

  it('does not pick on words alone when a second speaker also sounds like the rep', () => {
    expect(inferRepSpeaker(longChat, none, modelOf({ lake: 60, kitchen: 60 }))).toBeNull();
  });

  it('never picks an excluded label on words alone', () => {
    expect(inferRepSpeaker(longChat, { excludedLabels: new Set(['Speaker 2']) }, lakeSpeaker)).toBeNull();
  });

  it("replaces the phrases' pick the words all but rule out, vetoes one they doubt while preferring another", () => {
    const coldCall = dialogue([
      ['Speaker 1', 'Hello, accounts payable, this is Ruth.'],
      [
        'Speaker 2',
        "Hi Ruth, this is Adam from Paylane. I know I'm calling out of the blue, do you have a minute?",
      ],
      ['Speaker 1', 'A minute, sure. What is it about?'],
      ['Speaker 2', 'We help finance teams pay suppliers faster. How do you handle supplier invoices today?'],
      ['Speaker 1', 'Mostly by hand, honestly. It takes most of the week.'],
      ['Speaker 2', 'Would it be worth a short call next week to see how others cut that down?'],
    ]);
    const neutral = inferRepSpeaker(coldCall, none, modelOf({}, 3, coldCall));
    expect(neutral?.label).toBe('Speaker 2');
    // The words point firmly at Speaker 1 (under 0.1 for the phrases' pick, over 0.8 for Speaker 1): replaced.
    const firm = inferRepSpeaker(coldCall, none, modelOf({ payable: 60, honestly: 60 }, 3, coldCall));
    expect(firm).toMatchObject({
      label: 'Speaker 1',
      signals: { decided_by: 'word_model', phrases_pick: 'Speaker 2' },
    });
    // …unless Speaker 1 is known not to be the rep (a customer participant): then only vetoed.
    const excluded = { excludedLabels: new Set(['Speaker 1']) };
    expect(
      inferRepSpeaker(coldCall, excluded, modelOf({ payable: 60, honestly: 60 }, 3, coldCall)),
    ).toBeNull();
    // Doubted (between 0.1 and 0.3) while another is preferred (over 0.4): no answer.
    const doubt = modelOf({ payable: 3.2, honestly: 3.2 }, 0, coldCall);
    const likelihood = likelihoodsOf(doubt, speakerFeatureRows(doubt, coldCall));
    expect(likelihood.get('Speaker 2')).toBeGreaterThan(0.1);
    expect(likelihood.get('Speaker 2')).toBeLessThan(0.3);
    expect(likelihood.get('Speaker 1')).toBeGreaterThan(0.4);
    expect(inferRepSpeaker(coldCall, none, doubt)).toBeNull();
  });
});
