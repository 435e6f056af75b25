import { describe, expect, it } from 'vitest';
import {
  shippedCallTypeModel,
  buildCallTypeModel,
  callFeatureRows,
  callTypeLogits,
  forEachCallFeature,
} from './call-type-model.js';
import { CALL_TYPES, classifyCall } from './classify-call.js';
import type { Turn } from './transcript.js';
import { decodeWeights, softmax } from './word-features.js';

function dialogue(lines: [string, string][]): Turn[] {
  return lines.map(([speaker, text]) => ({ speaker, text, start_ms: null }));
}

/** An invented call long enough for the word model (well over 40 distinct words and pairs). */
const LONG_CALL = dialogue([
  [
    'Rep',
    'Morning, thanks for making time. I wanted to walk through where things stand on your side this quarter.',
  ],
  [
    'Buyer',
    'Sure. The team has been busy with the warehouse move, so we have not looked at much else lately.',
  ],
  [
    'Rep',
    'Understood. How are the pickers finding the new layout, and what still slows them down each shift?',
  ],
  [
    'Buyer',
    'Mostly the labels. Half the racks still carry the old codes and people walk to the wrong aisle.',
  ],
  [
    'Rep',
    'That sounds painful. Who decides when the relabelling happens, and is there a budget set aside for it?',
  ],
  ['Buyer', 'Our operations lead owns that. Budget is tight until the spring review, honestly.'],
]);

/** A receptionist screening the rep's call: the reading names gatekeeper with confidence. */
const GATEKEEPER = dialogue([
  ['Desk', 'Good morning, Orion Labs, how may I direct your call?'],
  [
    'Rep',
    'Could I speak with the head of facilities please? It is about the lighting in your new warehouse.',
  ],
  [
    'Desk',
    "Who's calling, and what is this regarding? She does not take calls from vendors she does not know.",
  ],
  [
    'Rep',
    'Sam from Brightlamp. We spoke with her team last spring about the retrofit. Is she available today?',
  ],
  ['Desk', "She's in a meeting all afternoon. I can take a message and pass it on when she is back."],
  ['Rep', 'That would be great, thank you. Please tell her Sam called about the warehouse lights.'],
]);

/** Five turns: an account that has products with us is offered another one, with a price. */
const UPSELL = dialogue([
  ['Client', 'Dan, I assume this is about the renewal.'],
  [
    'Rep',
    "Partly, the property renewal is fine. You've got property, liability and vehicles with us, but nothing for cyber.",
  ],
  ['Client', 'Who would hack a printing company?'],
  ['Rep', 'Most attacks are not targeted. Cover like yours would be about nine hundred a year.'],
  ['Client', 'How much would the excess be?'],
]);

/** A model that knows every feature of LONG_CALL, with weights that favour `favoured` by `strength` per feature. */
function modelFavouring(favoured: string, strength: number, turns: Turn[] = LONG_CALL) {
  const names = new Set<string>();
  forEachCallFeature(turns, 'Rep', (f) => names.add(f));
  const list = [...names];
  const weights = new Float64Array(list.length * CALL_TYPES.length);
  const column = CALL_TYPES.indexOf(favoured as (typeof CALL_TYPES)[number]);
  list.forEach((_, row) => (weights[row * CALL_TYPES.length + column] = strength));
  return buildCallTypeModel(list, weights, new Array<number>(CALL_TYPES.length).fill(0), CALL_TYPES);
}

