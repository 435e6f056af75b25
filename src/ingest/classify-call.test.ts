import { describe, expect, it } from 'vitest';
import { CALL_TYPES, classifyCall } from './classify-call.js';
import type { Turn } from './transcript.js';

function dialogue(lines: [string, string][]): Turn[] {
  return lines.map(([speaker, text]) => ({ speaker, text, start_ms: null }));
}

describe('classifyCall', () => {
  it('lists the ten call types of the spec', () => {
    expect(CALL_TYPES).toHaveLength(10);
  });

  it('recognises a gatekeeper call', () => {
    const turns = dialogue([
      ['Desk', 'Good morning, Orion Labs, how may I direct your call?'],
      ['Rep', 'Could I speak with the head of facilities?'],
      ['Desk', "Who's calling, and what is this regarding?"],
      ['Rep', 'Sam from Brightlamp, about lighting. Is she available?'],
      ['Desk', "She's in a meeting. I can take a message."],
    ]);
    expect(classifyCall(turns, 'Rep')).toMatchObject({ callType: 'gatekeeper', fallback: false });
  });

  it('recognises an inbound call', () => {
    const turns = dialogue([
      ['Agent', 'Thanks for calling Northwind, how can I help you?'],
      ['Caller', "Hi, I'm calling about my invoice. I'd like to check a charge."],
      ['Agent', 'Of course. Is there anything else I can help with?'],
    ]);
    expect(classifyCall(turns, 'Agent').callType).toBe('inbound_call');
  });

  it('recognises a cold call', () => {
    const turns = dialogue([
      ['Prospect', "Hello? Who's this?"],
      [
        'Rep',
        "It's Lee from Tidy. You don't know me, and I'll be quick: did I catch you at a bad time? The reason I'm calling is your fleet.",
      ],
      ['Prospect', "I'm not interested, send me an email."],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('cold_call');
  });

  it('recognises a negotiation and a technical discovery', () => {
    const negotiation = dialogue([
      ['Buyer', 'Procurement wants a discount and net sixty payment terms.'],
      ['Rep', 'I can offer a price lock on a two-year term and send a revised order form for signature.'],
      ['Buyer', 'Legal also sent redlines on the liability cap.'],
    ]);
    expect(classifyCall(negotiation, 'Rep').callType).toBe('negotiation');
    const technical = dialogue([
      ['Buyer', 'We need SSO with Okta over SAML, and SCIM provisioning.'],
      ['Rep', 'Both are supported, and our API has webhooks and rate limits you can raise.'],
      [
        'Buyer',
        'What about data residency and the migration of our Postgres database? Security review needs your SOC 2.',
      ],
    ]);
    expect(classifyCall(technical, 'Rep').callType).toBe('technical_discovery');
  });

  it('recognises customer success and cross-selling', () => {
    const success = dialogue([
      ['Csm', 'Welcome to our quarterly business review. Usage is up, and your support tickets are down.'],
      ['Client', 'Adoption in the warehouse is still low.'],
      ['Csm', "I'll plan training sessions before your renewal."],
    ]);
    expect(classifyCall(success, 'Csm').callType).toBe('customer_success');
    const crossSell = dialogue([
      [
        'Ae',
        "We've just launched an add-on that plugs into what you already have. As an existing customer you could upgrade.",
      ],
      ['Client', 'Would the upgrade change our current plan?'],
      ['Ae', 'It would sit on top of your current plan, and we could align the dates of the expansion.'],
    ]);
    expect(classifyCall(crossSell, 'Ae').callType).toBe('cross_selling');
  });

  it('recognises an evaluation', () => {
    const turns = dialogue([
      ['Rep', 'Let me share my screen. Can you see my screen? Let me show you the dashboard.'],
      ['Buyer', 'How does this compare to the other vendor?'],
      ['Rep', 'Side by side, ours drills into each deal. We can run a pilot with success criteria.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('evaluation');
  });

  it('falls back to discovery on an empty or neutral call', () => {
    expect(classifyCall([], null)).toMatchObject({ callType: 'discovery', fallback: true });
    const neutral = dialogue([
      ['A', 'Hello there.'],
      ['B', 'Hi, nice weather today.'],
      ['A', 'It is. See you later.'],
    ]);
    expect(classifyCall(neutral, 'A')).toMatchObject({ callType: 'discovery', fallback: true });
  });

  it('classifies without a known rep', () => {
    const turns = dialogue([
      ['X', 'Thanks for calling, how can I help you?'],
      ['Y', "I'm calling about my order, I'd like to return it."],
    ]);
    expect(classifyCall(turns, null).callType).toBe('inbound_call');
  });
  it('recognises an inbound call from who opened it: the buyer asks first, the rep makes no outbound introduction', () => {
    const turns = dialogue([
      ['Speaker 1', 'hi um i was on your website and i wanted to ask about pricing for a team of twelve'],
      ['Speaker 2', 'sure happy to walk you through it what are you using today'],
      ['Speaker 1', 'just shared calendars and a lot of texting'],
      ['Speaker 2', 'got it i can send you a quote this afternoon'],
    ]);
    expect(classifyCall(turns, 'Speaker 2').callType).toBe('inbound_call');
  });

  it('reads an existing customer buying more as cross-selling, not negotiation', () => {
    const turns = dialogue([
      [
        'Ana',
        'Since your payroll is already with us, the expenses add-on plugs into the same employee records.',
      ],
      ['Client', 'What would that add to my bill? We are on the standard plan.'],
      [
        'Ana',
        'About four dollars per employee, at your current rate, and I would co-term it with your renewal.',
      ],
      ['Client', 'Send me the details and I will look at it with finance.'],
    ]);
    expect(classifyCall(turns, 'Ana').callType).toBe('cross_selling');
  });

  it('counts a repeated technical word once, so a discovery call stays discovery', () => {
    const turns = dialogue([
      ['Rep', 'Walk me through how your team handles a new order today. Who else is involved?'],
      [
        'Buyer',
        'Our integration team keys it in. The integration is manual, the integration breaks, integration, integration.',
      ],
      ['Rep', 'What happens when an order slips through, and what did the last one cost you?'],
      ['Buyer', 'We lost a customer last quarter. Honestly it is a pain.'],
      ['Rep', 'If you could fix one thing this year, what would it be?'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('discovery');
  });

  it('names the better of two close specific types instead of falling back to discovery', () => {
    const turns = dialogue([
      ['Desk', "Good afternoon, Dr. Patel's office, this is Sue."],
      ['Rep', "Hi Sue, it's Nate from Smilebook, I'm hoping to get a word with the practice manager."],
      ['Desk', "She's with a patient. For providers she says to send an email first."],
      ['Rep', 'No problem, could I get her email?'],
    ]);
    expect(classifyCall(turns, 'Rep')).toMatchObject({ callType: 'gatekeeper', fallback: false });
  });

  it('reads a call the rep placed, with no prior touch, as a cold call even when it turns technical', () => {
    const turns = dialogue([
      ['Owner', 'Harbor Plumbing, this is Jo.'],
      ['Rep', 'Hi Jo, it is Sam. Do you schedule your vans by hand at the moment?'],
      ['Owner', 'Mostly a whiteboard. We looked at an integration with our accounting database once.'],
      ['Rep', 'Ours has an API and connects to most accounting tools. Could I send a short overview?'],
      ['Owner', 'Go on then.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('cold_call');
  });

  it('reads a call that names what the prospect did with our content as a warm call', () => {
    const turns = dialogue([
      ['Prospect', 'Hello?'],
      ['Rep', 'Hi, is this Kim? You grabbed our pricing guide on Monday, so I thought I would check in.'],
      ['Prospect', 'Oh right, I did. We are comparing a few options.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('warm_call');
  });

  it('reads an existing customer offered a higher plan as cross-selling, technical questions included', () => {
    const turns = dialogue([
      ['Client', 'Our audit flagged that the team using your tool logs in with passwords. We need SSO.'],
      [
        'Ae',
        'SSO with SAML and SCIM is part of the enterprise plan, with audit logs you can send to your SIEM.',
      ],
      ['Client', 'Does the API change, and where is the data hosted?'],
      [
        'Ae',
        'Nothing changes in the API. I can price the move from your current plan for the rest of the term.',
      ],
    ]);
    expect(classifyCall(turns, 'Ae').callType).toBe('cross_selling');
  });

  it('does not read a scheduled meeting as a cold call', () => {
    const turns = dialogue([
      ['Buyer', 'Hi, can you hear me okay?'],
      ['Rep', "Yes, thanks for making the time. I'm Sam from Fleetly. Have you heard of us before?"],
      ['Buyer', 'Only the name.'],
      ['Rep', 'Then let me start with your side. How does your team plan routes today?'],
      ['Buyer', 'Spreadsheets, honestly.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('discovery');
  });

  it('reads a call with an existing customer as customer success, or as cross-selling once a new offering is priced', () => {
    const success = dialogue([
      ['Rep', 'Hi Ms. Ortiz, thanks for the order last month. Are the new ovens behaving?'],
      ['Client', 'Mostly. The night shift keeps skipping the cleaning cycle.'],
      ['Rep', 'I can lock the cycle so it runs at close, and show your supervisor how on Thursday.'],
    ]);
    expect(classifyCall(success, 'Rep').callType).toBe('customer_success');
    const crossSell = dialogue([
      ['Rep', 'Hi Ms. Ortiz, thanks for the order last month. Are the new ovens behaving?'],
      ['Client', 'They are fine.'],
      ['Rep', 'We now offer a service plan for them: two visits a year and parts included.'],
      ['Client', 'How much would that be?'],
      ['Rep', 'Four hundred per oven a year, on the same invoice as your supplies.'],
    ]);
    expect(classifyCall(crossSell, 'Rep').callType).toBe('cross_selling');
  });

  it('reads a call where the rep asks whoever answered for someone else as a gatekeeper call', () => {
    const turns = dialogue([
      ['Desk', 'Marsh & Lowe, Priya speaking.'],
      ['Rep', "Hi Priya, it's Tom from Keyline. I'm trying to reach your office manager."],
      ['Desk', 'He only takes appointments by email. You can send it to me.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('gatekeeper');
  });

  it('reads a call where the rep reaches the person they rang as a cold call, not a screen', () => {
    const turns = dialogue([
      ['Rep', 'Hi, is this Grace, the housekeeping manager?'],
      ['Buyer', "Speaking. Who's this? Front office and head office both want me."],
      ['Rep', 'Grace, my name is Ravi, with Linenco. We rent uniforms to hotels. Have you got a minute?'],
      ['Buyer', 'A minute.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('cold_call');
  });

  it('reads a pitch to a stranger, with an ask for a commitment, as a cold call', () => {
    const turns = dialogue([
      ['Rep', 'Hello! How are you today?'],
      ['Other', 'Fine, thanks.'],
      [
        'Rep',
        'I volunteer for a group that plants trees in city parks. Every tree is looked after for five years, and the parks that took part have cooler summers now.',
      ],
      ['Other', 'Sounds nice.'],
      ['Rep', 'Could you spare a few dollars to sponsor one tree this spring?'],
      ['Other', 'Maybe one.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('cold_call');
  });

  it('reads a buyer asking what the product can do as an evaluation', () => {
    const turns = dialogue([
      ['Buyer', 'Can it export the weekly report? Finance lives in Excel.'],
      ['Rep', 'Yes, any report, from this button.'],
      ['Buyer', 'Does it respect permissions, so finance sees no salaries?'],
      ['Rep', 'It does, the export only has what that user can see.'],
      ['Buyer', 'What happens if someone leaves the company?'],
      ['Rep', 'Their scheduled exports stop the same day.'],
      ['Buyer', 'Is there a way to send it every Monday?'],
      ['Rep', 'Yes, pick the day and the columns.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('evaluation');
  });

  it('reads a meeting where the rep brings a solutions engineer to talk systems as technical discovery', () => {
    const turns = dialogue([
      ['Buyer', 'Hi both, we have about forty minutes.'],
      ['Rep', "Thanks for making time. I've brought Lars, our solutions engineer."],
      ['Buyer', 'Good. We run three building systems and the meters report every half hour.'],
      ['Rep', 'Lars will want to know which of those systems expose data to other tools.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('technical_discovery');
  });

  it('reads a call the rep picked up as inbound, even when the caller goes straight to product questions', () => {
    const turns = dialogue([
      ['Rep', "Good afternoon, you've reached the Linecraft sales desk, this is Marta."],
      ['Caller', 'Hi Marta. I manage a small outbound team. Can it dial several lines at once?'],
      ['Rep', 'Up to five per rep.'],
      ['Caller', 'Does it match the caller ID to the area code of the lead?'],
      ['Rep', 'Yes, local presence is included.'],
      ['Caller', 'And is there an integration with our CRM?'],
      ['Rep', 'There is, through the API.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('inbound_call');
  });

  it('reads a call the rep placed to follow up an earlier conversation as a warm call, technical talk included', () => {
    const turns = dialogue([
      ['Prospect', 'Hello, Claire speaking.'],
      [
        'Rep',
        "Hi Claire, it's Anders from Stackwise. We last spoke back in March about the cloud cost project.",
      ],
      [
        'Prospect',
        'Yes, it got paused. Now the scope includes our Kubernetes clusters and the data warehouse.',
      ],
      ['Rep', 'Do you own the data platform now, or is it someone else?'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('warm_call');
  });

  it('reads repeated asks for a commitment as a pitch even when the other side talks more', () => {
    const turns = dialogue([
      ['Rep', 'Hi there.'],
      [
        'Other',
        'Hello. I have to say I am careful with my money, I have been burnt before by groups that promised a lot and then spent it all on their offices.',
      ],
      ['Rep', 'Fair. You could give for one tree and see how it goes.'],
      [
        'Other',
        'Maybe. I like trees, my street lost most of its trees a few years ago and it has been hotter every summer since then.',
      ],
      ['Rep', 'Then will you sign up for one tree this spring?'],
      ['Other', 'Let me think about it, I will look at the website tonight and decide.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('cold_call');
  });

  it('does not read a scheduled meeting the buyer opens with a question as an inbound call', () => {
    const turns = dialogue([
      [
        'Buyer',
        'Hello? Can you hear me okay? I read your email, and I want to know how your tool handles shared rooms.',
      ],
      ['Rep', 'I can hear you fine. Go on, how are the rooms shared today?'],
      ['Buyer', 'Two teams book them by phone, and it is chaos every Monday.'],
      ['Rep', 'How do you handle a double booking now, and who else feels the pain?'],
      ['Buyer', 'Whoever shouts louder wins. My manager, mostly.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('discovery');
    const phoned = dialogue([
      ['Buyer', 'Hi, I want to know how your tool handles shared rooms.'],
      ['Rep', 'Sure. Go on, how are the rooms shared today?'],
      ...turns.slice(2).map((t): [string, string] => [t.speaker, t.text]),
    ]);
    expect(classifyCall(phoned, 'Rep').callType).toBe('inbound_call');
  });

  it("reads a buyer answering the rep's proposal as negotiation, not as a caller with a need", () => {
    const turns = dialogue([
      ['Buyer', 'hello yes i got your proposal'],
      ['Rep', 'okay good what did you think'],
      ['Buyer', 'it is too much for our two sites we were expecting maybe half'],
      ['Rep', 'what were you comparing it to'],
      ['Buyer', 'another company came in well under your offer'],
      ['Rep', 'what if we charge less in the quiet months and normal in the busy ones'],
      ['Buyer', 'okay send me that and i will show the owners'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('negotiation');
  });

  it('reads how long the other side has had the product, or what changed since they launched, as an existing account', () => {
    const upsell = dialogue([
      ['Client', 'hiya, you wanted ten minutes?'],
      [
        'Rep',
        "yeah, ten max. you've been on the planner for two years now, and I noticed you export the data to spreadsheets every week.",
      ],
      ['Client', 'every week, yeah. for the reports we send out.'],
      [
        'Rep',
        'there is a reporting add-on that builds those for you, $15 per month, and sends them out directly.',
      ],
      ['Client', 'not worth it for us right now. maybe when we are bigger.'],
    ]);
    expect(classifyCall(upsell, 'Rep').callType).toBe('cross_selling');
    const checkIn = dialogue([
      [
        'Client',
        'Thanks for being patient. A lot has changed here since we launched, and I need to explain it.',
      ],
      ['Rep', 'Please, go ahead.'],
      [
        'Client',
        'Our department merged, and the new director wants fewer suppliers. He will look at every contract.',
      ],
      [
        'Rep',
        'Then let us help you show him what the citizen scores did. I can refresh the figures in a short note.',
      ],
      ['Client', 'That would help me a lot.'],
    ]);
    expect(classifyCall(checkIn, 'Rep').callType).toBe('customer_success');
  });

  it('reads a rep pointing at the product on a screen as a demo, without the word demo', () => {
    const turns = dialogue([
      ['Rep', 'Morning. I loaded your subjects and teachers from the list you sent.'],
      ['Buyer', 'Good. Show me Grade 11.'],
      ['Rep', 'Grade 11. Here. This is the result it built in four minutes.'],
      ['Buyer', 'And Mr. Govender, he is only in on Mondays. Did you put that in?'],
      ['Rep', "Yes. You'll see he has nothing on the other days."],
      ['Buyer', 'Okay. I want to play with it myself.'],
      ['Rep', 'I will set you up with a login today.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('evaluation');
    const proposal = dialogue([
      ['Rep', "Here's what I'd suggest: a short call with your manager next week."],
      ['Buyer', 'Fine, send me a time.'],
    ]);
    expect(classifyCall(proposal, 'Rep').callType).not.toBe('evaluation');
  });

  it('reads an office greeting as no screen when whoever answered is the person the rep asked for', () => {
    const reached = dialogue([
      ['Prospect', 'Good morning, Lakeside Dental, front office.'],
      ['Rep', 'Good morning. Am I speaking to Dr. Novak?'],
      ['Prospect', 'Yes, speaking.'],
      [
        'Rep',
        "My name is Priya, I'm calling from a scheduling software company. I'm calling out of the blue, I hope that's okay.",
      ],
      ['Prospect', 'Go on, quickly. We already send text reminders.'],
      ['Rep', 'Plenty of clinics do. How do you fill a cancelled appointment today?'],
    ]);
    expect(classifyCall(reached, 'Rep').callType).toBe('cold_call');
    const screened = dialogue([
      ['Desk', 'Good morning, Lakeside Dental, front office.'],
      ['Rep', 'Good morning. Could I speak to Dr. Novak?'],
      ['Desk', "Who's calling, and what is it regarding? He's in a meeting."],
    ]);
    expect(classifyCall(screened, 'Rep').callType).toBe('gatekeeper');
  });

  it('reads a proposal asked of an existing account as something priced: cross-selling', () => {
    const turns = dialogue([
      ['Client', 'Good afternoon. My assistant said you wanted to show me something about the hostels.'],
      ['Rep', 'Yes. How are you allocating hostel rooms to students this session?'],
      ['Client', 'Students pay the hostel fee at the bank and bring the slip to the warden. It is chaos.'],
      [
        'Rep',
        'The school fees are already on the portal, your students log in there to pay. Hostels would be one more option on the same page.',
      ],
      ['Client', 'So no queue at the warden. Send me a proposal, I will table it at the management meeting.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('cross_selling');
  });

  it('reads a question about how the product has done since a change as an existing account', () => {
    const turns = dialogue([
      ['Client', 'Morning. My colleague from the warehouse will join in a few minutes.'],
      ['Rep', "Morning. How's the invoicing side been since the last update?"],
      [
        'Client',
        'Good. The late fees stopped completely. The other problem is the shipping labels, they get rejected.',
      ],
      ['Rep', 'Who prints the labels today?'],
      ['Client', 'The warehouse, from one old PC. Send me the cost and I will compare it with the fines.'],
      ['Rep', 'I will put the price next to the fines so your director sees both.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('cross_selling');
  });

  it("reads an outage of the rep's product that the other side lived through as customer success", () => {
    const turns = dialogue([
      [
        'Client',
        "I'll be direct, I'm not happy. Tuesday your platform was down for three hours during our morning dispatch.",
      ],
      ['Rep', 'I know, and I am sorry. What happened on your side?'],
      ['Client', 'Drivers waited at the depots with no routes. We paid them to wait.'],
      [
        'Rep',
        'The outage was a database failover in one region. A second region can take over now, and I will set up a nightly offline export on your server.',
      ],
      ['Client', 'I want the export first.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('customer_success');
  });

  it('reads a trial under way, talked about as such, as an evaluation', () => {
    const turns = dialogue([
      ['Buyer', 'Straight to it, then. The trial has been disappointing.'],
      ['Rep', 'Okay. Tell me what happened.'],
      ['Buyer', 'We processed the same survey in both packages and the volumes are six percent apart.'],
      ['Rep', 'That is a meaningful gap. Could you send me the project file? I will rerun it both ways.'],
      ['Buyer', 'Fine. You have until Friday, then I report back.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('evaluation');
  });

  it('reads a caller being qualified by the rep as an inbound call, not discovery', () => {
    const turns = dialogue([
      ['Caller', "So that's why I'm ringing: the old tills won't last another Christmas."],
      ['Rep', 'Understood. How many cafés do you run?'],
      ['Caller', 'Four, and a fifth opens in February at the station.'],
      ['Rep', 'What are you using at the moment, and how many tills per café?'],
      ['Caller', 'An old Windows till, two per café.'],
      ['Rep', 'And who else would help you decide?'],
      ['Caller', 'Just me and my business partner.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('inbound_call');
  });

  it('reads a meeting set for technical questions as technical discovery', () => {
    const turns = dialogue([
      ['Rep', 'Quick agenda: Yvonne will walk through the technical questions on your workflows.'],
      ['Buyer', 'How does your system handle a sample whose barcode does not scan?'],
      ['Rep', 'Manual entry with a second check. Which instruments do you run?'],
      ['Buyer', 'Two liquid handlers and a plate reader. Is there an API for the results?'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('technical_discovery');
  });

  it("reads an answer for someone else's office as a screen, even when the rep follows up an earlier note", () => {
    const turns = dialogue([
      ['Desk', 'Office of Paul Hendricks, this is Monica.'],
      ['Rep', "Hi Monica, it's Alexei. I sent Paul a note last week, and I said I'd follow up by phone."],
      ['Desk', 'I screen his emails, and I saw it. He has not replied, so it is not a priority.'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('gatekeeper');
  });

  it('does not read a conference room as a prior touch', () => {
    const turns = dialogue([
      ['Client', "Can everyone hear me? I'm in a conference room with no signal."],
      ['Csm', 'We can. Your open rates dropped, so Wei from support is here.'],
    ]);
    expect(classifyCall(turns, 'Csm').scores.warm_call).toBeUndefined();
  });

  it('reads offers and counter-offers traded until a deal as a negotiation', () => {
    const turns = dialogue([
      ['Buyer', 'Lane by lane, then. Atlanta to Dallas: you are at 2,340 and we see 2,050 elsewhere.'],
      ['Rep', 'With four loads a week I can do 2,190.'],
      ['Buyer', 'Make it 2,150 and you have a deal on that lane.'],
      ['Rep', 'Done. What number do you need on Dallas to Houston?'],
    ]);
    expect(classifyCall(turns, 'Rep').callType).toBe('negotiation');
  });

  it('reads a call dense with figures as a negotiation, whatever words carry them', () => {
    const turns = dialogue([
      ['Buyer', 'So 40 seats at 38 each comes to 1,520 a month. We had 1,300 in mind.'],
      ['Rep', 'At 24 months I could do 35, so 1,400.'],
      ['Buyer', 'Thirty-two and 36 months, 1,280, and we sign this quarter.'],
      ['Rep', 'Thirty-three, 36 months, 1,320. That is where I land.'],
    ]);
    const { scores } = classifyCall(turns, 'Rep');
    expect(scores.negotiation).toBeGreaterThanOrEqual(3);
    const calm = dialogue([
      ['Buyer', 'We have a team of about 40 people across two offices.'],
      ['Rep', 'And how do they share files with each other today?'],
      ['Buyer', 'Mostly by email, which gets messy when the folders change.'],
      ['Rep', 'Who else would want a say in how that works?'],
    ]);
    expect(classifyCall(calm, 'Rep').scores.negotiation).toBeUndefined();
  });

  it('reads a session the rep hands to a colleague, with three or more voices, as technical', () => {
    const turns = dialogue([
      ['Rep', 'Thanks all. Priya will take it from here.'],
      [
        'Priya',
        'Great. Could you describe how records flow from the point of entry to the reporting layer, and where they are transformed along the way?',
      ],
      [
        'Buyer',
        'Entries land in one database, a nightly job copies them to a second store, and the analysts query that copy from their notebooks every morning.',
      ],
      [
        'Priya',
        'And the nightly job, is it scheduled by a tool or by hand, and what happens on the mornings when it has not finished before the analysts arrive?',
      ],
      [
        'Buyer',
        'A scheduler runs it. When it runs late the analysts see yesterday, and nobody notices until a number looks wrong in a meeting.',
      ],
      ['Rep', 'Thanks, that helps.'],
    ]);
    const { scores } = classifyCall(turns, 'Rep');
    expect(scores.technical_discovery).toBeGreaterThanOrEqual(3);
    // The same call with the rep asking the questions: not handed over.
    const own = turns.map((t) => (t.speaker === 'Priya' ? { ...t, speaker: 'Rep' } : t));
    expect(classifyCall(own, 'Rep').scores.technical_discovery ?? 0).toBeLessThan(3);
  });

  it('reads what the other side already has from the rep as an existing account', () => {
    const turns = dialogue([
      ['Rep', "How are the crews finding it? They've been on the app since spring."],
      ['Buyer', 'Fine. The drivers already know the app, nobody complains.'],
      ['Rep', 'Good. One thing I noticed on a support call: expenses still go through a spreadsheet.'],
      ['Buyer', 'Mostly mileage, yes.'],
    ]);
    const { callType, scores } = classifyCall(turns, 'Rep');
    expect(callType).toBe('customer_success');
    expect(scores.cold_call).toBeUndefined();
    // The question "what do you use today?" is discovery, not an account.
    const prospect = dialogue([
      ['Rep', 'What do you use today to plan the crews? Walk me through a normal week.'],
      ['Buyer', 'A whiteboard and a lot of phone calls.'],
    ]);
    expect(classifyCall(prospect, 'Rep').scores.customer_success).toBeUndefined();
  });

  it("reads the rep changing a setting on the other side's account as customer success", () => {
    const turns = dialogue([
      ['Buyer', 'The old project codes are still showing for everyone.'],
      ['Rep', "There's a setting for that. I can hide those for you from here, want me to?"],
      ['Buyer', 'Please.'],
      ['Rep', 'Done by end of day.'],
    ]);
    expect(classifyCall(turns, 'Rep').scores.customer_success).toBeGreaterThan(0);
  });
});
