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

/** A model that knows every word of `turns` (zero weight) and rates speakers by the weights given. */
function modelOf(weights: Record<string, number>, bias = -6, turns: Turn[] = longChat) {
  const names = new Set<string>();
  forEachSpeakerFeature(turns, (_, name) => names.add(name));
  for (const w of Object.keys(weights)) names.add(`s:${w}`);
  const list = [...names];
  return buildSpeakerModel(
    list,
    Float64Array.from(list, (n) => weights[n.slice(2)] ?? 0),
    bias,
  );
}

describe('speaker word model', () => {
  it('reads each speaker alone: the same rows whatever the order of the turns', () => {
    const names = new Set<string>();
    forEachSpeakerFeature(smallTalk, (_, name) => names.add(name));
    const model = buildSpeakerModel([...names], new Float64Array(names.size), 0);
    const forward = speakerFeatureRows(model, smallTalk);
    const backward = speakerFeatureRows(model, [...smallTalk].reverse());
    for (const label of ['Speaker 1', 'Speaker 2'])
      expect([...backward.get(label)!].sort()).toEqual([...forward.get(label)!].sort());
    // "kitchen" is Speaker 1's word only.
    const kitchen = model.index.names.indexOf('s:kitchen');
    expect(forward.get('Speaker 1')).toContain(kitchen);
    expect(forward.get('Speaker 2')).not.toContain(kitchen);
  });

  it('turns weights into a likelihood per speaker', () => {
    const likelihood = likelihoodsOf(
      modelOf({ lake: 60 }),
      speakerFeatureRows(modelOf({ lake: 60 }), smallTalk),
    );
    expect(likelihood.get('Speaker 2')).toBeGreaterThan(0.5);
    expect(likelihood.get('Speaker 1')).toBeLessThan(0.01);
  });

  it('refuses weights that do not match the feature list', () => {
    expect(() => buildSpeakerModel(['s:a', 's:b'], new Float64Array(1), 0)).toThrow(/do not match/);
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

  it('does not pick on words alone a speaker who said too little to judge', () => {
    expect(inferRepSpeaker(smallTalk, none, modelOf({ lake: 60, 'the lake': 60 }, -6, smallTalk))).toBeNull();
  });

  it('does not pick on words alone when a second speaker also sounds like the rep', () => {
    expect(inferRepSpeaker(longChat, none, modelOf({ lake: 60, kitchen: 60 }))).toBeNull();
  });

  it('never picks an excluded label on words alone', () => {
    expect(inferRepSpeaker(longChat, { excludedLabels: new Set(['Speaker 2']) }, lakeSpeaker)).toBeNull();
  });

  it('does not pick on words alone a speaker whose phrases lean to the buyer', () => {
    const buyerTalk = dialogue([
      ['Ada', 'So what was your take on the supplier from this morning? Money is tight for us this year.'],
      [
        'Ben',
        "Same. We're currently using the old tool until December, and it's too expensive anyway. Our contract renews in the spring, so we have a few months. My team hates the reporting screens and the exports break every week.",
      ],
      [
        'Ada',
        'We are looking at two other tools as well. My boss wants them side by side before the quarter ends.',
      ],
      [
        'Ben',
        "Let's ask them to send me some information and decide next month. I would also like a reference from a company our size, and our finance lead will want to see the total cost over three years before we sign anything.",
      ],
    ]);
    const model = modelOf({ december: 150 }, -6, buyerTalk);
    expect(speakerFeatureRows(model, buyerTalk).get('Ben')!.length).toBeGreaterThanOrEqual(50);
    expect(likelihoodsOf(model, speakerFeatureRows(model, buyerTalk)).get('Ben')).toBeGreaterThan(0.8);
    expect(inferRepSpeaker(buyerTalk, none, modelOf({}, -6, buyerTalk))).toBeNull();
    expect(inferRepSpeaker(buyerTalk, none, model)).toBeNull();
  });

  it("vetoes the phrases' pick when its words do not sound like a rep's and another speaker's do", () => {
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
    const neutral = inferRepSpeaker(coldCall, none, modelOf({}, -6, coldCall));
    expect(neutral?.label).toBe('Speaker 2');
    expect(inferRepSpeaker(coldCall, none, modelOf({ payable: 60, honestly: 60 }, -6, coldCall))).toBeNull();
  });
});
