import { describe, expect, it } from 'vitest';
import { createHeuristicInferrer, explainSpeakers, inferRepSpeaker } from './infer-speaker.js';
import { buildSpeakerModel } from './speaker-model.js';
import type { Turn } from './transcript.js';

const none = { excludedLabels: new Set<string>() };

function dialogue(lines: [string, string][]): Turn[] {
  return lines.map(([speaker, text]) => ({ speaker, text, start_ms: null }));
}

/** Rename every label through a map, keeping turn order. */
function relabel(turns: Turn[], map: Record<string, string>): Turn[] {
  return turns.map((t) => ({ ...t, speaker: map[t.speaker] ?? t.speaker }));
}

const coldCall = dialogue([
  ['Speaker 1', 'Hello, accounts payable, this is Ruth.'],
  [
    'Speaker 2',
    "Hi Ruth, this is Adam from Paylane. I know I'm calling out of the blue, do you have a minute?",
  ],
  ['Speaker 1', "A minute. What's this about?"],
  [
    'Speaker 2',
    'The reason for my call is that we help finance teams approve invoices from their phone. How do you handle invoice approvals today?',
  ],
  ['Speaker 1', "We're currently using email and a shared spreadsheet. My team hates it."],
  [
    'Speaker 2',
    'That is what most of our customers told us before switching. Would you be open to a short demo next week?',
  ],
  ['Speaker 1', 'Maybe. How much does it cost? Send me some information first.'],
  ['Speaker 2', "It depends on volume. I'll send you a one-pager today and a calendar invite for Tuesday."],
]);