describe('call-type word model', () => {
  it('finds through word ids exactly the features that forEachCallFeature names', () => {
    const names = new Set<string>();
    forEachCallFeature(LONG_CALL, 'Rep', (f) => names.add(f));
    // Keep a third of them, a mix of single words, pairs and sides.
    const kept = [...names].filter((_, i) => i % 3 === 0);
    const model = buildCallTypeModel(kept, new Float64Array(kept.length * 2), [0, 0], ['a', 'b']);
    const rows = callFeatureRows(model, LONG_CALL, 'Rep');
    expect(rows.map((r) => kept[r]).sort()).toEqual([...kept].sort());
    expect(kept.some((f) => f.startsWith('r:') && f.includes(' '))).toBe(true);
    expect(kept.some((f) => f.startsWith('*:'))).toBe(true);
  });

  it('reads the sides: the same words said by the other side are other features', () => {
    const model = buildCallTypeModel(['r:budget', 'o:budget', '*:budget'], new Float64Array(3), [0], ['x']);
    const byRep = callFeatureRows(model, dialogue([['Rep', 'budget']]), 'Rep');
    const byBuyer = callFeatureRows(model, dialogue([['Buyer', 'budget']]), 'Rep');
    const unknown = callFeatureRows(model, dialogue([['Buyer', 'budget']]), null);
    expect(byRep.sort()).toEqual([0, 2]);
    expect(byBuyer.sort()).toEqual([1, 2]);
    expect(unknown).toEqual([2]);
  });

  it('refuses weights that do not match the feature list', () => {
    expect(() => buildCallTypeModel(['*:a'], new Float64Array(3), [0, 0], ['a', 'b'])).toThrow(
      /do not match/,
    );
  });

  it('decodes int16 weights quantised in steps', () => {
    const bytes = Buffer.alloc(4);
    bytes.writeInt16LE(100, 0);
    bytes.writeInt16LE(-50, 2);
    const model = buildCallTypeModel(
      ['*:hello'],
      decodeWeights(bytes.toString('base64'), 0.01),
      [0.5, 0],
      ['a', 'b'],
    );
    const logits = callTypeLogits(model, callFeatureRows(model, dialogue([['A', 'Hello!']]), null));
    expect(logits[0]).toBeCloseTo(1.5);
    expect(logits[1]).toBeCloseTo(-0.5);
    expect(softmax(logits).reduce((a, p) => a + p, 0)).toBeCloseTo(1);
  });

  it('ships a model over the ten call types, every feature named side:word or side:word word', () => {
    expect(shippedCallTypeModel().classes).toEqual(CALL_TYPES);
    expect(shippedCallTypeModel().index.names.length).toBeGreaterThan(1000);
    expect(
      shippedCallTypeModel().index.names.every((n) => /^[roun*]:[a-z][a-z']*( [a-z][a-z']*)?$/.test(n)),
    ).toBe(true);
  });
});

describe('classifyCall with the word model', () => {
  it('lets the words decide when the phrases and structure find nothing', () => {
    const result = classifyCall(LONG_CALL, 'Rep', modelFavouring('negotiation', 1));
    expect(result).toMatchObject({ callType: 'negotiation', fallback: false });
    expect(result.confidence).toBeGreaterThan(0.5);
  });

  it('keeps a confident reading against a model that leans mildly elsewhere (under 0.3)', () => {
    const mild = modelFavouring('negotiation', 0.05, GATEKEEPER);
    expect(callFeatureRows(mild, GATEKEEPER, 'Rep').length).toBeGreaterThanOrEqual(40);
    expect(classifyCall(GATEKEEPER, 'Rep', mild).callType).toBe('gatekeeper');
  });

  it('ignores the model on a call too short for it, and falls back to discovery when nothing decides', () => {
    const short = dialogue([
      ['A', 'Hello.'],
      ['B', 'Hi there.'],
    ]);
    expect(classifyCall(short, 'A', modelFavouring('negotiation', 5, short))).toMatchObject({
      callType: 'discovery',
      fallback: true,
    });
  });

  it('falls back to discovery when neither the model nor the reading is sure', () => {
    // Zero weights: every type gets a tenth, under the 0.2 floor; the reading finds nothing in LONG_CALL.
    const flat = modelFavouring('negotiation', 0);
    expect(classifyCall(LONG_CALL, 'Rep', flat)).toMatchObject({ callType: 'discovery', fallback: true });
  });

  it('lets a model sure of its type (0.3 or more) decide over a reading that is not sure (under 0.9)', () => {
    // Alone, the reading names cross-selling from thin evidence (an account with products, a price).
    expect(classifyCall(UPSELL, 'Rep', modelFavouring('negotiation', 0, []))).toMatchObject({
      callType: 'cross_selling',
      fallback: false,
    });
    const sure = modelFavouring('negotiation', 1, UPSELL);
    expect(callFeatureRows(sure, UPSELL, 'Rep').length).toBeGreaterThanOrEqual(40);
    const result = classifyCall(UPSELL, 'Rep', sure);
    expect(result).toMatchObject({ callType: 'negotiation', fallback: false });
    expect(result.confidence).toBeGreaterThanOrEqual(0.3);
  });

  it('lets a reading sure of its type (0.9 or more) decide before the model', () => {
    const sure = modelFavouring('negotiation', 1, GATEKEEPER);
    expect(classifyCall(GATEKEEPER, 'Rep', sure)).toMatchObject({ callType: 'gatekeeper', confidence: 1 });
  });
});
