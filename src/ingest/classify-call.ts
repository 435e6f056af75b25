/**
 * Pure: call-type classification from the transcript (spec `call_type`, DESIGN 1b step 10). Each type has phrase
 * families; a family's phrases score more when said by the side that would naturally say them (the rep's
 * "thanks for calling", the customer's "I'm calling about my order"). When the rep is unknown, every side counts at a
 * middle weight. The structure of the call weighs in beside the wording: who opened it (the rep rang, was called, or
 * met someone at an agreed time), whether the other side is already a customer, who asks whom about what, and whether
 * the rep pitches and asks for a commitment. A weak best score or a small lead over discovery falls back to
 * `discovery` (`fallback: true`).
 * Linear time: one scan per turn with a few combined, precompiled regular expressions, plus a few per-turn tests.
 */
import { CueFamilySet, forEachCue } from './cue-patterns.js';
import {
  callFeatureRows,
  callTypeLogits,
  shippedCallTypeModel,
  type CallTypeModel,
} from './call-type-model.js';
import { normalizeForCues as normalize } from './cue-text.js';
import type { Turn } from './transcript.js';
import { softmax } from './word-features.js';

export const CALL_TYPES = [
  'discovery',
  'cold_call',
  'warm_call',
  'customer_success',
  'cross_selling',
  'evaluation',
  'negotiation',
  'gatekeeper',
  'inbound_call',
  'technical_discovery',
] as const;
export type CallType = (typeof CALL_TYPES)[number];

export interface Classification {
  callType: CallType;
  confidence: number;
  fallback: boolean;
  scores: Partial<Record<CallType, number>>;
}

/** Who naturally says a phrase: the rep, the other side, or either. */
type Speaker = 'rep' | 'other' | 'any';

interface Family {
  type: CallType;
  by: Speaker;
  weight: number;
  /** Occurrences counted per call. */
  cap: number;
  pattern: string;
}

