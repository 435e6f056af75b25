/**
 * Pure: starter scorecards a team can copy and edit, built from common sales-coaching practice. `callTypes` are
 * the call types (spec `call_type`) a template suits; the demo seed turns them into team rules.
 */
import type { Criterion } from './criteria.js';

export interface ScorecardTemplate {
  key: string;
  name: string;
  description: string;
  callTypes: string[];
  criteria: Criterion[];
}

// Phrase lists shared by several templates. Matching is case-insensitive on whole words, so list each form.
const AGENDA = [
  'agenda',
  'plan for today',
  'plan for the call',
  'plan for our call',
  "what I'd like to cover",
  "what we'll cover",
  'goal for today',
  'goal of this call',
  'goal for this call',
  'by the end of the call',
  'by the end of this call',
  'anything you want to add',
  "anything you'd like to add",
  'does that work for you',
  'does that sound good',
];

const NEXT_STEPS = [
  'next step',
  'next steps',
  'calendar invite',
  'send an invite',
  'send you an invite',
  'send over an invite',
  'book a time',
  'book a meeting',
  'schedule a',
  'set up a call',
  'set up a meeting',
  'set up a time',
  'follow up',
  'follow-up',
  'meet again',
  'action items',
  'mutual action plan',
];

const PRICE_TOPICS = [
  'price',
  'pricing',
  'cost',
  'costs',
  'budget',
  'expensive',
  'how much',
  'discount',
  'quote',
];

const VALUE_LANGUAGE = [
  'value',
  'return on investment',
  'roi',
  'pays for itself',
  'payback',
  'business case',
  'compared to the cost',
  'cost of doing nothing',
  'save',
  'savings',
  'what it costs you today',
];

const OBJECTION_ACKNOWLEDGEMENTS = [
  'I understand',
  'that makes sense',
  'makes sense',
  'fair enough',
  "that's fair",
  'totally fair',
  'I hear you',
  'appreciate that',
  'good question',
  'out of curiosity',
  'just curious',
  'can I ask',
  'what would need to be true',
  'other customers',
  'a lot of our customers',
  'other teams told us',
];

const DECISION_PROCESS = [
  'who else',
  'decision maker',
  'decision makers',
  'decision process',
  'decision-making',
  'sign off',
  'sign-off',
  'signs off',
  'approval',
  'approve',
  'procurement',
  'legal review',
  'timeline',
  'evaluation criteria',
];

const setsAgenda: Criterion = {
  key: 'sets_agenda',
  title: 'Sets an agenda early',
  description:
    'In the first few minutes the rep says what the call will cover and what it should end with, and invites the customer to add to it.',
  weight: 1,
  check: { type: 'mentions_before', any: AGENDA, before_minute: 5 },
};

const noLongMonologues = (maxWords: number): Criterion => ({
  key: 'no_long_monologues',
  title: 'Avoids long monologues',
  description: `No rep turn runs past about ${maxWords} words; long speeches lose the customer. Pause and check in instead.`,
  weight: 1,
  check: { type: 'longest_monologue', max_words: maxWords },
});

const balancedTalk = (min: number, max: number): Criterion => ({
  key: 'balanced_talk_ratio',
  title: 'Keeps a balanced talk ratio',
  description: `The rep speaks between ${Math.round(min * 100)}% and ${Math.round(max * 100)}% of the words: enough to lead, little enough to listen.`,
  weight: 1,
  check: { type: 'talk_ratio', min, max },
});

const customerTalks = (minShare: number): Criterion => ({
  key: 'customer_talks',
  title: 'Lets the customer talk',
  description: `The customer speaks at least ${Math.round(minShare * 100)}% of the words.`,
  weight: 1,
  check: { type: 'customer_talk', min_share: minShare },
});

const openQuestions = (min: number, weight: number): Criterion => ({
  key: 'asks_open_questions',
  title: 'Asks open questions',
  description:
    'The rep asks questions that invite a full answer ("what", "how", "why", "walk me through …") rather than yes/no questions.',
  weight,
  check: { type: 'questions', min, open_only: true },
});

const agreesNextSteps = (extra: string[] = []): Criterion => ({
  key: 'agrees_next_steps',
  title: 'Agrees concrete next steps',
  description:
    'The call ends with a dated next step both sides agreed, ideally with a calendar invite sent on the call.',
  weight: 2,
  check: { type: 'phrases', any: [...NEXT_STEPS, ...extra], min: 1 },
});