describe('inferRepSpeaker', () => {
  it('finds a rep who speaks second', () => {
    const result = inferRepSpeaker(coldCall, none);
    expect(result?.label).toBe('Speaker 2');
    expect(result!.confidence).toBeGreaterThan(0);
    expect(result!.confidence).toBeLessThanOrEqual(1);
    expect(result!.signals).toMatchObject({ method: 'heuristic' });
  });

  it('finds a rep who speaks third, after a gatekeeper and the prospect (gatekeeper excluded)', () => {
    const turns = dialogue([
      ['Front Desk', 'Good morning, Alder Foods, how may I direct your call?'],
      ['Maya', 'Hello, joining now.'],
      ['Kenji', "Hi, could I speak with Maya Ross please? It's Kenji from Shelfwise."],
      ['Front Desk', "Who's calling again? And what is this regarding? I'll put you through."],
      [
        'Maya',
        "This is Maya. We're currently using a spreadsheet for stock counts and my team is stretched.",
      ],
      [
        'Kenji',
        'Thanks for taking my call. We help grocers count stock with a phone. How do you handle stock counts today, and who else would be involved?',
      ],
      ['Maya', 'Our budget is tight. How much does it cost?'],
      ['Kenji', "It depends on stores. I'll send you a quote and a calendar invite for Thursday."],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Kenji');
    expect(inferRepSpeaker(turns, { excludedLabels: new Set(['Front Desk']) })?.label).toBe('Kenji');
  });

  it('picks the rep, not the gatekeeper, in a screening call', () => {
    const turns = dialogue([
      ['Speaker 2', 'Thank you for calling Birch Legal, how may I direct your call?'],
      ['Speaker 1', "Hi, I'm trying to reach whoever runs your IT. It's Omar with Netsafe."],
      ['Speaker 2', 'May I ask what this is regarding? Is he expecting your call?'],
      ['Speaker 1', 'We help law firms back up their files. Is he available?'],
      ['Speaker 2', "He's in a meeting. I can take a message."],
      ['Speaker 1', 'Could I leave a message then? Thanks so much.'],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Speaker 1');
  });

  it('picks the agent in an inbound call where the caller speaks first', () => {
    const turns = dialogue([
      ['Lucas', "Hi, I'm calling about my invoice, I think we got charged twice."],
      [
        'Ana',
        "I'm sorry about that, I can definitely help. Let me check your account. How can I help besides the refund?",
      ],
      ['Lucas', 'Just the refund. My account email is lucas at example dot com.'],
      [
        'Ana',
        "I've issued the refund. Is there anything else I can help you with today? Thanks for calling.",
      ],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Ana');
  });

  it('picks the rep who leads over the sales engineer in a multi-party call', () => {
    const turns = dialogue([
      ['Grace', 'Hi everyone, sorry I am late.'],
      [
        'Ivo',
        "No problem. I've brought Lena along, she's our solutions engineer. The plan for today is to understand your setup, and we'll leave ten minutes for next steps. Does that sound okay?",
      ],
      ['Grace', "Sure. We're currently using an old on-premise system and my team wants single sign-on."],
      ['Lena', 'Which identity provider are you on?'],
      ['Grace', 'Okta.'],
      ['Lena', 'We support SAML with Okta.'],
      ['Ivo', 'What made you start looking now, and who else would be involved in the decision?'],
      ['Grace', 'Our CFO and IT.'],
      ['Ivo', "Great. I'll send a recap and a calendar invite, and Lena will set up a session with IT."],
    ]);
    const result = inferRepSpeaker(turns, { excludedLabels: new Set(['Grace']) });
    expect(result?.label).toBe('Ivo');
  });

  it('abstains on a symmetric chat between peers', () => {
    const turns = dialogue([
      ['Speaker 1', 'How was your weekend?'],
      ['Speaker 2', 'Good, we went to the lake. How about yours?'],
      ['Speaker 1', 'Quiet. I painted the kitchen.'],
      ['Speaker 2', 'Nice, what colour did you pick?'],
      ['Speaker 1', 'Light green. Are you coming to the barbecue on Saturday?'],
      ['Speaker 2', 'I think so. Should I bring anything?'],
    ]);
    expect(inferRepSpeaker(turns, none)).toBeNull();
  });

  it('abstains when two customers talk to each other', () => {
    const turns = dialogue([
      ['Ada', 'What did you think of that vendor? Our budget is already stretched.'],
      ['Ben', "Same. We're currently using the old tool until December, and it's too expensive anyway."],
      ['Ada', "We're evaluating two other tools too. My manager wants a comparison."],
      ['Ben', "Let's ask them to send me some information and decide next month."],
    ]);
    expect(inferRepSpeaker(turns, none)).toBeNull();
  });

  it('never returns an excluded label', () => {
    const result = inferRepSpeaker(coldCall, { excludedLabels: new Set(['Speaker 2']) });
    expect(result?.label).not.toBe('Speaker 2');
    expect(inferRepSpeaker(coldCall, { excludedLabels: new Set(['Speaker 1', 'Speaker 2']) })).toBeNull();
  });

  it('is invariant to relabelling and to the order in which speakers first appear', () => {
    const base = inferRepSpeaker(coldCall, none);
    const swapped = inferRepSpeaker(
      relabel(coldCall, { 'Speaker 1': 'Speaker 2', 'Speaker 2': 'Speaker 1' }),
      none,
    );
    expect(swapped?.label).toBe('Speaker 1');
    expect(swapped?.confidence).toBe(base?.confidence);
    const named = inferRepSpeaker(relabel(coldCall, { 'Speaker 1': 'Zoe', 'Speaker 2': 'Aaron' }), none);
    expect(named?.label).toBe('Aaron');
    // The rep now opens the call: the answer and its confidence do not change.
    const repFirst = inferRepSpeaker(coldCall.slice(1), none);
    const repFirstRelabelled = inferRepSpeaker(
      relabel(coldCall.slice(1), { 'Speaker 1': 'B', 'Speaker 2': 'A' }),
      none,
    );
    expect(repFirst?.label).toBe('Speaker 2');
    expect(repFirstRelabelled?.label).toBe('A');
  });

  it('does not favour the first speaker when nothing distinguishes the speakers', () => {
    const turns = dialogue([
      ['Speaker 1', 'Hello.'],
      ['Speaker 2', 'Hello.'],
      ['Speaker 1', 'Okay.'],
      ['Speaker 2', 'Okay.'],
    ]);
    expect(inferRepSpeaker(turns, none)).toBeNull();
  });

  it('finds a rep who never names a company, from who asks about whom and who offers to act', () => {
    const turns = dialogue([
      ['Speaker 1', 'Okay, I think everyone who needs to be here is here.'],
      ['Speaker 2', 'Great. How long does it take your team to approve a new vendor today, roughly?'],
      ['Speaker 1', 'Three weeks. Our finance people check everything by hand, and my boss signs last.'],
      ['Speaker 2', 'What goes wrong in those three weeks, and who else is involved besides finance?'],
      ['Speaker 1', 'Legal, sometimes. Our current process loses documents.'],
      [
        'Speaker 2',
        "Of course. I can set up a shared checklist for your team, and I'll send you an example this week.",
      ],
      ['Speaker 1', 'Please do.'],
    ]);
    const result = inferRepSpeaker(turns, none);
    expect(result?.label).toBe('Speaker 2');
    const relabelled = inferRepSpeaker(relabel(turns, { 'Speaker 1': 'Nadia', 'Speaker 2': 'Tom' }), none);
    expect(relabelled?.label).toBe('Tom');
    expect(relabelled?.confidence).toBe(result?.confidence);
  });

  it('picks the agent of an inbound call joined after the greeting', () => {
    const turns = dialogue([
      ['Caller', 'so our licence stopped working this morning and my whole office is locked out'],
      [
        'Agent',
        "I'm sorry about that. I can see your renewal went through, so let me send you the new key now.",
      ],
      ['Caller', 'Got it, thanks. Our IT person is away.'],
      ['Agent', "No problem, I'll walk you through it. Is there anything else I can help with?"],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Agent');
  });

  it('does not pick on pronoun and question balance alone', () => {
    const turns = dialogue([
      ['A', 'I had a long week. I moved flat and I am still unpacking.'],
      ['B', 'How did your move go? Do you like your new place? Are you near your family?'],
      ['A', 'I think so. I still need to buy a sofa.'],
      ['B', 'Do you have a car to carry it? Would your brother help you?'],
    ]);
    expect(inferRepSpeaker(turns, none)).toBeNull();
  });

  it('abstains when a rep and a sales engineer both carry the seller side', () => {
    const turns = dialogue([
      ['Client', 'Hi both.'],
      [
        'Ana',
        "Thanks for joining. We help clinics automate intake, and our customers usually cut admin time in half. I'll send you a recap.",
      ],
      [
        'Ben',
        "We integrate with your scheduling system, and our platform can import your forms. I'll send you the integration guide.",
      ],
      ['Client', 'Our current forms are paper.'],
    ]);
    expect(inferRepSpeaker(turns, { excludedLabels: new Set(['Client']) })).toBeNull();
  });

  it('finds a rep who speaks second from who answers the questions about the product', () => {
    const turns = dialogue([
      ['Speaker 1', 'Thanks for jumping on. Does it connect to our accounting system?'],
      ['Speaker 2', 'Yes, it syncs both ways every hour, and nothing has to be typed twice.'],
      ['Speaker 1', 'And how much would it cost for twenty people?'],
      ['Speaker 2', 'Twenty seats come to about four hundred a month, billed yearly.'],
      ['Speaker 1', 'Is there a trial?'],
      ['Speaker 2', 'There is. Shall I set one up for your team this week?'],
      ['Speaker 1', 'Sure.'],
    ]);
    const result = inferRepSpeaker(turns, none);
    expect(result?.label).toBe('Speaker 2');
    const swapped = inferRepSpeaker(
      relabel(turns, { 'Speaker 1': 'Speaker 2', 'Speaker 2': 'Speaker 1' }),
      none,
    );
    expect(swapped?.label).toBe('Speaker 1');
    expect(swapped?.confidence).toBe(result?.confidence);
  });

  it('finds the caller who answers the screening questions of an assistant', () => {
    const turns = dialogue([
      ['Paula', "Good morning, Mr. Reyes's office."],
      ['Tariq', 'Morning. Is he free for a quick word?'],
      ['Paula', "Can I ask where you're calling from?"],
      ['Tariq', 'Tariq Amin, from Ledgerly. We help family businesses close their books faster.'],
      ['Paula', 'Is he expecting you?'],
      ['Tariq', 'No, this would be a first conversation.'],
      ['Paula', "He's away this week. I can note it down for when he's back."],
      ['Tariq', "I'd appreciate that, thank you. I'll send him a short note as well."],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Tariq');
  });

  it('finds a rep who speaks third and lets a sales engineer answer the technical questions', () => {
    const turns = dialogue([
      ['Buyer', 'I read your docs, I mostly have integration questions.'],
      ['Engineer', 'Happy to help. Which identity provider are you on? We support SAML and OIDC.'],
      ['Buyer', 'We use Azure AD. Does it support customer-managed encryption keys?'],
      ['Engineer', 'It does, on the enterprise tier, through your cloud key service.'],
      [
        'Account Lead',
        "Thanks both. On the commercial side, I'll reflect the enterprise tier in the proposal, and I'll send a recap with next steps and a calendar invite for your security review.",
      ],
      ['Buyer', 'Sounds good.'],
    ]);
    const result = inferRepSpeaker(turns, { excludedLabels: new Set(['Buyer']) });
    expect(result?.label).toBe('Account Lead');
  });

  it('finds a rep in lower-case, unpunctuated ASR text from an offer to act and a discovery question', () => {
    const turns = dialogue([
      ['spk_0', 'yeah so right now we do all of it in spreadsheets and my team hates it'],
      ['spk_1', 'how many people on your team touch those spreadsheets every week'],
      ['spk_0', 'about twelve and our finance lead checks everything by hand'],
      ['spk_1', 'what does a mistake cost you when one slips through'],
      ['spk_0', 'last quarter we paid a supplier twice so a lot'],
      [
        'spk_1',
        'would it help if i put together a short comparison and sent it over to you and your finance lead',
      ],
      ['spk_0', 'yes please'],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('spk_1');
  });

  it('abstains on a symmetric dialogue where both sides ask and answer', () => {
    const turns = dialogue([
      ['Speaker 1', 'Did you get a chance to look at the two proposals?'],
      ['Speaker 2', 'I did. Our budget only covers one of them. What did you think?'],
      ['Speaker 1', 'I liked the second one, but our team would need training. How long would that take us?'],
      ['Speaker 2', 'A week maybe. Should we ask them both for references?'],
      ['Speaker 1', "Yes, let's ask both and decide on Friday."],
    ]);
    expect(inferRepSpeaker(turns, none)).toBeNull();
  });

  it('reads a very long call within its budget and still finds the rep, whatever the labels', () => {
    const repLines = [
      'Thanks for making the time today. How does your team handle onboarding right now?',
      "Our platform connects to the tools you already use. I'll send you a recap and a calendar invite.",
    ];
    const buyerLines = [
      "We're currently using spreadsheets and honestly it's a mess for my team.",
      'How much does it cost for fifty users? Our budget is set in January.',
    ];
    const turns: Turn[] = [];
    for (let i = 0; i < 2000; i++) {
      const lines = i % 2 === 0 ? buyerLines : repLines;
      turns.push({
        speaker: i % 2 === 0 ? 'Speaker 1' : 'Speaker 2',
        text: lines[i % 4 < 2 ? 0 : 1]!.repeat(2),
        start_ms: null,
      });
    }
    expect(inferRepSpeaker(turns, none)?.label).toBe('Speaker 2');
    const swapped = relabel(turns, { 'Speaker 1': 'Speaker 2', 'Speaker 2': 'Speaker 1' });
    expect(inferRepSpeaker(swapped, none)?.label).toBe('Speaker 1');
  });

  it('does not read a spoken email address as a self-introduction', () => {
    const turns = dialogue([
      ['Speaker 2', "hi i'm having trouble with the invoices, they're not going out to our clients"],
      ['Speaker 1', "sorry to hear that, let's sort it out. can you tell me the email on the account"],
      ['Speaker 2', "it's accounts at brightline dot com"],
      [
        'Speaker 1',
        "thanks. i can see the sender isn't verified, so messages are held. i'll resend the verification link now",
      ],
      ['Speaker 2', 'okay got it, i clicked it'],
      ['Speaker 1', 'great, the held invoices will go out in a few minutes. anything else i can help with'],
      ['Speaker 2', "no that's all thanks"],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Speaker 1');
  });

  it('finds the persuader of a donation chat who speaks second, whatever the labels', () => {
    const turns = dialogue([
      ['Speaker 1', 'Hi there, how are you today?'],
      [
        'Speaker 2',
        "I'm well, thanks. Have you heard of Brightside Kids? It's a charity that provides meals and school supplies to children.",
      ],
      ['Speaker 1', "I haven't. What does the charity do exactly?"],
      [
        'Speaker 2',
        'They run school kitchens in twelve countries. Would you be willing to donate part of your payment today? Even a small donation goes a long way.',
      ],
      ['Speaker 1', 'Money is tight for me right now. How much are you giving?'],
      [
        'Speaker 2',
        'A dollar. How much would you like to give? Any amount helps, and your donation goes straight to the kitchens.',
      ],
      ['Speaker 1', "Okay, I'll donate fifty cents. My donation is small but it's something."],
      ['Speaker 2', 'Thank you, that is really kind of you.'],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Speaker 2');
    const swapped = relabel(turns, { 'Speaker 1': 'Speaker 2', 'Speaker 2': 'Speaker 1' });
    expect(inferRepSpeaker(swapped, none)?.label).toBe('Speaker 1');
  });

  it('finds a fundraiser who speaks third, after a host and the donor', () => {
    const turns = dialogue([
      ['Host', 'Welcome, both of you. You have ten minutes, starting now.'],
      ['Donor', 'Hi! Nice to meet you.'],
      [
        'Fundraiser',
        "Likewise. I'm here to talk to you about the Eastside library fund. Are you willing to donate a little today?",
      ],
      ['Donor', "Maybe. I don't have much spare money this month."],
      ['Fundraiser', "Any donation helps, even if it's small. I'll match whatever you give."],
      ['Donor', 'Okay, I will give two dollars.'],
      ['Fundraiser', 'Thank you so much for your gift.'],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Fundraiser');
  });

  it('abstains when both sides of a donation chat pledge and ask each other', () => {
    const turns = dialogue([
      ['Speaker 1', 'Hi! Are you going to donate to the children’s charity?'],
      ['Speaker 2', "I think so, I'll donate a dollar. Would you be willing to donate too?"],
      ['Speaker 1', "Yes, I'll donate a dollar as well. How much do you usually give?"],
      ['Speaker 2', 'About ten dollars a year. And you?'],
      ['Speaker 1', 'About the same.'],
    ]);
    expect(inferRepSpeaker(turns, none)).toBeNull();
  });

  it('does not read "I\'m familiar with them" as a self-introduction', () => {
    const turns = dialogue([
      ['Lena', 'Would you think about giving to the river clean-up fund this month?'],
      ['Omar', "i'm familiar with them, my cousin helped last spring. do they publish their accounts?"],
      ['Lena', 'Yes, every year on their site.'],
    ]);
    const omar = explainSpeakers(turns).find((e) => e.label === 'Omar');
    expect(omar?.cues).not.toHaveProperty('seller.company_intro');
  });

  it('finds the asker of a donation whom the donor keeps asking small-talk questions', () => {
    const turns = dialogue([
      ['Donor', 'Hello! How are you doing today?'],
      ['Asker', "I'm good, thanks. How much would you like to give to the children's hospital fund today?"],
      ['Donor', 'Maybe a little. How was your weekend?'],
      [
        'Asker',
        "Quiet, I mostly read. Your gift pays for a night's stay for a parent, and even a small one goes a long way.",
      ],
      ['Donor', 'How about you, have you given?'],
      ['Asker', 'I give every month.'],
      ['Donor', "Okay, I'll donate a dollar."],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Asker');
    expect(inferRepSpeaker(relabel(turns, { Donor: 'Asker', Asker: 'Donor' }), none)?.label).toBe('Donor');
  });

  it('abstains on small talk where one side asks every greeting question', () => {
    const turns = dialogue([
      ['Speaker 1', 'Hello! How are you doing today?'],
      ['Speaker 2', "I'm good, I just got back from a walk."],
      ['Speaker 1', 'Nice. How was your weekend?'],
      ['Speaker 2', 'Quiet, I mostly read. How about you?'],
      ['Speaker 1', 'I went hiking with my brother. And you, any plans tonight?'],
      ['Speaker 2', 'I think I will cook something.'],
    ]);
    expect(inferRepSpeaker(turns, none)).toBeNull();
  });

  it('finds a rep who speaks second on a follow-up call, from the earlier contact and the offers to act', () => {
    const turns = dialogue([
      ['Prospect', 'Facilities, Priya here.'],
      [
        'Caller',
        "Hi Priya, it's Tom. When we last spoke you were comparing cleaning rotas for the depots. I just wanted to see how that went.",
      ],
      [
        'Prospect',
        'It stalled when our operations manager left. The new one is keen, but she dislikes long presentations.',
      ],
      ['Caller', 'Understandable. We could trial one depot for a fortnight instead. Would she go for that?'],
      ['Prospect', 'She might. Can you send the trial terms again? I lost the email.'],
      ['Caller', "I'll resend them this afternoon with a one-page summary for her."],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Caller');
  });

  it("does not read the rep's question about the buyer's spend as a question about the offering", () => {
    const turns = dialogue([
      [
        'Speaker A',
        'Our problem is overtime. Every site plans its own shifts, gaps get covered by overtime, and overtime eats the budget.',
      ],
      ['Speaker B', 'How much is overtime costing?'],
      ['Speaker A', 'About two million a year across our six sites. The board wants it down by a third.'],
      ['Speaker B', 'Has anything been tried already?'],
      ['Speaker A', 'We tried a shared calendar and our supervisors stopped updating it after a month.'],
      ['Speaker B', 'What would make supervisors keep a tool up to date?'],
      ['Speaker A', 'If it took them less time than the phone calls they make now.'],
      [
        'Speaker B',
        "Thanks, that helps. I'd like to come back with how two similar operators handled it, if that would be useful.",
      ],
      ['Speaker A', 'Yes, send it over.'],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Speaker B');
  });

  it('finds the caller whom a receptionist screens with indirect questions, in unpunctuated text', () => {
    const turns = dialogue([
      ['speaker 1', 'hello northgate veterinary how can i help'],
      ['speaker 2', 'hi there could i speak to whoever manages the clinic please'],
      ['speaker 1', "can i ask what it's regarding"],
      ['speaker 2', "it's about your appointment reminders i'm with a company called pawtext"],
      ['speaker 1', "we don't take sales calls sorry, you can email the office"],
      ['speaker 2', 'okay thanks for your time'],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('speaker 2');
  });

  it('finds the rep who demonstrates the product to a buyer asking what it can do', () => {
    const turns = dialogue([
      ['Speaker 1', 'Can it print the timesheets? Our payroll clerk wants paper.'],
      [
        'Speaker 2',
        'Yes, every timesheet, with this button here. You can also send them to payroll every Friday.',
      ],
      ['Speaker 1', 'Every Friday. Can I hide the overtime column?'],
      ['Speaker 2', 'Yes, you pick the columns once and the weekly send keeps them.'],
      ['Speaker 1', 'And it handles night shifts across midnight?'],
      ['Speaker 2', 'It does, a shift belongs to the day it started.'],
      ['Speaker 1', 'Fine. Show me the Friday setting again?'],
      ['Speaker 2', 'Sure, let me go back.'],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Speaker 2');
  });

  it('finds the rep who introduces the solutions engineer, even when the engineer asks most questions', () => {
    const turns = dialogue([
      ['Dana', 'Hi Rosa. Dana here, and Lee is our solutions engineer.'],
      ['Lee', 'Hello!'],
      ['Rosa', 'Hi both. We run about forty microservices and our alerts are noisy.'],
      ['Lee', 'How many alerts does on-call get in a week? Would you want to keep your current pager tool?'],
      ['Rosa', 'Maybe two hundred, and yes, we keep the pager.'],
      ['Lee', "Then I'd suggest we route through your pager. We can dedupe at our side."],
      ['Rosa', 'That works. Security will want our review done first.'],
      [
        'Dana',
        "Then we'll get you our security pack this week. I'll put a trial plan together with Lee and share it Friday.",
      ],
      ['Rosa', 'Good.'],
    ]);
    expect(inferRepSpeaker(turns, none)?.label).toBe('Dana');
  });

  it('counts a phrase that fits two cue families once, for the first family', () => {
    const turns = dialogue([
      ['Speaker 1', "Great. I'll send the invite for Thursday."],
      ['Speaker 2', 'Thanks.'],
    ]);
    const cues = explainSpeakers(turns).find((e) => e.label === 'Speaker 1')?.cues;
    expect(cues).toEqual({ 'seller.next_steps': 1 });
  });

  it('reads a buyer profiling their own organisation, and a seller telling what the buyer would be able to do', () => {
    const turns = dialogue([
      ['Speaker 1', "We've got eleven doors and we're a small firm. We have about 300 drivers a week."],
      [
        'Speaker 2',
        "Then you'd be able to book doors ahead, and we'd recommend starting with the shared ones.",
      ],
    ]);
    const [buyer, seller] = ['Speaker 1', 'Speaker 2'].map(
      (label) => explainSpeakers(turns).find((e) => e.label === label)?.cues as Record<string, number>,
    );
    // "We're a small firm" is said by sellers of their own company too: it does not count.
    expect(buyer).toMatchObject({ 'buyer.own_profile': 2 });
    expect(seller).toMatchObject({ 'seller.benefit_to_you': 2 });
  });

  it('reads questions about how the work runs now as the seller asking', () => {
    const turns = dialogue([
      ['Speaker 1', 'And how often does a crew miss the sheet, roughly? Who chases them today?'],
      ['Speaker 2', 'Most weeks. My sister chases them. How much have you donated today? How are you today?'],
    ]);
    const cues = (label: string) => explainSpeakers(turns).find((e) => e.label === label)?.cues ?? {};
    expect(cues('Speaker 1')).toMatchObject({ 'seller.situation_question': 2 });
    // "How much … you" is asked by either side about money, "how are you today?" is a greeting: neither is a
    // question about the buyer's work.
    expect(cues('Speaker 2')).not.toHaveProperty('seller.situation_question');
  });

  describe('a colleague brought in by name', () => {
    const handedOver = dialogue([
      ['Hana', 'thanks for joining Jorge, i brought Kofi today, he knows the integrations'],
      ['Kofi', 'hi Jorge'],
      ['Jorge', 'hello. what do you need to know?'],
      [
        'Kofi',
        'Walk me through how the orders come in today. How many orders a day, roughly? How do you handle the email ones?',
      ],
      ['Jorge', 'We currently get eight hundred a day. Our team types the email ones in by hand.'],
      [
        'Kofi',
        "What happens when one is wrong? Who else would be involved? We can write orders into your system and I'll send you a short list of questions.",
      ],
      ['Jorge', 'My manager fixes it. Okay.'],
    ]);

    it('makes whoever brought a specialist in the rep, whatever the labels and order', () => {
      const result = inferRepSpeaker(handedOver, none);
      expect(result).toMatchObject({ label: 'Hana', signals: { decided_by: 'introduced' } });
      const renamed = relabel(handedOver, { Hana: 'Ines', Kofi: 'Ama', Jorge: 'Luis' }).map((t) => ({
        ...t,
        text: t.text.replace(/Kofi/g, 'Ama').replace(/Jorge/g, 'Luis'),
      }));
      expect(inferRepSpeaker([...renamed.slice(1), renamed[0]!], none)?.label).toBe('Ines');
    });

    it('leaves it undecided when whoever brought them sounds like the buyer, unless the words are sure', () => {
      const turns = handedOver.map((t) =>
        t.speaker === 'Hana'
          ? {
              ...t,
              text: "thanks for joining, i brought Kofi today. we're currently using spreadsheets and my team is stuck",
            }
          : t,
      );
      /** A word model that knows one word, said by Kofi only, weighted `weight`; nobody weighted by `nobodyBias`. */
      const ordersModel = (weight: number, nobodyBias: number) =>
        buildSpeakerModel(['s:orders'], Float64Array.of(weight), Float64Array.of(0), nobodyBias);
      // The phrases cannot tell Hana from Kofi, and a model without an opinion leaves it so.
      expect(inferRepSpeaker(turns, none, ordersModel(0, 0))).toBeNull();
      // A model sure of Kofi (0.9 or more) with a seller surely present decides...
      expect(inferRepSpeaker(turns, none, ordersModel(10, -10))).toMatchObject({
        label: 'Kofi',
        signals: { decided_by: 'word_model', phrases: 'undecidable' },
      });
      // ...but not while it leaves room for a call without a seller.
      expect(inferRepSpeaker(turns, none, ordersModel(10, 7))).toBeNull();
    });
  });

  it('reads a screener asking which firm a caller is with, and the caller asking for time with someone', () => {
    const turns = dialogue([
      ['Speaker 1', 'Good afternoon, office of the finance director.'],
      ['Speaker 2', "Hi, I'm looking for a few minutes with Robert about the quarter-end close."],
      ['Speaker 1', 'Are you calling from a company? Which firm are you with?'],
      ['Speaker 2', "A small advisory firm. Who would be the right first conversation if he's busy?"],
      ['Speaker 1', 'Email me a summary and I will pass it on.'],
    ]);
    const cues = (label: string) => explainSpeakers(turns).find((e) => e.label === label)?.cues ?? {};
    expect(cues('Speaker 1')).not.toHaveProperty('seller.company_intro');
    expect(cues('Speaker 1')).toMatchObject({ 'buyer.screening': 2 });
    expect(cues('Speaker 2')).toMatchObject({ 'seller.gatekeeper_navigation': 2 });
    expect(inferRepSpeaker(turns, none)?.label).toBe('Speaker 2');
  });

  it('tells the seller in a negotiation by who grants terms and who demands them', () => {
    const turns = dialogue([
      ['S1', 'We need ninety days for termination, and the cap fixed.'],
      ['S2', "What I've been authorised to offer is five times fees. Ninety days, I can move on that."],
      ['S1', 'Send me the revised draft and I will take it to our purchasing committee.'],
      ['S2', "I'll add the ninety days to the draft. Sending it over today."],
    ]);
    const cues = (label: string) => explainSpeakers(turns).find((e) => e.label === label)?.cues ?? {};
    expect(cues('S1')).toMatchObject({ 'buyer.demands_terms': 2 });
    expect(cues('S2')).toMatchObject({ 'seller.grants_terms': 3 });
  });

  it('reads "what\'s it cost me?" as the buyer asking the price', () => {
    const turns = dialogue([
      ['Caller', "What's it cost me to tag two hundred kegs? And what's that going to cost per month?"],
      ['Agent', "A one-off cost for the tags, then a monthly fee. I'll send you the numbers."],
    ]);
    const cues = explainSpeakers(turns).find((e) => e.label === 'Caller')?.cues;
    expect(cues).toMatchObject({ 'buyer.price_question': 2 });
  });

  it('does not read a request to send or share files, or a "what if we…" proposal, as the buyer asking the vendor', () => {
    const turns = dialogue([
      [
        'Speaker 1',
        'Could you share the breakdown log for the last six months? Can you send the annexure too? What if we moved the depot to phase two?',
      ],
      ['Speaker 2', 'I will share it by tomorrow.'],
    ]);
    const cues = explainSpeakers(turns).find((e) => e.label === 'Speaker 1')?.cues ?? {};
    expect(cues).not.toHaveProperty('buyer.asks_vendor');
  });

  it('reads a name with a company as a self-introduction, not an adverb, an adjective or a spelled-out address', () => {
    const cues = (text: string) => explainSpeakers(dialogue([['A', text]]))[0]?.cues ?? {};
    expect(cues('This is Neil Barker from Barker and Sons.')).toMatchObject({ 'seller.company_intro': 1 });
    for (const text of [
      'I am only comfortable with giving fifty cents.',
      'I am currently looking at the site.',
      'This is important, with the other vendor it was a problem.',
      "Sure, it's jo at harbourview lettings dot com.",
    ])
      expect(cues(text)).not.toHaveProperty('seller.company_intro');
  });

  it('picks the rep ahead of a quieter specialist when the third voice is the buyer, whatever the labels', () => {
    const turns = dialogue([
      ['A', 'Hello, can everyone hear me? Sorry, the office network is slow today.'],
      [
        'B',
        'We can hear you. Thanks for setting this up. Dana is here from our side to go through the integration with you.',
      ],
      ['C', 'Hi there.'],
      [
        'A',
        "Let me describe our setup first. We have an HR system that holds the employee records, and we run payroll through an outside bureau. We're currently using spreadsheets to move data between them, and my team hates it.",
      ],
      ['C', 'Where would the platform get the employee list from, the HR system directly?'],
      ['A', 'Directly, please. Our payroll file only arrives once a month.'],
      ['C', 'Does your HR system have an API? I can send you our notes on it.'],
      ['A', 'It has one, but our vendor limits the calls per hour.'],
      ['B', 'Who would know about the limits? Is that your team?'],
      ['A', 'Procurement holds our contract. I can ask them.'],
      ['B', 'Dana can confirm the hosting details in writing.'],
      ['C', "I'll put it in the summary."],
    ]);
    expect(inferRepSpeaker(turns, none)).toMatchObject({
      label: 'B',
      signals: { decided_by: 'ahead_of_colleague' },
    });
    const renamed = relabel(turns, { A: 'Speaker 2', B: 'Speaker 3', C: 'Speaker 1' });
    expect(inferRepSpeaker(renamed, none)?.label).toBe('Speaker 3');
  });

  it('reads terms granted on a condition as the seller granting them', () => {
    const turns = dialogue([
      ['X', 'We talked it through internally and the number is still too high for us.'],
      ['Y', 'If you commit to two years, we can hold the price.'],
    ]);
    const y = explainSpeakers(turns).find((e) => e.label === 'Y') as { cues: Record<string, number> };
    expect(y.cues['seller.grants_terms']).toBe(1);
  });

  it('makes no pick when a fourth voice steps in late beside a pick who does not run the call', () => {
    const early: [string, string][] = [
      ['A', 'So we ran the pilot with two warehouses and the scanners worked most of the time.'],
      ['B', 'Great. How many orders did your team pick with it?'],
      ['C', 'About nine hundred in the first week, mostly the small parcels.'],
      ['B', 'Okay, that is more than I expected. Were the failures in the cold room?'],
      ['A', 'Yes, the cold room, the screens fog up.'],
      ['B', 'We can ship a sealed case for your cold room, I will send it this week.'],
      ['C', 'And the labels print twice sometimes.'],
      ['B', 'That is a setting, we can switch it off for your account today.'],
    ];
    const late: [string, string][] = [
      [
        'D',
        'Can I come in on dates? The pilot ends on the thirtieth; shall we add a week for the night crew?',
      ],
      ['A', 'A week sounds fine.'],
      ['D', 'Good, then the pick rate stays the measure for the review.'],
      ['A', 'Agreed.'],
    ];
    expect(inferRepSpeaker(dialogue(early), none)?.label).toBe('B');
    expect(inferRepSpeaker(dialogue([...early, ...late]), none)).toBeNull();
    const renamed = relabel(dialogue([...early, ...late]), {
      A: 'spk_3',
      B: 'spk_1',
      C: 'spk_4',
      D: 'spk_2',
    });
    expect(inferRepSpeaker(renamed, none)).toBeNull();
  });

  it('makes no pick when the seller-side voice presents itself as leading the team beside another seller voice', () => {
    const call = (intro: string): Turn[] =>
      dialogue([
        ['A', 'If the checkout fails again during the sale, we are leaving.'],
        ['R', 'Understood, I hear you.'],
        ['M', intro],
        ['A', 'Last time it was down for three hours.'],
        [
          'M',
          'I know, and I want to show you what is different this year. We can put a named engineer on your account for the whole weekend.',
        ],
        ['R', 'I will send you the load test results today.'],
        ['M', 'We can also run a rehearsal with your team two weeks before, so your staff see it working.'],
        ['K', 'Our finance team will want that in writing.'],
        ['M', 'Of course, we can put that in writing for your contract.'],
      ]);
    expect(
      inferRepSpeaker(call('Hi, this is Noor, I asked to join because last year went badly.'), none)?.label,
    ).toBe('M');
    expect(
      inferRepSpeaker(
        call('Hi, this is Noor, I manage the team here, I asked to join because last year went badly.'),
        none,
      ),
    ).toBeNull();
  });

  it('reads "she\'ll drive today" after an introduction as handing the call to a colleague, whatever the labels', () => {
    const turns = dialogue([
      ['C', 'I think the recording is on. Our IT lead is here too, I run the kitchens.'],
      ['R', "Thanks. And I have Priya with me, she is on our engineering side, she'll drive today."],
      ['S', 'Hello. So I would like to understand the fridges first and then your ordering system.'],
      ['I', 'The fridges log temperatures to a little screen on the door, nothing else.'],
      ['S', 'Okay. Do you know if the controller has a network port?'],
      ['I', 'No idea, we never opened it.'],
      [
        'S',
        'Then we can read it with a small sensor instead. And your ordering system, does it have an API?',
      ],
      ['C', 'Our ordering system is an old one, our supplier hosts it for us.'],
      ['S', 'We can work with a nightly export too. How do your staff log in today?'],
      ['I', 'With their own email accounts.'],
      ['S', 'That works. I will draw the setup and send it next week.'],
      ['R', 'And I will send the data agreement so your lawyer can look at it.'],
    ]);
    expect(inferRepSpeaker(turns, none)).toMatchObject({ label: 'R', signals: { decided_by: 'runs_call' } });
    const renamed = relabel(turns, { C: 'Speaker 4', R: 'Speaker 3', S: 'Speaker 1', I: 'Speaker 2' });
    expect(inferRepSpeaker(renamed, none)?.label).toBe('Speaker 3');
  });

  it('exposes an async adapter for the speaker ladder port', async () => {
    const infer = createHeuristicInferrer();
    await expect(infer(coldCall, none)).resolves.toMatchObject({ label: 'Speaker 2' });
    await expect(infer([], none)).resolves.toBeNull();
  });
});