const FAMILIES: readonly Family[] = [
  // cold_call: an unexpected call to someone who did not ask for it.
  {
    type: 'cold_call',
    by: 'rep',
    weight: 3,
    cap: 3,
    pattern:
      "\\byou don't know me\\b|\\bout of the blue\\b|\\bout of nowhere\\b|\\bcold call\\b|\\b(?:did|have) i (?:catch|caught) you\\b|\\bcaught you at\\b" +
      "|\\bbad time\\b|\\bthe reason (?:for my call|i'?m calling|i called)\\b|\\bi'll (?:keep it|be) (?:quick|brief|short)\\b|\\b(?:thirty|30) seconds\\b" +
      "|\\b(?:do you have|have you got|you got|got) (?:a|one|two|a couple of|a quick) (?:minutes?|moment|second)\\b|\\bi'?m calling (?:a few|some|a handful of|a couple of) [a-z]+\\b" +
      '|\\bwho (?:handles|is responsible for|looks after)\\b|\\bcame up because\\b' +
      '|\\bi noticed (?:you|your)\\b|\\bhave you (?:ever )?heard (?:of|about)\\b|\\bare you familiar with\\b|\\bwould you be (?:willing|interested)\\b',
  },
  // A pitch and an ask made to a stranger: weaker cold-call evidence that needs several occurrences to count.
  {
    type: 'cold_call',
    by: 'rep',
    weight: 1.5,
    cap: 4,
    pattern:
      '\\bwould you (?:like to|consider|be open to)\\b|\\bmake (?:a|an) (?:big |real |huge )?(?:difference|impact)\\b|\\beven a (?:small|little)\\b' +
      '|\\bany amount\\b|\\bevery (?:little )?bit (?:helps|counts)\\b|\\bcan i (?:ask|tell) you (?:about|something)\\b|\\bdo you (?:ever|usually|often)\\b',
  },
  {
    type: 'cold_call',
    by: 'other',
    weight: 2,
    cap: 3,
    pattern:
      "\\bwho(?:'s| is) this\\b|\\bwhat(?:'s| is) this about\\b|\\bnot interested\\b|\\bsend me (?:an email|something|some info)\\b|\\bwhat's the catch\\b" +
      "|\\bhow did you get (?:my|this) number\\b|\\bi'm about to\\b",
  },
  // warm_call: a follow-up on a known touchpoint.
  {
    type: 'warm_call',
    by: 'any',
    weight: 3,
    cap: 4,
    pattern:
      '\\byou (?:downloaded|signed up|requested|registered|attended|stopped by|filled out|asked a question)\\b' +
      "|\\b(?:suggested|recommended|said) (?:that )?(?:i|we) (?:get in touch|reach out|call|contact|give you a (?:ring|call|bell)|speak)\\b|\\byou'd be expecting\\b" +
      '|\\bwe met at\\b|\\bwebinar\\b|\\bconference(?! (?:room|call|line|bridge))\\b|\\bexpo\\b|\\btrade ?show\\b|\\bsummit\\b|\\bmeetup\\b|\\bwe (?:chatted|spoke|met|talked) at (?:the|your|our)\\b|\\bbooth\\b' +
      "|\\bi (?:said|promised) i'?d (?:follow up|call|get back)\\b|\\breferr(?:ed|al)\\b|\\bfree trial account\\b|\\bthanks for calling back\\b" +
      '|\\b(?:your|a) colleague (?:suggested|mentioned)\\b|\\bmentioned you\\b|\\bvouch(?:es)? for\\b',
  },
  // gatekeeper: someone screens the rep before the decision-maker.
  {
    type: 'gatekeeper',
    by: 'other',
    weight: 3,
    cap: 5,
    pattern:
      "\\bwho(?:'s| is) calling\\b|\\bwho should i say\\b|\\b(?:may|can) i (?:ask|say) who\\b|\\bwhat (?:is|'s) (?:this|it) regarding\\b|\\bwhat company\\b" +
      '|\\bdoes (?:he|she) know what\\b|\\bis (?:he|she) expecting\\b|\\bput you through\\b|\\btransfer you\\b' +
      "|\\b(?:he|she)(?:'s| is) (?:in (?:a )?meetings?|with a (?:patient|client|customer)|out (?:on|of|today)|not (?:in|available)|on the other line)\\b" +
      '|\\btake a message\\b|\\b(?:his|her) voicemail\\b|\\bhow (?:can|may) i direct\\b|\\bplease hold\\b|\\bpass it on\\b' +
      "|\\b(?:doesn't|does not) (?:take|do) (?:sales )?(?:calls|phone calls)\\b|\\bwe get a lot of calls\\b" +
      "|\\b(?:mr|mrs|ms|dr)\\.? [a-z]+(?:'s| is| doesn't| does not| won't| will| would| isn't| never| only)\\b|\\bdon't (?:phone|call|ring) (?:him|her|them|mr|mrs|ms|dr)\\b",
  },
  {
    type: 'gatekeeper',
    by: 'rep',
    weight: 2.5,
    cap: 3,
    pattern:
      "\\bcould i (?:speak|talk) (?:with|to)\\b|\\bi'?m (?:trying to reach|looking for) (?:whoever|someone|the|[a-z]+ [a-z]+ in)\\b" +
      '|\\bis (?:he|she) (?:available|around)\\b|\\bwho would be the right person\\b|\\bleave a message\\b|\\bbetter time to reach\\b' +
      '|\\bwhat was your name\\b',
  },
  // inbound_call: the customer called in.
  {
    type: 'inbound_call',
    by: 'rep',
    weight: 3,
    cap: 3,
    pattern:
      "\\bthank(?:s| you) for calling\\b|\\b(?:how|what) (?:can|may) i (?:help|assist)\\b|\\bwhat can i do for you\\b|\\byou've reached\\b" +
      '|\\banything else i can (?:help|do)\\b|\\bthanks for reaching out to us\\b|\\bwho am i speaking with\\b|\\bthanks for calling us\\b',
  },
  {
    type: 'inbound_call',
    by: 'other',
    weight: 3,
    cap: 3,
    pattern:
      "\\bi'?m calling (?:about|because|regarding|to (?:ask|check|see|find|cancel|return|report|change|get|add))\\b" +
      "|\\bi (?:need|want|would like|'d like) to (?:return|cancel|check|transfer|change|report|know|order|update)\\b" +
      '|\\bmy (?:order|card|invoice|bill|balance|refund|password|savings|checking)\\b|\\bwe got charged\\b|\\bis this the (?:sales|support)\\b' +
      '|\\bi (?:saw|was looking at) your (?:ad|website|pricing)\\b|\\bi lost my\\b|\\bi (?:had|have) (?:a|some) questions?\\b',
  },
  // discovery: the buyer's situation, pains, goals, process.
  {
    type: 'discovery',
    by: 'rep',
    weight: 1.5,
    cap: 8,
    pattern:
      '\\bwalk me through\\b|\\btell me (?:a (?:little|bit) )?(?:more )?about\\b|\\bhow (?:do|does|did) your\\b|\\bwhat (?:made|prompted) you\\b' +
      "|\\bwhat happens (?:after|when)\\b|\\bwho else\\b|\\bwhat would success look like\\b|\\bif you could (?:fix|change)\\b|\\bwhat(?:'s| is) the biggest\\b" +
      '|\\bbiggest (?:risk|challenge|problem)\\b|\\bwhat did that cost\\b|\\bhow (?:are|do) you (?:handling|managing|tracking|handle|manage|track)\\b' +
      '|\\bwhat (?:tools|systems?) do\\b|\\bhow many\\b|\\bwhere it hurts\\b|\\bunderstand how\\b|\\bon your roadmap\\b|\\bbudget set aside\\b|\\bwhat have you tried\\b',
  },
  {
    type: 'discovery',
    by: 'other',
    weight: 1,
    cap: 6,
    pattern:
      "\\bspreadsheets?\\b|\\bmanual(?:ly)?\\b|\\bslip(?:s)? through\\b|\\bpain\\b|\\bchaos\\b|\\bwhiteboard\\b|\\bhonestly\\b|\\bwe're growing\\b|\\bstitching\\b",
  },
  // technical_discovery: integration, security, architecture, data.
  {
    type: 'technical_discovery',
    by: 'any',
    weight: 1.5,
    cap: 8,
    pattern:
      '\\bapis?\\b|\\bsso\\b|\\bsaml\\b|\\bscim\\b|\\bokta\\b|\\bintegrations?\\b|\\bintegrate\\b|\\bsecurity (?:review|team|questionnaire)\\b|\\bsoc ?2\\b' +
      '|\\bpen test\\b|\\bencrypt(?:ed|ion)\\b|\\btls\\b|\\barchitect(?:ure)?\\b|\\bmigrat(?:e|ion)\\b|\\bschema\\b|\\bdatabase\\b|\\bpostgres\\b' +
      '|\\baws\\b|\\bkubernetes\\b|\\bvpc\\b|\\bhelm\\b|\\bdata residency\\b|\\bwebhooks?\\b|\\brate limits?\\b|\\berp\\b|\\bsap\\b|\\bconnector\\b' +
      '|\\bnetwork\\b|\\bports?\\b|\\bstaging\\b|\\baudit log(?:s|ging)?\\b|\\bsiem\\b|\\bpermissions\\b|\\bdata flow\\b|\\bhosting\\b|\\bon-prem(?:ise)?\\b' +
      '|\\bidentity provider\\b|\\bservice user\\b|\\bmaster data\\b|\\bcutover\\b|\\bdelta sync\\b|\\brows\\b|\\bregion\\b|\\bclusters?\\b',
  },
  // evaluation: demo, trial, proof of concept, comparison.
  {
    type: 'evaluation',
    by: 'any',
    weight: 2,
    cap: 8,
    pattern:
      "\\blet me show you\\b|\\b(?:share|sharing) my screen\\b|\\bsee (?:my|your) screen\\b|\\bif i click\\b|\\bhere's the\\b|\\bproof of concept\\b|\\bpilot\\b" +
      '|\\bpoc\\b|\\bsuccess criteri(?:a|on)\\b|\\bside by side\\b|\\bcompared? (?:to|with)\\b|\\bcompetitors?\\b|\\bother vendor\\b|\\bnarrowed it down\\b' +
      '|\\blive demo\\b|\\bin (?:the|a|your) trial\\b|\\btrial (?:workspace|agreement)\\b|\\bcame in cheaper\\b|\\bdrills? into\\b|\\bdashboard\\b',
  },
  // negotiation: price, terms, contract, signature.
  {
    type: 'negotiation',
    by: 'any',
    weight: 2,
    cap: 10,
    pattern:
      '\\bdiscount\\b|\\bprice lock\\b|\\border form\\b|\\bcontract terms?\\b|\\bredlines?\\b|\\bliability\\b|\\bprocurement\\b|\\blegal team\\b' +
      '|\\bsignature\\b|\\bsign (?:the agreement|before|it)\\b|\\bpayment terms\\b|\\bnet (?:thirty|forty-five|sixty|30|45|60)\\b|\\bpercent off\\b' +
      "|\\btwo-year term\\b|\\b(?:multi|two|three)-year\\b|\\broom on price\\b|\\bend of the (?:quarter|month)\\b|\\bwaive(?:d)?\\b|\\bthe number isn't\\b" +
      '|\\bprice increase\\b|\\bcap of\\b|\\bauto-renewal\\b|\\bup front\\b|\\bi can meet you\\b|\\brenewal quote\\b|\\bper-seat price\\b',
  },
  // customer_success: an existing customer's onboarding, adoption, health, support.
  {
    type: 'customer_success',
    by: 'any',
    weight: 2,
    cap: 8,
    pattern:
      '\\bonboarding\\b|\\bkickoff\\b|\\bexec(?:utive)? (?:review|business review|sponsor)s?\\b|\\b(?:vp|head|director) of customer success\\b|\\badoption\\b|\\busage\\b|\\bquarterly business review\\b|\\bqbr\\b|\\bhealth check\\b|\\byour renewal\\b' +
      '|\\bsupport tickets?\\b|\\btraining (?:sessions?|for)\\b|\\bgo(?:ing)? live\\b|\\blicensed users\\b|\\bactive (?:users|last month)\\b' +
      '|\\blogins?\\b|\\brelease notes\\b|\\bstopped using\\b|\\bworking sessions?\\b|\\bmain contact\\b|\\brolled (?:it )?out\\b',
  },
  // cross_selling: an existing customer plus another product, tier or team.
  {
    type: 'cross_selling',
    by: 'any',
    weight: 2.5,
    cap: 6,
    pattern:
      '\\badd-on\\b|\\bupgrade\\b|\\bnew module\\b|\\b[a-z]+ module\\b|\\bexpansion\\b|\\bexpand(?:ing)?\\b|\\bjust launched\\b|\\b(?:business|enterprise|higher) tier\\b' +
      '|\\badding [a-z]+ seats\\b|\\bplugs (?:straight )?into\\b|\\bwhat you already have\\b|\\bexisting customer\\b|\\byour current (?:plan|contract|subscription|account)\\b' +
      '|\\bon top of your\\b|\\bco-term(?:ing)?\\b|\\bhit the (?:storage )?limit\\b|\\balign the dates\\b',
  },
  // ---- generic structural cues (who says what) ----
  // An existing customer: the rep refers to their live use of the product.
  {
    type: 'customer_success',
    by: 'rep',
    weight: 2,
    cap: 4,
    pattern:
      "\\byou(?:'ve| have) been using\\b|\\bsince you (?:launched|started|rolled out)\\b|\\byour (?:admins?|rollout|account team|usage|locations are|team is using)\\b|\\bcheck in (?:on|about) how\\b" +
      '|\\bhow (?:things|it|the rollout|the team) (?:are|is) (?:going|landing)\\b',
  },
  {
    type: 'customer_success',
    by: 'other',
    weight: 1.5,
    cap: 3,
    pattern:
      "\\bit (?:stopped|isn't|wasn't) (?:working|syncing)\\b|\\bthe (?:sync|integration) (?:failed|broke)\\b",
  },
  // A prospect joined by a known touchpoint.
  {
    type: 'warm_call',
    by: 'rep',
    weight: 2.5,
    cap: 3,
    pattern:
      '\\bfollowing up (?:on|from)\\b|\\b(?:when|since) we (?:spoke|talked|met)\\b|\\b(?:last time we|we last) (?:spoke|talked|met)\\b|\\byou mentioned\\b' +
      "|\\bit's been (?:a while|ages|too long)\\b|\\b(?:good|great|nice) to (?:hear from|talk to|speak to|catch up with) you again\\b|\\bcongrat(?:s|ulations) on the new (?:job|role|position)\\b|\\byou(?:'d| had) moved\\b" +
      '|\\b(?:your|a) (?:colleague|manager|boss|friend) (?:passed|gave|mentioned|suggested)\\b|\\bintroduced us\\b|\\bintroduction\\b',
  },
  // The decision-maker talked about in the third person, by the screen.
  {
    type: 'gatekeeper',
    by: 'other',
    weight: 2,
    cap: 4,
    pattern:
      "\\b(?:he|she)(?:'s| is) (?:busy|unavailable|away|tied up|on a call|not here)\\b|\\b(?:his|her) (?:calendar|diary|assistant|email|schedule)\\b" +
      "|\\b(?:i'll|let me) (?:see|check) if (?:he|she)\\b|\\b(?:he|she) (?:doesn't|does not|won't) (?:really )?(?:take|speak|talk)\\b|\\bone moment\\b",
  },
  // Evaluation: the buyer tries the product.
  {
    type: 'evaluation',
    by: 'any',
    weight: 1.5,
    cap: 6,
    pattern: '\\bsandbox\\b|\\bscenarios?\\b|\\btrial\\b|\\byour screen\\b',
  },
  // Negotiation: terms traded by the rep.
  {
    type: 'negotiation',
    by: 'any',
    weight: 1.5,
    cap: 6,
    pattern:
      '\\bprice (?:freeze|rise|increase)\\b|\\bfreeze\\b|\\buplift\\b|\\bclause\\b|\\btermination\\b|\\bpayment schedule\\b|\\bannual (?:in advance|upfront)\\b' +
      '|\\bredline\\b|\\bin writing\\b|\\b(?:payment|contract|commercial|legal) terms\\b',
  },
  // ---- general sales language, per type (added for held-out generalisation) ----
  // cold_call: the rep introduces themself and their company to someone who did not expect the call.
  {
    type: 'cold_call',
    by: 'rep',
    weight: 2.5,
    cap: 3,
    pattern:
      "\\bunannounced\\b|\\bunsolicited\\b|\\bi don't think we've (?:spoken|met)\\b|\\b(?:was|were|been) looking at our (?:pages|site|website|pricing|product)\\b|\\b(?:we've|we have) never (?:spoken|met)\\b|\\bwe haven't (?:spoken|met)\\b|\\bi won't (?:take|keep) (?:much of )?(?:your|you)\\b" +
      '|\\bjust say if\\b|\\b(?:rather|prefer) (?:i|that i) call (?:you )?back\\b|\\bis now (?:a )?(?:bad|good|ok|okay) (?:time|moment)\\b|\\bokay moment\\b' +
      "|\\bi (?:saw|noticed|read|came across|see) (?:that )?(?:your|you're|you are|on linkedin|on your)\\b|\\bcongrat(?:s|ulations) on\\b" +
      '|\\bi run (?:partnerships|sales|business development|growth|accounts)\\b|\\b(?:take|steal) (?:just )?(?:a|two|thirty|30) (?:minutes?|seconds?) of your\\b' +
      "|\\bi'?m calling [a-z]+s (?:around|in|across|like)\\b|\\bis (?:this|that) something you (?:handle|look after|deal with|own)\\b|\\bcalling (?:companies|businesses|firms|teams|practices|restaurants|clinics|agencies|schools) (?:like|in)\\b|\\bwhy i'?m calling\\b",
  },
  {
    type: 'cold_call',
    by: 'other',
    weight: 2,
    cap: 3,
    pattern:
      "\\bwho (?:are you|did you say)\\b|\\bwhat(?:'s| is) (?:it|this) (?:about|regarding)\\b|\\bwhat is it\\b|\\bhow did you (?:get|find)\\b|\\bwe're not looking\\b" +
      "|\\bnot (?:looking|in the market)\\b|\\bi'?m not promising\\b|\\bi don't have (?:time|long)\\b|\\byou(?:'ve| have) got (?:two|one|a) minutes?\\b|\\bwhat are you selling\\b" +
      '|\\bnever heard of (?:you|your)\\b|\\bat random\\b',
  },
  // A stranger learning what the caller represents, and the caller explaining it.
  {
    type: 'cold_call',
    by: 'other',
    weight: 2,
    cap: 2,
    pattern:
      '\\bwhat (?:does|do) (?:it|they|the (?:organi[sz]ation|company|charity|firm)|your (?:company|organi[sz]ation|charity|firm)) do\\b' +
      "|\\btell me (?:a (?:little|bit) )?more about (?:it|them|the (?:organi[sz]ation|company|charity))\\b|\\b(?:i've|i have) never heard of\\b|\\bhow do i know\\b",
  },
  {
    type: 'cold_call',
    by: 'rep',
    weight: 2,
    cap: 1,
    pattern:
      "\\b(?:it|they|we)(?:'re| are| is|'s) an? (?:[a-z-]+ ){0,2}(?:non-?profit|organi[sz]ation|company|charity|firm|startup|agency|provider) (?:that|which|who|based|dedicated|working)\\b",
  },
  // An outbound opening: the rep introduces themself with their company. Warm and gatekeeper cues outweigh it.
  {
    type: 'cold_call',
    by: 'rep',
    weight: 2,
    cap: 1,
    pattern:
      "\\b(?:this is|it's|it is|my name is|i'm|i am)(?! (?:a|an|the|not|so|very|just|really|doing|well|good|fine|from|with|on|in|at|calling about) )(?: [a-z]+){1,2},? (?:from|with|over at|calling from|at) [a-z]" +
      '|\\b[a-z]+ here,? (?:from|with|at|i run|i work)\\b|\\bcalling from [a-z]',
  },
  // warm_call: a follow-up to a touchpoint the buyer made (form, download, event, referral).
  {
    type: 'warm_call',
    by: 'any',
    weight: 4,
    cap: 4,
    pattern:
      '\\b(?:contact|demo|web|enquiry|inquiry) form\\b|\\bfilled (?:in|out)\\b|\\bmutual (?:friend|contact|connection|colleague)\\b|\\bpassed (?:me )?(?:on )?your (?:name|details|number|email)\\b' +
      '|\\bgetting back to you\\b|\\byou (?:reached out|got in touch|enquired|inquired|requested|booked|visited|came to|were at|spoke to|chatted with)\\b' +
      '|\\byour (?:enquiry|inquiry|request|download|message|note) (?:on|about|from|last)\\b|\\bthanks for (?:your interest|downloading|registering|signing up|coming by)\\b' +
      '|\\b(?:said|mentioned|told me) (?:you|your team) (?:were|was|are|might|would)\\b|\\b(?:gave|shared) me your (?:name|details|number)\\b|\\bwhitepaper\\b|\\be-?book\\b|\\bguide you downloaded\\b|\\byou downloaded\\b|\\bour (?:guide|report|checklist|template|webinar|event|session|workshop) on\\b',
  },
  // warm_call: the rep names something the prospect did with the rep's company (content, a request, an event).
  {
    type: 'warm_call',
    by: 'rep',
    weight: 3,
    cap: 2,
    pattern:
      '\\byou (?:grabbed|read|put in|submitted|sent in|viewed|watched|opened|clicked|joined|were on|took|left|answered) (?:our|a|an|the|one of our) (?:[a-z0-9-]+ ){0,3}?' +
      '(?:guide|report|e-?book|whitepaper|checklist|template|webinar|demo request|request|form|pricing page|calculator|assessment|case study|newsletter|survey|playbook|course|video|article|post)s?\\b' +
      '|\\bdemo request\\b',
  },
  // gatekeeper: a receptionist, assistant or office screens the rep.
  {
    type: 'gatekeeper',
    by: 'other',
    weight: 3,
    cap: 5,
    pattern:
      "\\b(?:main|front|head|district|practice|school|sales) office\\b|\\b[a-z]+'s office\\b|\\b(?:front desk|reception)(?:,| speaking| here)|\\band you are\\b|\\bnature of the call\\b" +
      '|\\b(?:vendors|salespeople|suppliers|sales calls) (?:normally |usually |have to |must |always )?(?:go|come) through\\b|\\bi (?:look after|manage|keep) (?:his|her|their) (?:diary|calendar|schedule)\\b' +
      '|\\bnot taking calls\\b|\\bnote it down\\b|\\bspell (?:your|that)\\b|\\b(?:his|her|their) (?:extension|direct line)\\b|\\bi can give you (?:his|her|their)\\b|\\banything else\\?' +
      "|\\b(?:he|she|they)(?:'s| is| are) (?:travelling|traveling|out|away|off|in|at|not)\\b|\\bwhat(?:'s| is) (?:it|this) in connection with\\b|\\b(?:let|tell) (?:him|her|them) know\\b",
  },
  {
    type: 'gatekeeper',
    by: 'rep',
    weight: 2.5,
    cap: 3,
    pattern:
      "\\bi'?m hoping to (?:get|speak|reach|catch|have)\\b|\\bis (?:mr|mrs|ms|dr)\\.? [a-z]+ (?:free|in|there|around|available)\\b|\\bcould you (?:tell me|let me know) who\\b" +
      '|\\bwho (?:handles|looks after|is in charge of|runs|manages|would handle)\\b|\\b(?:is|was) there a better time\\b|\\bcould you (?:mention|pass|let (?:him|her|them) know)\\b' +
      '|\\b(?:speak|talk) (?:with|to) (?:your|the) (?:director|head|manager|owner|ceo|cfo|vp|person)\\b|\\bthanks for your help\\b',
  },
  // inbound_call: the buyer called in with a question or a need.
  {
    type: 'inbound_call',
    by: 'other',
    weight: 3,
    cap: 3,
    pattern:
      "\\bi'?ve got a question\\b|\\bi was (?:on|looking at) your (?:website|site|pricing)\\b|\\bit said to (?:call|ring)\\b|\\bi (?:was told|was asked) to (?:ring|call|contact)\\b|\\bis this (?:the right|where)\\b|\\bi'?m (?:ringing|phoning|calling) (?:about|to|because|regarding)\\b" +
      "|\\bcan you help me\\b|\\bi (?:need|want|would like|'d like) to (?:ask|find out|buy|upgrade|sign up|get a quote|speak)\\b|\\bwe need to know (?:if|whether)\\b" +
      "|\\bi (?:saw|found|read) (?:your|you on|on your)\\b|\\bi'?m (?:interested in|looking for) (?:your|a|an|some)\\b",
  },
  {
    type: 'inbound_call',
    by: 'rep',
    weight: 3,
    cap: 3,
    pattern:
      "\\byou(?:'re| are) in the right place\\b|\\bhappy to help\\b|\\byou(?:'ve| have)? got the right (?:place|person|team|number)\\b|\\bwhat would you like to know\\b|\\bthanks for (?:getting in touch|contacting|reaching out|calling in|ringing)\\b" +
      '|\\b(?:sorry|apologies) for the (?:trouble|inconvenience|wait|hassle)\\b|\\banything else (?:today|for you)\\b|\\bcan you (?:read|give) me (?:the|your)\\b' +
      "|\\bwhat(?:'s| is) your (?:email|account number|order number|postcode|zip)\\b|\\bhow can i help\\b",
  },
  // customer_success: an existing customer's account, usage, problems and fixes.
  {
    type: 'customer_success',
    by: 'any',
    weight: 2,
    cap: 6,
    pattern:
      '\\b(?:sync|login|error|bug|outage|syncing|import) (?:errors?|issues?|problems?|failures?)\\b|\\bfailed (?:syncs?|imports?|logins?)\\b|\\bworkaround\\b|\\b(?:a|the) fix\\b' +
      "|\\bpulled up your account\\b|\\byour account\\b|\\blicen[cs]e (?:key|has expired|expired)\\b|\\b(?:haven't|hasn't|have not|has not) logged in\\b|\\blogged in\\b" +
      '|\\bhow (?:is |are )?(?:the team|your team|things|people|everyone)(?: is| are)? (?:finding|getting on|using|settling|going with)\\b|\\bsince you (?:went live|launched|rolled|switched|started|moved)\\b|\\bwent live\\b|\\bgo-live\\b|\\b(?:a|the|some|more) training\\b|\\bescalat(?:e|ed|ion)\\b' +
      '|\\bfeature request\\b|\\bbugs?\\b|\\bfixed (?:it|that|the|since|now)\\b|\\bregenerat(?:e|ed|ing)\\b|\\broot cause\\b|\\bincident\\b|\\bwrite-up\\b|\\brelease\\b|\\bour engineers\\b|\\bcheck in\\b|\\bhealth score\\b|\\bchurn\\b|\\bsettings?\\b|\\bresend\\b|\\bre-?train(?:ing)?\\b' +
      '|\\bi can (?:see|hide|change|reset|enable|disable|unlock|widen|extend|fix|update|move) (?:those|that|it|them|this|your)\\b[^.?!]{0,25}\\b(?:from here|for you|remotely|on (?:our|my) (?:side|end))\\b',
  },
  {
    type: 'customer_success',
    by: 'other',
    weight: 2,
    cap: 3,
    pattern:
      "\\b(?:our|my) team is (?:frustrated|struggling|confused|unhappy)\\b|\\bwith your (?:tool|platform|product|app|software|system|dashboard) (?:we|i)\\b|\\b(?:since|after) we (?:started|began) using (?:your|the)\\b|\\bsurvey results\\b|\\b(?:stopped|isn't|is not|not) (?:working|syncing|loading|updating)\\b|\\bcan't (?:log in|work|access|see)\\b" +
      '|\\bwe paid\\b|\\bit says\\b|\\bkeeps? (?:crashing|failing|breaking)\\b|\\bkeep me posted\\b',
  },
  // cross_selling: more of what an existing customer has, or another product on top of it.
  {
    type: 'cross_selling',
    by: 'any',
    weight: 2.5,
    cap: 6,
    pattern:
      "\\byou(?:'ve| have) been using our\\b|\\b(?:is|are|already) with us\\b|\\badd to my (?:bill|invoice|subscription)\\b|\\bwhat (?:does|would) (?:that|it|this) add to\\b|\\b(?:you're|you are) already (?:a )?(?:customers?|on|using)\\b|\\byour existing (?:account|contract|plan|subscription|licen[cs]es?)\\b" +
      '|\\b(?:extra|additional|more|another) (?:[a-z]+ )?(?:seats|licen[cs]es|users|sites?|offices?|modules?|products?)\\b|\\badd(?:ed|ing)? (?:more |extra |another |the )?(?:seats|licen[cs]es|users|sites?|modules?)\\b' +
      '|\\bextend(?:ing)? (?:your|the) (?:account|contract|licen[cs]es?|subscription|rollout)\\b|\\bwe now (?:have|offer)\\b|\\bnew (?:product|offering|add-on)\\b|\\b(?:switch|turn)(?:ed)? (?:it )?on (?:for|inside)\\b' +
      '|\\bsame (?:price|rate) per\\b|\\byour (?:rate|current rate) applies\\b|\\bwork(?:s)? off the same\\b|\\b(?:works|sits) alongside\\b|\\bother (?:teams|departments|offices) (?:could|can|would)\\b',
  },
  {
    type: 'cross_selling',
    by: 'any',
    weight: 2.5,
    cap: 5,
    pattern:
      "\\badd[- ]ons?\\b|\\b(?:right now|currently|today) you're on\\b|\\byou're (?:currently )?on (?:the|our) [a-z]+ (?:plan|tier|edition|package)\\b|\\bat your current (?:rate|price|pricing)\\b" +
      '|\\b(?:on top of|in addition to) (?:the|your) current\\b|\\bcurrent annual (?:fee|contract|subscription)\\b|\\bactivate (?:the )?(?:seats|licen[cs]es|module|add-on|languages?|feature)\\b' +
      '|\\bmid-term\\b|\\b(?:turn|switch) it on (?:in|for) your\\b|\\b(?:we|you) use (?:you|us|your [a-z]+|our [a-z]+) for\\b|\\b(?:extra|more|additional|new) (?:seats|licen[cs]es|locations|languages)\\b',
  },
  // cross_selling: the rep brings a new offering to someone they already sell to.
  {
    type: 'cross_selling',
    by: 'rep',
    weight: 2.5,
    cap: 2,
    pattern:
      "\\bwe(?:'ve| have)? (?:now |also |recently |just )?(?:started (?:carrying|offering|selling|doing)|launched|also (?:offer|have|do|sell|provide|carry))\\b|\\bwe (?:now |also )?offer (?:a|an)\\b" +
      '|\\b(?:another|a new|an additional|a second) (?:product|service|module|line|option|offering|program|package)\\b' +
      "|\\bthe other reason (?:i|we) (?:called|wanted|rang)\\b|\\bwhile i(?:'ve| have)? (?:got )?you\\b|\\byou(?:'re| are) buying (?:those|that|them|it) (?:elsewhere|from)\\b",
  },
  // evaluation: trials, pilots, demos, comparisons against criteria.
  {
    type: 'evaluation',
    by: 'any',
    weight: 2,
    cap: 6,
    pattern:
      "\\b(?:in|for|during|after) (?:the|this|today's|our|yesterday's) demo\\b|\\b(?:i'll|let me|if you|you can|i) click\\b|\\bclick (?:here|on|this)\\b|\\bweeks? into the\\b|\\bgoals we (?:wrote|set|agreed)\\b|\\b(?:evaluation|test) criteria\\b|\\blike for like\\b|\\b(?:another|one other|the other) (?:option|vendor|tool|provider|supplier|product|platform)s?\\b" +
      '|\\bshortlist(?:ed)?\\b|\\bshow (?:us|me) (?:what|how)\\b|\\bif i (?:open|click|go (?:to|into)|select)\\b|\\byou can see (?:the|that|how|here)\\b|\\bhere you can see\\b|\\bwant(?:ed)? to see\\b|\\blist of (?:things|requirements|use cases|scenarios)\\b|\\bdiscuss (?:it )?internally\\b|\\breport builder\\b|\\bevaluat(?:e|ing|ion)\\b|\\btest (?:account|environment|run|data)\\b|\\bagainst the (?:goals|criteria)\\b|\\bbake-?off\\b|\\bfinalists?\\b|\\bproof point\\b',
  },
  // evaluation: the buyer tests the product, checks references or watches it work.
  {
    type: 'evaluation',
    by: 'any',
    weight: 2,
    cap: 3,
    pattern:
      '\\breference (?:call|check|customer|site)s?\\b|\\bsite visit\\b|\\bchoosing between\\b|\\b(?:second|another|first) (?:test|tasting|trial|run)\\b' +
      '|\\b(?:two|three|four|five|six|[0-9]+) weeks in\\b|\\bverdict\\b|\\bshow me (?:how|again)\\b|\\bgo back a bit\\b|\\bthis button\\b|\\bkeep going\\b' +
      '|\\bthe (?:test|trial) (?:run|batch|period|results?)\\b',
  },
  // negotiation: legal terms, concessions, signatures.
  {
    type: 'negotiation',
    by: 'any',
    weight: 2,
    cap: 8,
    pattern:
      '\\bindemnit(?:y|ies)\\b|\\bdpa\\b|\\bdata processing (?:agreement|addendum|terms)\\b|\\bcontractual clauses\\b|\\bcounsel\\b|\\bmsa\\b|\\bhalfway\\b|\\boff the first year\\b' +
      '|\\b(?:still|are) [a-z]+ (?:thousand|hundred|percent) apart\\b|\\bapart on\\b|\\bfinal (?:paper|paperwork|contract|version|terms)\\b' +
      '|\\bconcessions?\\b|\\b(?:match|beat) (?:the|their|a|your) (?:[a-z]+ )?(?:quote|price|offer|bid)\\b|\\bprice cap\\b|\\bcap on (?:the )?(?:renewal|increases?)\\b|\\bat no (?:extra )?(?:charge|cost)\\b|\\bif (?:we|you) sign (?:this|by|before)\\b|\\b(?:highest|lowest|cheapest) (?:quote|price|bid)\\b|\\bcompared (?:three|two|the|several) quotes\\b|\\brevised (?:quote|proposal|pricing|offer|order form)\\b|\\bpurchase order\\b|\\b(?:services|licen[cs]e|implementation) (?:line|fee|price|cost)s?\\b|\\bcomes down to\\b|\\b(?:thirty|forty-five|sixty|ninety|30|45|60|90)[- ]day (?:terms|payment)\\b|\\bat (?:thirty|forty-five|sixty|ninety) days\\b|\\bbest (?:and )?final\\b|\\bmeet (?:you|us) (?:in the middle|halfway)\\b|\\bclose (?:this|by|before)\\b|\\bthousand off\\b|\\b(?:lower|reduce|drop) the (?:price|rate)\\b|\\bsub-processors?\\b',
  },
  // negotiation: offers and counter-offers traded until there is a deal.
  {
    type: 'negotiation',
    by: 'any',
    weight: 2,
    cap: 3,
    pattern:
      '\\bi can do (?:[0-9]|a |an |one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|it for)' +
      "|\\b(?:you(?:'ve| have) got|you have|we have|it's) (?:a|yourself a) deal\\b|\\bwhat number\\b|\\bcounter[- ]?(?:offer|proposal)\\b" +
      "|\\bsplit the difference\\b|\\bbest (?:price|offer|you can do)\\b|\\bin (?:exchange|return) for\\b|\\bthat's (?:my|our) (?:floor|limit|best)\\b|\\bwalk away\\b",
  },
  // negotiation: the other side answers terms the rep put on the table ("I got your proposal", "your offer is…").
  {
    type: 'negotiation',
    by: 'other',
    weight: 2,
    cap: 2,
    pattern: '\\byour (?:proposal|quote|offer|revised (?:proposal|quote|offer|terms|pricing))\\b',
  },
  // technical_discovery: systems, data, identity and security architecture.
  {
    type: 'technical_discovery',
    by: 'any',
    weight: 1.5,
    cap: 5,
    pattern:
      '\\bdata (?:warehouse|lake|pipeline|model|export|feed)s?\\b|\\bevent (?:stream|bus)\\b|\\bauthentication\\b|\\boidc\\b|\\boauth\\b|\\bazure ad\\b|\\bactive directory\\b|\\bencryption keys?\\b' +
      '|\\b(?:customer|self)-managed keys\\b|\\bbring-your-own-key\\b|\\bbyok\\b|\\bkms\\b|\\blatency\\b|\\buptime\\b|\\bthroughput\\b|\\bendpoints?\\b|\\bsdks?\\b|\\bdocs\\b|\\bdocumentation\\b' +
      '|\\bsandbox environment\\b|\\b(?:read|write)-only\\b|\\bfirewall\\b|\\bip allow-?list\\b|\\bsync (?:frequency|direction|conflicts)\\b|\\bfield mapping\\b|\\bmap (?:groups|fields|roles)\\b|\\broles and permissions\\b|\\bbackups?\\b|\\bfailover\\b|\\bretention\\b|\\bgdpr\\b|\\bhipaa\\b|\\biso ?27001\\b|\\bvendor (?:security|risk)\\b',
  },
  // technical_discovery: a technical specialist joins the rep to answer or ask about systems.
  {
    type: 'technical_discovery',
    by: 'any',
    weight: 3,
    cap: 1,
    pattern:
      '\\b(?:solutions?|sales|integration|technical|application|field|energy|security|data|enterprise) (?:engineer|architect)s?\\b' +
      '|\\bour (?:engineer|architect|cto|technical lead)\\b',
  },
  // technical_discovery: the meeting is named for technical questions and requirements.
  {
    type: 'technical_discovery',
    by: 'any',
    weight: 2.5,
    cap: 2,
    pattern:
      '\\btechnical (?:questions?|deep[- ]dive|requirements|review|session|discussion|details|fit|due diligence|stakeholders)\\b' +
      '|\\b(?:architecture|integration|security|infrastructure|it) (?:questions|requirements|deep[- ]dive)\\b',
  },
  // discovery: the rep learns the buyer's situation, impact and stakeholders.
  {
    type: 'discovery',
    by: 'rep',
    weight: 1.25,
    cap: 8,
    pattern:
      "\\bwhat's the story\\b|\\bwhat (?:does|do) (?:it|they|the [a-z]+) do (?:well|badly)\\b|\\bwhat did (?:that|it|the last [a-z]+) cost\\b|\\bwho else feels\\b|\\bwhat (?:would|does) (?:it|that) mean for\\b" +
      '|\\bwhat (?:kind|sort) of (?:budget|timeline|team|volume)\\b|\\bhow (?:are|is) (?:that|it|this) (?:handled|done|working) today\\b|\\b(?:today|currently|right now), how\\b|\\bi (?:mainly|mostly|just) want to (?:listen|understand|learn)\\b' +
      "|\\bwhat(?:'s| is) (?:driving|prompting|behind)\\b|\\bwhat are you (?:hoping|trying|looking) to\\b|\\bwhere does it (?:hurt|break)\\b|\\bwhat (?:have you|did you) (?:tried|try)\\b",
  },
];