const handlesPricing: Criterion = {
  key: 'handles_pricing_with_value',
  title: 'Ties price to value',
  description:
    'When the customer raises price or budget, the rep answers in terms of value and return, not only numbers.',
  weight: 1,
  applies_when: { customer_mentions_any: PRICE_TOPICS },
  check: { type: 'phrases', any: VALUE_LANGUAGE, min: 1 },
};

const handlesObjections = (objections: string[]): Criterion => ({
  key: 'handles_objections',
  title: 'Handles objections',
  description:
    'When the customer pushes back, the rep acknowledges it and asks about it before answering, instead of arguing or moving on.',
  weight: 1,
  applies_when: { customer_mentions_any: objections },
  check: { type: 'phrases', any: OBJECTION_ACKNOWLEDGEMENTS, min: 1 },
});

export const SCORECARD_TEMPLATES: ScorecardTemplate[] = [
  {
    key: 'discovery',
    name: 'Discovery',
    description:
      'First real conversation: understand the situation, the pain and what it costs, and earn a next step.',
    callTypes: ['discovery', 'technical_discovery', 'inbound_call'],
    criteria: [
      setsAgenda,
      openQuestions(6, 2),
      {
        key: 'uncovers_pain',
        title: 'Uncovers pain',
        description: 'The rep explores what is not working today and why, in the customer’s own words.',
        weight: 2,
        check: {
          type: 'phrases',
          any: [
            'challenge',
            'challenges',
            // Never the bare word: a rep's courteous "no problem" is not pain uncovered.
            'the problem',
            'biggest problem',
            'what problems',
            'any problems',
            'problems with',
            'pain point',
            'pain points',
            'struggle',
            'struggling',
            'frustrating',
            'bottleneck',
            "what's not working",
            'getting in the way',
            'what happens today',
          ],
          min: 2,
        },
      },
      {
        key: 'quantifies_business_impact',
        title: 'Quantifies business impact',
        description: 'The rep connects the problem to time, money, revenue or risk for the business.',
        weight: 2,
        check: {
          type: 'phrases',
          any: [
            'impact',
            'cost you',
            'costing you',
            'how much time',
            'how many hours',
            'how much revenue',
            'what happens if',
            'what would it mean',
            'what does that mean for',
            'bottom line',
            'revenue',
            'quota',
            'priority',
            'priorities',
          ],
          min: 1,
        },
      },
      balancedTalk(0.35, 0.55),
      noLongMonologues(200),
      customerTalks(0.45),
      agreesNextSteps(),
      handlesPricing,
    ],
  },
  {
    key: 'cold_call',
    name: 'Cold call',
    description:
      'Outbound call to someone who did not expect it: earn the right to talk, give a reason, book a meeting.',
    callTypes: ['cold_call', 'warm_call'],
    criteria: [
      {
        key: 'permission_based_opener',
        title: 'Opens with permission',
        description:
          'Within the first turns the rep acknowledges the interruption and asks for a moment of time.',
        weight: 2,
        check: {
          type: 'mentions_before',
          any: [
            'do you have a minute',
            'do you have a moment',
            'got a minute',
            'got a moment',
            'caught you at a bad time',
            'catch you at a bad time',
            'is now a bad time',
            'is now a good time',
            'is this a bad time',
            'thirty seconds',
            '30 seconds',
            'mind if I',
            'would it be okay if',
            'out of the blue',
          ],
          before_turn: 4,
        },
      },
      {
        key: 'states_reason_for_call',
        title: 'States the reason for the call early',
        description:
          'In the first minute the rep says plainly why they are calling and why it might matter to this person.',
        weight: 2,
        check: {
          type: 'mentions_before',
          any: [
            "the reason I'm calling",
            'the reason I called',
            'reason for my call',
            'reason for the call',
            "I'm calling because",
            "I'm calling about",
            'calling because',
            "the reason I'm reaching out",
            'reaching out because',
            "why I'm calling",
          ],
          before_minute: 1,
        },
      },
      {
        key: 'asks_questions',
        title: 'Asks questions',
        description: 'The rep asks about the prospect’s situation instead of only pitching.',
        weight: 1,
        check: { type: 'questions', min: 3 },
      },
      handlesObjections([
        'not interested',
        'no budget',
        'already have',
        'already use',
        'already using',
        'already working with',
        'send me an email',
        'send me some information',
        'not a priority',
        'too busy',
        'bad time',
        'call me later',
        'no thanks',
      ]),
      balancedTalk(0.4, 0.6),
      noLongMonologues(120),
      agreesNextSteps(['15 minutes', '20 minutes', '30 minutes', 'grab some time', 'find a time']),
    ],
  },
  {
    key: 'demo_evaluation',
    name: 'Demo / evaluation',
    description:
      'Show how the product solves the pains found in discovery, check fit as you go, and map the decision.',
    callTypes: ['evaluation'],
    criteria: [
      setsAgenda,
      {
        key: 'recaps_priorities',
        title: 'Recaps the customer’s priorities',
        description:
          'Before showing anything the rep confirms what the customer said matters, so the demo is tailored.',
        weight: 2,
        check: {
          type: 'phrases',
          any: [
            'you mentioned',
            'last time you said',
            'last time we spoke',
            'as I understand',
            "correct me if I'm wrong",
            "what's changed since",
            'your priorities',
            'make sure I understand',
            'what you told us',
          ],
          min: 1,
        },
      },
      {
        key: 'checks_for_understanding',
        title: 'Checks in during the demo',
        description: 'The rep stops to ask how what they showed fits the customer’s world.',
        weight: 1,
        check: {
          type: 'phrases',
          any: [
            'does that make sense',
            'how does that compare',
            'how would this work for',
            'how would your team',
            'what questions do you have',
            'any questions so far',
            'does this look like',
            'how does that land',
            'would that work for you',
          ],
          min: 2,
        },
      },
      openQuestions(4, 1),
      {
        key: 'maps_decision_process',
        title: 'Maps the decision process',
        description: 'The rep learns who else decides, how the decision is made and on what timeline.',
        weight: 1,
        check: { type: 'phrases', any: DECISION_PROCESS, min: 1 },
      },
      handlesObjections([
        'concern',
        'concerned',
        'worried',
        'not sure',
        'competitor',
        'too complicated',
        "doesn't work",
        "we can't",
        'security',
        'integration',
        'too expensive',
      ]),
      handlesPricing,
      balancedTalk(0.4, 0.65),
      noLongMonologues(300),
      agreesNextSteps(['trial', 'pilot', 'proof of concept', 'security review', 'technical review']),
    ],
  },
  {
    key: 'negotiation',
    name: 'Negotiation',
    description:
      'Agree terms while holding value: restate the business case, trade rather than give, and set the path to signature.',
    callTypes: ['negotiation'],
    criteria: [
      setsAgenda,
      {
        key: 'restates_value',
        title: 'Restates value before price',
        description: 'The rep reminds the customer of the outcomes and business case agreed earlier.',
        weight: 2,
        check: {
          type: 'phrases',
          any: [...VALUE_LANGUAGE, 'outcome', 'outcomes', 'you told us', 'you mentioned'],
          min: 2,
        },
      },
      {
        key: 'trades_concessions',
        title: 'Trades concessions rather than discounting',
        description:
          'When asked for a better price, the rep asks for something in return (term, volume, timing, case study).',
        weight: 2,
        applies_when: {
          customer_mentions_any: [
            'discount',
            'too expensive',
            'over budget',
            'cheaper',
            'lower the price',
            'better price',
            'competitor',
          ],
        },
        check: {
          type: 'phrases',
          any: [
            'in exchange',
            'in return',
            'if you could',
            'if we could',
            'what if we',
            'would you be able to',
            'multi-year',
            'two-year',
            'three-year',
            'annual commitment',
            'sign by',
            'case study',
            'reference',
          ],
          min: 1,
        },
      },
      handlesObjections([
        'concern',
        'not sure',
        'too expensive',
        'legal',
        'terms',
        'contract',
        'competitor',
        'budget',
      ]),
      openQuestions(3, 1),
      {
        key: 'confirms_signing_process',
        title: 'Confirms the signing process',
        description: 'The rep learns who signs, what approvals remain and what could delay the signature.',
        weight: 1,
        check: {
          type: 'phrases',
          any: [...DECISION_PROCESS, 'signature', 'signing', 'signatory', 'redlines'],
          min: 1,
        },
      },
      balancedTalk(0.35, 0.55),
      customerTalks(0.4),
      noLongMonologues(200),
      agreesNextSteps(['contract', 'order form', 'paperwork', 'close date', 'countersign']),
    ],
  },
];