/** The families as a few combined patterns (cue-patterns.ts). */
const CUES = new CueFamilySet(FAMILIES.map((f) => f.pattern));

/** For the evaluation's family-dropout measure only (eval/dropout.ts): read the call with only some cue families. */
export function setCallTypeFamiliesForEvaluation(
  keep: ((family: number, pattern: string) => boolean) | null,
): number {
  return CUES.keepOnly(keep);
}

// ---- questions and asks: who asks whom about what ----
/** A question in a sentence: "?"-terminated, or opening with an interrogative in unpunctuated text. */
const INTERROGATIVE_START =
  /^(?:(?:and|so|but|okay|ok|right|great|got it),? )?(?:could|can|would|will|do|does|did|are|is|have|has|how|what|what's|which|when|where|who|why)\b/;
const ABOUT_YOU = /\byou(?:r|rs)?\b/;
/** The buyer asks what the product can do: "can it export…?", "what happens if…?", "how long does it take?" */
const CAPABILITY_QUESTION =
  /^(?:(?:and|so|but|okay|ok|right|also|then|wait)[,]? )*(?:(?:can|could|does|will|would) (?:it|that|this|the (?:system|tool|platform|product|app|machine|unit|software))|is (?:it|there a|there an|there any)|are there|what happens (?:if|when|to)|what if|how (?:does|do|would|long does) (?:it|that|this|they))\b/;
/** The rep asks the other side to commit to something: "would you like to…", "are you willing to…". */
const REP_ASK =
  /\b(?:(?:would|do|will|could|can) you (?:like to|want to|wish to|be willing to|be interested in|be open to|consider|care to)|(?:are you|you're) (?:willing|interested|open) to|(?:i'd like|i want|i need|i'm asking|i'd love) (?:for )?you to|(?:ask|persuade|convince|encourage|invite) you to|(?:have you|would you have) (?:thought about|considered)|how much (?:would|will|could|can|are) you|will you (?:join|help|support|consider|make|sign|commit|try)|(?:can|could) (?:i|we) count on you|please consider) [a-z]+/;
/** Verbs of a call to action: buy, sign up, join, donate, give, try… */
const ACTION_VERBS =
  'buy|buying|purchase|order|sign (?:up|on)|subscribe|join|commit|pledge|donate|donating|donation|contribute|contributing|contribution|give|giving|invest|investing|switch|spare|try';
/** A question to the other side that calls for an action. */
const CALL_TO_ACTION = new RegExp(`\\b(?:${ACTION_VERBS})\\b`);
/** An ask put as a statement: "you can even donate a few cents", "if you want to sign up today…". */
const ASK_STATEMENT = new RegExp(
  `\\b(?:you (?:can|could|should|might|may) (?:even |also |just |still )?|if you (?:want|would like|'d like|wish|choose|decide) to )(?:${ACTION_VERBS})\\b`,
);
/** A sentence with its terminator, if any. */
const SENTENCE = /[^.!?\n]+[.!?\n]?/g;

/** The questions of a turn: "?"-terminated sentences, or interrogative openings in unpunctuated text. */
function questionsOf(text: string): string[] {
  const questions: string[] = [];
  for (const m of text.matchAll(SENTENCE)) {
    const sentence = m[0].trim();
    if (sentence.endsWith('?') || INTERROGATIVE_START.test(sentence)) questions.push(sentence);
  }
  return questions;
}

/**
 * The rep shows the product: a sentence that opens by pointing at what is on the screen or device ("So here's the
 * main view.", "This is the output.", "These are this week's orders.", "Look.", "You can see the status…"),
 * not a proposal ("here's what I'd suggest") nor a link sent ("here is the website").
 */
const DEMONSTRATION =
  /^(?:(?:so|okay|ok|right|and|now),? )?(?:here(?:'s| is| are)? (?!what (?:i|we)\b|(?:the|a|their|our) (?:link|website|site|url)\b)|here(?:[,.!]|$)|this is (?:the|what|where|how|your)\b|these are (?:the|your)\b|look[.,!]|you(?:'ll| will| can) see (?:the|that|how|he|she|it|they|what|where|your)\b)/;

/** A trial or pilot under way or done, talked about as such: "the trial has shown…", "after the pilot". */
const TRIAL_UNDER_WAY =
  /\b(?:the|this|our|your) (?:trial|pilot|poc)(?:'s)? (?:has|hasn't|went|was|wasn't|is going|results?|numbers|data|period)\b|\b(?:after|during|in) (?:the|this|our|your) (?:trial|pilot)\b/;

/** The sentences of a turn that show the product. */
function demonstrationsOf(text: string): number {
  let n = 0;
  for (const m of text.matchAll(SENTENCE)) if (DEMONSTRATION.test(m[0].trim())) n++;
  return n;
}

// ---- the opening: who rang whom, whether it is a scheduled meeting ----
/** The other side opens with a need or a question of their own: they called. */
const CALLER_NEED =
  /\b(?:i(?:'d| would) like (?:a|some) (?:quote|price|pricing|demo|information|info)|my [a-z]+ (?:isn't|is not|won't|doesn't|keeps|stopped)|i(?:'m| am) having (?:trouble|problems|an issue|issues)|i can't (?:log|get|find|see)|i'?m (?:calling|ringing|phoning|reaching out|interested|looking for)|i(?:'ve| have) (?:got )?(?:a|some|two|a few) questions?|i (?:wanted|want|need|would like|'d like) to (?:ask|know|find out|get|buy|talk|speak|see)|i was (?:told|wondering|hoping|given)|we(?:'re| are) looking (?:for|at|to)|can you help|i (?:wrote|messaged|chatted|emailed|filled|saw|got) (?!your (?:proposal|quote|offer|revised))|is this the (?:right|person|sales|support|team|department)|(?:they|someone) (?:transferred|put) me|why i'?m (?:calling|ringing))/;
/** The rep opens with who they are and why they call: an outbound call. */
const OUTBOUND_OPENING =
  /\b(?:this is [a-z]+|it's [a-z]+|my name is|i'?m calling|calling from|the reason (?:for|i)|[a-z]+ here,? (?:from|with|at))\b/;
/** A word of a name or an organisation (any script), not a word that starts a sentence of a meeting. */
const NAME_WORD =
  "(?!(?:i|we|we're|i'm|i've|you|okay|ok|so|think|everyone|everybody|all|both|just|now|it's)\\b)[\\p{L}'&.-]+";
/**
 * The other side picks up a phone the rep rang: "Acme Plumbing, this is Sam.", "Jo Bloggs speaking.",
 * "Sam here.", "Hello?", "Bloggs.", "Thank you for calling Acme, how can I direct your call?"
 */
const PHONE_ANSWER = new RegExp(
  `^(?:(?:hello|hi|hey|yes|yeah|yep|good (?:morning|afternoon|evening))[,.!?]* )*(?:` +
    `(?:${NAME_WORD},? ){0,5}(?:this is|it's) ${NAME_WORD}(?: ${NAME_WORD})?(?:,? (?:speaking|here))?` +
    `|(?:${NAME_WORD},? ){1,5}(?:speaking|here)(?:,? (?:hello|hi))?` +
    `|(?:${NAME_WORD} ){0,3}${NAME_WORD}, ${NAME_WORD}(?: ${NAME_WORD})?` +
    `|hello|yes)[.!?]*$` +
    `|^(?!(?:hi|hello|hey|okay|ok|good|morning|afternoon|evening|yes|yeah|sure|right|thanks)\\b)${NAME_WORD}(?: ${NAME_WORD})?\\.$` +
    `|\\b(?:thank(?:s| you) for calling|how (?:can|may) i (?:help|direct)|you've reached)\\b`,
  'u',
);
/** A greeting alone: picking up a phone when the other side says it, opening a chat when the rep does. */
const BARE_GREETING = /^(?:hello|hi|hey|yes|yeah|yep|good (?:morning|afternoon|evening))[.!?]*$/;
/** The rep's first words check who picked up: "Hi, is this Jo Bloggs?", "Hello, am I speaking with Sam?" */
const WHO_PICKED_UP = new RegExp(
  `^(?:(?:hello|hi|hey|yeah|yes|good (?:morning|afternoon|evening))[,.!?]* )*(?:is (?:this|that)|am i (?:speaking|talking) (?:to|with)) ` +
    `(?!(?:alright|ok|okay|fine|right|correct|true|good|a|an|the|it|still|something)\\b)${NAME_WORD}(?: ${NAME_WORD})?(?:[?,.]|$)`,
  'u',
);
/** The rep asks whoever answered for someone else: "could I speak to the owner?", "I'm trying to reach your finance lead". */
const ASKS_FOR_SOMEONE =
  /\b(?:(?:could|can|may) i (?:speak|talk|have a word) (?:to|with)|(?:trying|hoping|looking) to (?:reach|speak|talk|get hold of|get through to|get a (?:word|message))|i'?m (?:looking for|after) (?!a |an |some)|is (?:mr|mrs|ms|dr)\.? [a-z]+|put me through|connect me (?:to|with))\b/;
/** Whoever picks up answers for someone else: "Office of Jo Bloggs", "how may I direct your call?" */
const ANSWERS_FOR_SOMEONE = /\b(?:office of|[a-z]+'s office|how (?:can|may) i direct|front desk|reception)\b/;
/** Whoever picked up says they are the person asked for: "Yes, speaking.", "That's me.", "Speaking." */
const SPEAKING =
  /^(?:(?:yes|yeah|yep),? )?(?:speaking|(?:that's|that is|this is) (?:me|he|she|him|her)|it's me)(?:[,.!]|$)/;
/** A scheduled (video) meeting: people joining, hearing each other, an agreed slot or agenda. */
const MEETING_OPENING =
  /\b(?:can (?:you|everyone|you all) (?:hear|see) (?:me|my screen)|(?:i|we) can hear you|thanks? (?:you )?for (?:making|taking|finding|setting aside|carving out) (?:the |some )?time|thanks? (?:you )?(?:both |all )?for (?:joining|jumping on|hopping on|having us|doing this|setting this up|keeping the slot)|(?:we're|we are) (?:all|both) (?:here|on)|we have everyone|(?:everybody|everyone)(?:'s| is) here|hard stop|agenda|(?:plan|goal|aim) for today|minutes late|running late|on mute|(?:is|are|i'm|i am|we're|we are) joining|(?:will|'ll) (?:join|be joining) (?:us |in |shortly|soon|late)|(?:asked for|requested|set up|booked|scheduled) (?:this|today's) (?:meeting|call|session)|(?:i've|i have) (?:brought|asked [a-z]+ to join)|we're recording)\b/;
/** Turns at the start of the call read for who opened it. */
const OPENING_TURNS = 3;

/** How the call opened, read from its first turns. */
interface Opening {
  /** The other side called: the rep picked up, or they opened with a need and the rep made no introduction. */
  callerOpened: boolean;
  /** The rep rang: the other side picked up a phone, or the rep checked who picked up. */
  repRang: boolean;
  /** The rep reached a screen: whoever answered did so for someone else, or was asked for someone else. */
  screened: boolean;
  /** The rep checked that whoever answered is the person they called ("is this Sam?"). */
  reachedTarget: boolean;
  /** A scheduled meeting: people joining, hearing each other, an agreed slot. */
  meeting: boolean;
}

function readOpening(texts: readonly string[], isRep: readonly boolean[], repKnown: boolean): Opening {
  let callerNeed = false;
  let askedWho = false;
  let confirmed = false;
  let outbound = false;
  let repAnswered = false;
  let repRang = false;
  let screened = false;
  let reachedTarget = false;
  let meeting = false;
  texts.forEach((text, i) => {
    if (MEETING_OPENING.test(text)) meeting = true;
    if (!repKnown) return;
    const whole = text.trim();
    if (isRep[i]) {
      // The rep picking up ("Thanks for calling Dialflow, this is Zanele") answers a call; it is no introduction.
      if (i === 0 && PHONE_ANSWER.test(whole) && !BARE_GREETING.test(whole)) repAnswered = true;
      else if (OUTBOUND_OPENING.test(text)) outbound = true;
      if (i <= 1 && WHO_PICKED_UP.test(text)) repRang = reachedTarget = true;
      if (ASKS_FOR_SOMEONE.test(text)) screened = true;
      askedWho = WHO_PICKED_UP.test(text) || ASKS_FOR_SOMEONE.test(text);
    } else {
      // "Am I speaking to Ms. Doe?" answered "Yes, speaking.": whoever picked up is the person the rep called,
      // however the phone was answered ("…, accounts office").
      if (askedWho && SPEAKING.test(text.trim())) confirmed = true;
      askedWho = false;
      if (CALLER_NEED.test(text)) callerNeed = true;
      if (i === 0 && PHONE_ANSWER.test(whole)) {
        repRang = true;
        if (ANSWERS_FOR_SOMEONE.test(text)) screened = true;
      }
    }
  });
  return {
    // In a scheduled meeting the other side's first question or need is an agenda item, not why they rang.
    callerOpened: !repRang && (repAnswered || (callerNeed && !outbound && !meeting)),
    repRang,
    screened: screened && !confirmed,
    reachedTarget: confirmed || (reachedTarget && !screened),
    meeting,
  };
}

// ---- the account: is the other side already a customer, and is something priced ----
/**
 * The buyer is already a customer: their current plan, contract or seats, their use of the product, their renewal,
 * an earlier check-in. Whoever says it, the call is about an existing account, not a prospect.
 */
const EXISTING_CUSTOMER = new RegExp(
  `\\b(?:${[
    // what they have now (not "your current contract", which may be with a competitor)
    'your (?:current|existing) (?:plan|subscription|seats?|licen[cs]es?|tier|package|edition|rate|account|per-seat)',
    "(?:currently|right now|today),? you(?:'re| are) (?:on|at)",
    "you(?:'re| are) (?:currently )?on (?:the|our) [a-z]+ (?:plan|tier|edition|package)",
    '(?:our|my) (?:original|current|existing) (?:contract|plan|subscription|licen[cs]e|pricing|rate|seats)',
    // their use of it, and what they bought
    '(?:since|when|after) (?:you|we) (?:went live|launched|rolled (?:it )?out|started using|upgraded|onboarded|installed|switched)',
    // how long they have had it: "you've been on the planner for a while"
    "you(?:'ve| have) been (?:on|using|running|with) (?:the|our) [a-z]+ for",
    "you(?:'ve| have) been (?:using|with us|a customer)",
    '(?:as|for) (?:a|an) (?:existing|long-?time|valued|loyal) (?:customer|client)',
    '(?:your|the) (?:team|people|users|admins?) (?:is|are|has been|have been) using',
    '(?:using|use|rolled out|licensed) your (?:tool|platform|product|app|system|software|service|solution)',
    "(?:we|our team|my team) (?:use|are using|have been using|'ve been using|started using) your",
    // what they already have from the rep, and people already working in it
    '(?:the|your) [a-z]+ you (?:have|use|run) already',
    '(?:the|your) [a-z]+ you already (?:have|use|run)',
    // a relative clause, not the question "what do you use today?"
    'what you (?:have|use|run) (?:already|today|now)',
    "(?:already|have been|'ve been|has been|are|were) (?:know|knows|use|uses|using|on) (?:the|our|your) (?:app|platform|portal|system|tool|software|dashboard)",
    '(?:been|gone) live (?:for|since)',
    'live for you',
    'we (?:switched|moved|set|put|migrated|upgraded) you',
    '(?:on|during|in) (?:a|the|your) support (?:call|ticket|chat)',
    'ticket history',
    // an outage they lived through: "your system was down on Monday"
    'your (?:platform|app|system|service|tool|software|product|portal) (?:was|went) (?:down|offline)',
    'thanks? (?:you )?for (?:the|your) (?:order|business|renewal|purchase)',
    'you took delivery',
    'you (?:bought|ordered|purchased) (?:from us|with us)',
    // their account and its people
    'your (?:account manager|customer success manager|csm|account activity)',
    '(?:in|on|to|with|at|into) your account(?! (?:executive|hierarch))',
    '(?:pulled up|looking at|look at|checked|check) your account',
    '(?:our|my) account(?! (?:executive|hierarch|number))',
    "(?:is|are|'s|already|everything) with us",
    "you've got (?:[a-z]+,? ){1,4}with us",
    '(?:your|the) (?:team.s )?usage (?:data|is|has|dropped|numbers|report)',
    '(?:pulled|looked at|checked) (?:the|your) usage',
    "(?:we've been|we were|we got|i've been|i was) (?:charged|billed|invoiced)",
    '(?:turned|switched) on for (?:us|you)',
    // renewals, releases and earlier check-ins
    "(?:your|our|the) renewal(?:'s)?",
    'at renewal',
    'renewal date',
    '(?:spring|summer|autumn|fall|winter|latest|last|recent) release',
    // how the product has done for them since something changed: "how's the billing module been since…", "since the last update"
    "how(?:'s| is| has| have) (?:the|your) (?:[a-z]+ )?(?:[a-z]+ )?been since",
    'since (?:the|our|your) last (?:changes?|update|release|upgrade)',
    '(?:on|in|during) (?:the|our|your) last (?:call|check-in|meeting|review|qbr)',
    '(?:thirty|sixty|ninety|[0-9]+)[- ]day check[- ]?in',
    '(?:onboarding|implementation) kickoff',
    '(?:quarterly|business|exec|executive) (?:business )?reviews?',
    'last time (?:we|you) (?:added|bought|renewed|upgraded|expanded|ordered)',
  ].join('|')})\\b`,
);
/** A higher plan or edition: offered to an existing customer, an upsell. */
const HIGHER_PLAN =
  /\b(?:enterprise|premium|pro|business|professional|higher|advanced|plus) (?:plan|tier|edition|package|bundle)\b/;
/** Price talk: what something costs, per unit or period. */
const PRICE_TALK =
  /\b(?:how much|prices?|pricing|costs?|fees?|quotes?|proposals?|dollars|euros|pounds|(?:[0-9][0-9,.]*|hundred|thousand|million) (?:a|per|each) [a-z]+|per (?:month|year|user|seat|location|unit|site|head|employee))\b|\$ ?\d/g;
/** Distinct price phrases that make a call with an existing account a purchase. */
const PRICED_PHRASES = 2;

// ---- weights ----
/** Characters of utterance text read in full; longer calls are read at an even stride of whole turns. */
const TEXT_BUDGET = 80_000;
/** What a repeated phrase adds, relative to a new one. */
const REPEAT_WEIGHT = 0.25;
/** How much a phrase counts when said by the unexpected side, or when the rep is unknown. */
const OFF_SIDE_FACTOR = 0.35;
const UNKNOWN_SIDE_FACTOR = 0.75;
/** Points per discovery question the rep asks about the buyer ("how do you…?", "what does your team…?"). */
const REP_QUESTION_WEIGHT = 0.3;
const REP_QUESTION_CAP = 8;
/** Points per question the buyer asks about what the product can do: an evaluation of it. */
const BUYER_QUESTION_WEIGHT = 0.75;
const BUYER_QUESTION_CAP = 6;
/** Points per rep sentence that shows the product ("here's the main view"): a demo. */
const DEMONSTRATION_WEIGHT = 1.5;
const DEMONSTRATION_CAP = 3;
/** Points for evaluation when a trial or pilot is under way or done ("the trial results"). */
const TRIAL_POINTS = 2;
/** Points for inbound_call when the other side called. */
const CALLER_OPENED_POINTS = 4;
/** Points for the kind of call the rep placed: past a screen, after a prior touch, or cold. */
const RANG_POINTS = 3;
/** What the scores of meeting-only types keep on a call the rep rang, and of phone-only types in a meeting. */
const OFF_CHANNEL_FACTOR = 0.5;
/** Points for the type of a conversation with an existing account: cross_selling when it prices something, else
 * customer_success. */
const EXISTING_CUSTOMER_POINTS = 3;
/** Points for cross_selling when an existing customer is offered a higher plan. */
const UPSELL_POINTS = 3;
/** What the scores of prospect-only types keep on a call with an existing customer. */
const EXISTING_CUSTOMER_FACTOR = 0.5;
/** What the scores of account-only types keep on a call with no sign of an existing customer. */
const NO_ACCOUNT_FACTOR = 0.75;
/** Types whose evidence, on an existing account offered more, is about the expansion (price talk may be a renewal). */
const EXPANSION_TOPICS: readonly CallType[] = ['technical_discovery', 'evaluation'];
/** Points for cold_call when the rep pitches to a stranger. */
const PITCH_POINTS = 3;
/** Turns with an ask that make a pitch whoever holds the call. */
const PITCH_ASKS = 2;
/** The rep's share of the words above which the rep is pitching rather than listening. */
const PITCH_SHARE = 0.5;
/**
 * Figures: digits, currency and percent signs, magnitudes and spelled-out tens ("forty-five thousand"), per thousand
 * words. Negotiation calls in the development sets run at 15–50 per thousand words; other calls mostly under 15.
 */
const FIGURE =
  /[$£€%]|\b\d[\d,.]*\b|\b(?:percent|hundred|thousand|million|grand)\b|\b(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-[a-z]+)?\b/g;
const WORD = /[a-z0-9']+/g;
/** Fewer figures than this say nothing (one "40 people" in a short call is not a density). */
const MIN_FIGURES = 4;
const FIGURE_DENSITY_LOW = 18;
const FIGURE_DENSITY_HIGH = 28;
/** Points for negotiation at or above FIGURE_DENSITY_HIGH (a share of them between the two densities). */
const FIGURE_POINTS = 3;
/** The rep's share of the words at or under which, with three or more voices, the rep has handed the session over. */
const HANDED_OVER_SHARE = 0.2;
/** …and someone else talks at least twice as much as the rep. */
const HANDED_OVER_RATIO = 0.5;
const HANDED_OVER_TECHNICAL_POINTS = 3;
const HANDED_OVER_EVALUATION_POINTS = 2;
/** Below this best score the call is too neutral to classify. */
const MIN_SCORE = 3;
/**
 * The word model names the type when its top probability reaches this (decisions §31); below it, the
 * phrase-and-structure reading does when it names one: the model knows sales calls only, the reading also calls
 * outside its vocabulary.
 */
const MODEL_DECIDES = 0.3;
/** A reading this sure of its type decides before the model is asked (decisions §36). */
const READING_DECIDES = 0.9;
/** Below this probability, with no reading to fall back on, the call falls back to discovery. */
const MIN_CONFIDENCE = 0.2;
/** A call with fewer known words and pairs than this is too short for the word model. */
const MIN_MODEL_FEATURES = 40;
/** The best type must lead the runner-up by this fraction of its score. */
const MIN_RELATIVE_MARGIN = 0.15;

// ---- reading the call ----
/** What one pass over the call gathers. */
interface CallReading {
  /** Points from the cue families. */
  cueScores: Scores;
  opening: Opening;
  /** The rep's questions about the buyer, and the buyer's questions about what the product can do. */
  repQuestions: number;
  buyerQuestions: number;
  /** Rep sentences that point at the product on a screen or device. */
  demonstrations: number;
  /** Rep turns with an ask for a commitment. */
  repAsks: number;
  /** The rep holds most of the call's words. */
  repLeads: boolean;
  /** Figures (amounts, percentages, counts) per thousand words: terms are being bargained over. */
  figureDensity: number;
  /** Three or more voices and the rep holds a small share of the words: a colleague leads the session. */
  repHandsOver: boolean;
  existingCustomer: boolean;
  higherPlan: boolean;
  /** A trial or pilot is under way or done. */
  trialUnderWay: boolean;
  /** Something is priced: distinct price phrases. */
  priced: boolean;
}

type Scores = Partial<Record<CallType, number>>;

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function add(scores: Scores, type: CallType, points: number): void {
  scores[type] = round((scores[type] ?? 0) + points);
}

function scale(scores: Scores, types: readonly CallType[], factor: number): void {
  for (const t of types) if (scores[t] !== undefined) scores[t] = round(scores[t]! * factor);
}

/** One key per phrase and its inflections: "integrate", "integration" and "integrations" are one piece of evidence. */
function phraseKey(phrase: string): string {
  return phrase
    .split(' ')
    .map((w) => w.replace(/s$/, '').slice(0, 6))
    .join(' ');
}

/** Cue-family matches: how many, which phrases, and how fitting the side that said them was. */
class CueTally {
  private readonly counts = new Array<number>(FAMILIES.length).fill(0);
  private readonly phrases = FAMILIES.map(() => new Set<string>());
  private readonly sideFactorSum = new Array<number>(FAMILIES.length).fill(0);

  constructor(private readonly repKnown: boolean) {}

  scan(text: string, isRep: boolean): void {
    forEachCue(CUES.combined, text, (f, phrase) => this.count(f, phrase, isRep));
  }

  private count(f: number, phrase: string, isRep: boolean): void {
    const by = FAMILIES[f]!.by;
    let factor = 1;
    if (!this.repKnown) factor = by === 'any' ? 1 : UNKNOWN_SIDE_FACTOR;
    else if (by === 'rep' && !isRep) factor = OFF_SIDE_FACTOR;
    else if (by === 'other' && isRep) factor = OFF_SIDE_FACTOR;
    this.counts[f]!++;
    this.phrases[f]!.add(phrase);
    this.sideFactorSum[f]! += factor;
  }

  /** Per family: capped distinct phrases (a repeat adds a little), at the family's average side factor. */
  scores(): Scores {
    const scores: Scores = {};
    FAMILIES.forEach((family, f) => {
      const n = this.counts[f]!;
      if (n === 0) return;
      // A word said ten times is one piece of evidence, not ten.
      const distinct = new Set([...this.phrases[f]!].map(phraseKey)).size;
      const evidence = distinct + REPEAT_WEIGHT * (n - distinct);
      add(scores, family.type, Math.min(evidence, family.cap) * (this.sideFactorSum[f]! / n) * family.weight);
    });
    return scores;
  }
}

/**
 * The turns to read. Past the budget, whole turns at an even stride, always with the opening ones: every count is
 * capped, so a long call saturates them long before its end, and the cost of a 2,000-turn call stays bounded.
 */
function turnsToRead(turns: readonly Turn[]): Turn[] {
  let totalChars = 0;
  for (const turn of turns) totalChars += turn.text.length;
  const stride = Math.max(1, Math.ceil(totalChars / TEXT_BUDGET));
  return stride === 1 ? [...turns] : turns.filter((_, i) => i < OPENING_TURNS || i % stride === 0);
}

function readCall(turns: readonly Turn[], repLabel: string | null): CallReading {
  const tally = new CueTally(repLabel !== null);
  const openingTexts: string[] = [];
  const openingIsRep: boolean[] = [];
  const pricePhrases = new Set<string>();
  let repQuestions = 0;
  let buyerQuestions = 0;
  let demonstrations = 0;
  let repAsks = 0;
  let repChars = 0;
  let readChars = 0;
  const charsBySpeaker = new Map<string, number>();
  let figures = 0;
  let words = 0;
  let existingCustomer = false;
  let higherPlan = false;
  let trialUnderWay = false;
  turnsToRead(turns).forEach((turn, i) => {
    const text = normalize(turn.text);
    const isRep = repLabel !== null && turn.speaker === repLabel;
    if (i < OPENING_TURNS) {
      openingTexts.push(text);
      openingIsRep.push(isRep);
    }
    readChars += text.length;
    FIGURE.lastIndex = 0;
    while (FIGURE.exec(text) !== null) figures++;
    WORD.lastIndex = 0;
    while (WORD.exec(text) !== null) words++;
    charsBySpeaker.set(turn.speaker, (charsBySpeaker.get(turn.speaker) ?? 0) + text.length);
    if (isRep) {
      repChars += text.length;
      let asks = REP_ASK.test(text) || ASK_STATEMENT.test(text);
      for (const q of questionsOf(text)) {
        if (!ABOUT_YOU.test(q)) continue;
        repQuestions++;
        if (CALL_TO_ACTION.test(q)) asks = true;
      }
      if (asks) repAsks++;
      demonstrations += demonstrationsOf(text);
    } else if (repLabel !== null) {
      for (const q of questionsOf(text)) if (CAPABILITY_QUESTION.test(q)) buyerQuestions++;
    }
    if (!existingCustomer) existingCustomer = EXISTING_CUSTOMER.test(text);
    if (!higherPlan) higherPlan = HIGHER_PLAN.test(text);
    if (!trialUnderWay) trialUnderWay = TRIAL_UNDER_WAY.test(text);
    if (pricePhrases.size < PRICED_PHRASES)
      for (const m of text.matchAll(PRICE_TALK)) pricePhrases.add(phraseKey(m[0]));
    tally.scan(text, isRep);
  });
  return {
    cueScores: tally.scores(),
    opening: readOpening(openingTexts, openingIsRep, repLabel !== null),
    repQuestions,
    buyerQuestions,
    demonstrations,
    repAsks,
    repLeads: repChars > PITCH_SHARE * readChars,
    figureDensity: figures < MIN_FIGURES ? 0 : (1000 * figures) / words,
    repHandsOver:
      repLabel !== null &&
      charsBySpeaker.size >= 3 &&
      repChars <= HANDED_OVER_SHARE * readChars &&
      [...charsBySpeaker.entries()].some(
        ([label, chars]) => label !== repLabel && repChars <= HANDED_OVER_RATIO * chars,
      ),
    existingCustomer,
    higherPlan,
    trialUnderWay,
    priced: pricePhrases.size >= PRICED_PHRASES,
  };
}

// ---- weighing the evidence ----
/**
 * Who asks: the rep asking and the buyer talking is discovery, unless the rep holds most of the call (the questions
 * are part of a pitch) or was called (qualifying the caller); the buyer asking what the product can do is evaluation.
 */
function addQuestionEvidence(scores: Scores, call: CallReading): void {
  if (call.repQuestions > 0 && !call.repLeads) {
    const points = Math.min(call.repQuestions, REP_QUESTION_CAP) * REP_QUESTION_WEIGHT;
    add(scores, call.opening.callerOpened ? 'inbound_call' : 'discovery', points);
  }
  if (call.buyerQuestions > 0)
    add(scores, 'evaluation', Math.min(call.buyerQuestions, BUYER_QUESTION_CAP) * BUYER_QUESTION_WEIGHT);
}

/** The rep pointing at the product on a screen or device is showing it, or a trial is under way: an evaluation. */
function addDemonstrationEvidence(scores: Scores, call: CallReading): void {
  if (call.demonstrations > 0)
    add(scores, 'evaluation', Math.min(call.demonstrations, DEMONSTRATION_CAP) * DEMONSTRATION_WEIGHT);
  if (call.trialUnderWay) add(scores, 'evaluation', TRIAL_POINTS);
}

/** Evidence from how the call opened: who rang whom, and whether it is a scheduled meeting. */
function addOpeningEvidence(scores: Scores, opening: Opening, existingCustomer: boolean): void {
  if (opening.callerOpened) add(scores, 'inbound_call', CALLER_OPENED_POINTS);
  if (opening.repRang && !opening.meeting) addRangEvidence(scores, opening, existingCustomer);
  // A scheduled meeting is neither a cold call nor a screen by a receptionist.
  if (opening.meeting && !opening.repRang) scale(scores, ['cold_call', 'gatekeeper'], OFF_CHANNEL_FACTOR);
}

/**
 * A call the rep placed. Nobody demos or reviews an architecture unannounced. The rep rang to get past a screen (the
 * touch or pitch told to the screen weighs less), to follow up a prior touch, or, with no account either, cold.
 */
function addRangEvidence(scores: Scores, opening: Opening, existingCustomer: boolean): void {
  scale(scores, ['technical_discovery', 'evaluation'], OFF_CHANNEL_FACTOR);
  // Whoever answered is no screen when the rep checked it was the person they called.
  if (opening.reachedTarget) scale(scores, ['gatekeeper'], OFF_CHANNEL_FACTOR);
  const warm = scores.warm_call ?? 0;
  if (opening.screened) {
    scale(scores, ['cold_call', 'warm_call'], OFF_CHANNEL_FACTOR);
    add(scores, 'gatekeeper', RANG_POINTS);
  } else if (warm > 0 && warm >= (scores.cold_call ?? 0)) add(scores, 'warm_call', RANG_POINTS);
  else if (!existingCustomer && (scores.gatekeeper ?? 0) < MIN_SCORE) add(scores, 'cold_call', RANG_POINTS);
}

/**
 * A call about an existing account is not a prospect's first contact, discovery or evaluation: it is customer
 * success, or cross-selling when something is priced or a higher plan offered. When the account is offered more, that
 * purpose outweighs the topic: the technical questions and the trial are about the expansion. Without any sign of an
 * account, customer-success and cross-selling cues weigh less.
 */
function addAccountEvidence(scores: Scores, call: CallReading): void {
  if (!call.existingCustomer) {
    scale(scores, ['customer_success', 'cross_selling'], NO_ACCOUNT_FACTOR);
    return;
  }
  add(scores, call.priced ? 'cross_selling' : 'customer_success', EXISTING_CUSTOMER_POINTS);
  if (call.higherPlan) add(scores, 'cross_selling', UPSELL_POINTS);
  scale(
    scores,
    ['cold_call', 'warm_call', 'discovery', 'technical_discovery', 'evaluation'],
    EXISTING_CUSTOMER_FACTOR,
  );
  if ((scores.cross_selling ?? 0) < MIN_SCORE) return;
  for (const topic of EXPANSION_TOPICS) {
    add(scores, 'cross_selling', scores[topic] ?? 0);
    delete scores[topic];
  }
}

/**
 * A session the rep hands to a colleague: three or more voices, the rep holds a small share of the words and a
 * colleague or the buyer talks several times as much. The rep's sales engineer runs a technical discovery or a demo.
 */
function addSessionEvidence(scores: Scores, call: CallReading): void {
  if (!call.repHandsOver) return;
  add(scores, 'technical_discovery', HANDED_OVER_TECHNICAL_POINTS);
  add(scores, 'evaluation', HANDED_OVER_EVALUATION_POINTS);
}

/**
 * Bargaining is done in figures: amounts, percentages, seat counts, term lengths. A call dense with them leans to
 * negotiation, whatever words carry the figures.
 */
function addFigureEvidence(scores: Scores, call: CallReading): void {
  const share = (call.figureDensity - FIGURE_DENSITY_LOW) / (FIGURE_DENSITY_HIGH - FIGURE_DENSITY_LOW);
  if (share > 0) add(scores, 'negotiation', Math.min(1, share) * FIGURE_POINTS);
}

/**
 * A pitch to a stranger is a cold call: the rep asks for a commitment again and again, or once while holding most of
 * the call, in no meeting, with no account, no screen to get past and no caller with a need of their own.
 */
function addPitchEvidence(scores: Scores, call: CallReading): void {
  const pitched = call.repAsks >= PITCH_ASKS || (call.repAsks > 0 && call.repLeads);
  const { meeting, callerOpened, screened } = call.opening;
  if (pitched && !call.existingCustomer && !meeting && !callerOpened && !screened)
    add(scores, 'cold_call', PITCH_POINTS);
}

/**
 * A phrase-and-structure reading sure of its type decides; otherwise the word model (call-type-model.ts) when it
 * is sure enough, else the reading when it names a type. Measured per unseen author (eval/train-call-type.ts --cv,
 * decisions §31 and §36), this beats both alone and the earlier vote of the two.
 */
export function classifyCall(
  turns: Turn[],
  repLabel: string | null,
  model: CallTypeModel = shippedCallTypeModel(),
): Classification {
  const call = readCall(turns, repLabel);
  const scores = call.cueScores;
  addQuestionEvidence(scores, call);
  addDemonstrationEvidence(scores, call);
  addSessionEvidence(scores, call);
  addOpeningEvidence(scores, call.opening, call.existingCustomer);
  addAccountEvidence(scores, call);
  addPitchEvidence(scores, call);
  addFigureEvidence(scores, call);
  const reading = decide(scores);
  if (!reading.fallback && reading.confidence >= READING_DECIDES) return reading;
  const rows = callFeatureRows(model, turns, repLabel);
  // Too few known words to read anything from: the reading alone decides (discovery when it cannot either).
  if (rows.length < MIN_MODEL_FEATURES) return reading;
  const probabilities = softmax(callTypeLogits(model, rows));
  const best = probabilities.indexOf(Math.max(...probabilities));
  const confidence = round(probabilities[best]!);
  if (confidence < MODEL_DECIDES && !reading.fallback) return reading;
  if (confidence < MIN_CONFIDENCE) return { callType: 'discovery', confidence, fallback: true, scores };
  const callType = CALL_TYPES.find((type) => type === model.classes[best]);
  if (callType === undefined)
    throw new Error(`the call-type model names an unknown type: ${model.classes[best]}`);
  return { callType, confidence, fallback: false, scores };
}

/** The best-scoring type, or `discovery` when the evidence is too weak or its lead over discovery too narrow. */
function decide(scores: Scores): Classification {
  // Ties broken by the fixed type order, so the result is deterministic.
  const ranked = (Object.entries(scores) as [CallType, number][]).sort(
    (a, b) => b[1] - a[1] || CALL_TYPES.indexOf(a[0]) - CALL_TYPES.indexOf(b[0]),
  );
  const [best, second] = ranked;
  if (best === undefined || best[1] < MIN_SCORE) {
    return { callType: 'discovery', confidence: 0, fallback: true, scores };
  }
  const lead = best[1] - (second?.[1] ?? 0);
  const confidence = round(Math.min(1, (lead / best[1]) * Math.min(1, best[1] / (2 * MIN_SCORE))));
  // A narrow lead between two specific types still names the better one; only a narrow lead over discovery itself
  // (the type of an ordinary first conversation) falls back to it.
  if (best[0] !== 'discovery' && second?.[0] === 'discovery' && lead < MIN_RELATIVE_MARGIN * best[1]) {
    return { callType: 'discovery', confidence, fallback: true, scores };
  }
  return { callType: best[0], confidence, fallback: false, scores };
}
