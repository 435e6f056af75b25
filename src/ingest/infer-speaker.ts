/**
 * Pure: heuristic rep-speaker inference from what each speaker says (spec rule 3(c), DESIGN section 4
 * "Speaker matching"). Each speaker gets a seller-side and a buyer-side evidence score from cue families
 * (self-introduction with a company, pitching, agenda, discovery questions, next steps, commercial terms, asking
 * for the purchase or donation; versus describing their own current setup, asking the price, objecting, screening a
 * caller, calling in with a need, committing their own money)
 * plus two lexical signals (questions addressed to "you", second- versus first-person-singular balance).
 *
 * Rules the design keeps:
 * - Position is never a signal: who speaks first, last or most often does not matter, only what is said.
 *   The result is invariant to the order in which speakers first appear and to their labels.
 * - Excluded labels (customers and other participants named by the caller) are never returned.
 * - Abstain (null) when the best candidate lacks seller evidence or is not clearly ahead of the runner-up; two
 *   close seller-side speakers (a rep beside a sales engineer) abstain rather than guess.
 * - Linear time: a few passes over each turn with combined, precompiled regular expressions.
 */
import { CueFamilySet, forEachCue } from './cue-patterns.js';
import { normalizeForCues as normalize } from './cue-text.js';
import {
  likelihoodsOf,
  shippedSpeakerModel,
  speakerFeatureRows,
  type SpeakerModel,
} from './speaker-model.js';
import type { Turn } from './transcript.js';

export interface InferenceResult {
  label: string;
  confidence: number;
  signals: Record<string, unknown>;
}

type Side = 'seller' | 'buyer';

interface CueFamily {
  name: string;
  side: Side;
  /** Points per occurrence. */
  weight: number;
  /** Occurrences counted per speaker (diminishing returns: one repeated phrase cannot decide alone). */
  cap: number;
  pattern: string;
}

// Patterns run on lower-cased text with typographic apostrophes folded to "'". Word boundaries everywhere; no
// nested quantifiers, so matching stays linear.
const FAMILIES: readonly CueFamily[] = [
  // ---- seller side ----
  {
    name: 'company_intro',
    side: 'seller',
    weight: 3,
    cap: 2,
    pattern:
      "\\b(?:this is|it's|it is|my name is|i'm|i am)(?! (?:a|an|the|not|so|very|just|really|doing|well|good|fine|from|still|also|having|getting|looking|trying|working|on|in|at|already|originally|familiar|kinda|kind of|sort of|happy|pleased|satisfied|impressed|comfortable|done|okay|ok|busy|stuck|bored|frustrated|involved|acquainted|friends|based|located|dialed|agree|back|home|out|away|over|important|unfamiliar|maxed|interested|aware|new|glad|sure|sorry|afraid|worried|concerned|excited|ready|able|willing)[ ,])(?! [a-z]+(?:ing|ly)\\b)(?: [a-z]+){1,2},? (?:from|with|at(?! [a-z0-9]+(?: [a-z0-9]+)? (?:dot|domain)\\b)|over at|here at|calling from) [a-z]" +
      "|\\b(?:and|,) i'?m with [a-z]|\\bi'?m with a (?:company|firm|team|business) called\\b|\\bi'?m with [a-z]+ [a-z]+,? (?:we|and we)\\b" +
      "|\\bi'?m calling (?:from|on behalf of)\\b|(?<!\\b(?:you|you're|are you|were you) )\\bcalling from [a-z]|\\byou've reached\\b" +
      "|\\bi'?m (?:your|the) (?:account|main contact|customer success)|\\bi'll be your (?:main )?(?:contact|account)",
  },
  {
    name: 'reason_for_call',
    side: 'seller',
    weight: 3,
    cap: 2,
    pattern:
      "\\bthe reason (?:for (?:my|the) call|i'?m calling|i called|i'?m reaching out|i reached out)\\b" +
      "|\\bi'?m (?:just )?(?:reaching out|calling) (?:because|to (?:follow up|see|introduce|check in|let you know))" +
      "|\\byou don't know me\\b|\\bwe (?:haven't|have not) (?:spoken|met)\\b|\\bi don't think we've (?:spoken|met)\\b|\\bi'?m calling (?:[a-z]+ )?[a-z]+s (?:about|in|around|across|like)\\b|\\byou (?:weren't|were not) expecting (?:my|this) call\\b|\\bsorry to (?:bother|interrupt|disturb) you\\b|\\bi'?ll (?:be|keep it) real quick\\b|\\bi'?ll (?:take you off|remove you)\\b" +
      "|\\bi'?m calling (?:about|regarding) (?:your|how|a|an|some)\\b|\\bi (?:just )?wanted to (?:talk|speak|chat) (?:to you |with you )?about\\b|\\bi'?m (?:here|supposed|trying|meant) to (?:talk to you|ask you|tell you|persuade|convince)\\b|\\bit(?:'s| is) (?:about|regarding) your\\b|\\bi'?m calling (?:because|to) (?!ask|check|find|cancel|return|report|change)[a-z]+|\\bout of the blue\\b|\\bout of nowhere\\b|\\bcold call\\b|\\bi'll (?:keep it|be) (?:quick|brief)\\b" +
      '|\\b(?:did|have) i (?:catch|caught) you\\b|\\bcaught you at\\b|\\bthanks for taking my call\\b',
  },
  {
    name: 'warm_reference',
    side: 'seller',
    weight: 2.5,
    cap: 2,
    pattern:
      '\\byou (?:downloaded|signed up|requested|registered|attended|stopped by|filled out|asked (?:a question|about))\\b' +
      '|\\b(?:suggested|recommended) (?:that )?i (?:give you a (?:call|ring|shout)|get in touch|reach out|call|contact)\\b|\\bwe met at\\b' +
      "|\\bi (?:said|promised) i'?d (?:follow up|call|get back)\\b|\\bi (?:just )?wanted to (?:follow up|check in|see (?:where|how|if|whether))\\b|\\b(?:we|when we) last (?:spoke|talked|met|chatted)\\b|\\blast time we (?:spoke|talked|met)\\b" +
      '|\\bthanks for (?:attending|downloading|signing up)\\b|\\byou (?:put in|submitted|sent (?:in|us)|made) (?:a|an|the) (?:demo |pricing |quote )?(?:request|enquiry|inquiry)\\b' +
      "|\\bon our (?:site|website|pricing page|webinar|booth|stand)\\b|\\bi thought i'?d (?:call|ring|reach out)\\b",
  },
  {
    name: 'pitch',
    side: 'seller',
    weight: 1.5,
    cap: 5,
    pattern:
      '\\bour (?:platform|solution|product|software|tool|app|pricing|plans?|module|add-on|integration|connector|agent|' +
      'native|certified|standard|default|support team|team can|customers (?:usually|typically|see|tell|like))\\b' +
      '|\\bwe (?:help|offer|provide|work with|specialize|support|integrate|sit on|handle|ship|put|make it|fix|have a (?:native|certified|[a-z]+ region))\\b' +
      '|\\b(?:customers|companies|teams|clients) like (?:you|yours)\\b|\\bcompanies your size\\b|\\bmost of our (?:clients|customers)\\b' +
      "|\\bthat's (?:exactly )?(?:the (?:exact )?problem|what) (?:we|the [a-z-]+) (?:fix|solve|do)|\\bwe(?:'ve| have) helped\\b" +
      '|\\b(?:a lot of|many) (?:our )?(?:[a-z]+ )?(?:customers|clients|leaders|teams) (?:use|tell|ask|have|find|start)\\b|\\bwe hear that a lot\\b',
  },
  {
    name: 'agenda',
    side: 'seller',
    weight: 2.5,
    cap: 3,
    pattern:
      '\\bagenda\\b|\\b(?:my|our) (?:goal|aim|plan) (?:for today|today)\\b|\\bthe (?:plan|goal|aim) (?:for today|today) is\\b' +
      "|\\btoday is (?:about|our)\\b|\\bwhat i'?d like to (?:cover|do)\\b|\\bi'?d like to (?:spend|go through|go over|cover|understand|learn|go deep|dig into|focus on)\\b" +
      "|\\bbefore we (?:dive|get) in\\b|\\bi've got us for\\b|\\bkeep an eye on (?:the )?time\\b|\\bso we're on the same page\\b" +
      "|\\bquarterly business review\\b|\\bwe'll (?:save|leave) (?:the last )?[a-z]+ minutes\\b",
  },
  {
    name: 'discovery_question',
    side: 'seller',
    weight: 1.25,
    cap: 6,
    pattern:
      '\\bwalk me through\\b|\\btell me (?:a (?:little|bit) )?(?:more )?about\\b(?! (?:it|this|that|them)\\b)|\\bhow (?:do|does|did) your\\b(?! (?:system|platform|product|tool|software|app|api|solution|pricing)\\b)|\\bwhat (?:[a-z]+ ){0,2}(?:does|do) your\\b(?! (?:product|platform|tool|software|app|api|solution|pricing)\\b)' +
      "|\\bwhat(?:'s| is) your (?:biggest|main)\\b|\\bwhat (?:made|prompted) you\\b|\\bwhat happens (?:after|when)\\b|\\bwhen did you last\\b" +
      '|\\bwho else (?:besides|would|will|is)\\b|\\bhow (?:are|do) you (?:handling|managing|tracking|handle|manage|track|currently)\\b' +
      '|\\bwhat would success look like\\b|\\bwhat would you need\\b|\\bwhat would (?:make|it take|need to (?:happen|change))\\b|\\b(?:have|has) (?:you|anything|anyone) (?:already )?(?:been )?tried\\b' +
      "|\\bhow(?:'s| is| has) (?:it|everything|the [a-z]+) (?:been )?(?:going|working) (?:so far|for you|with (?:the|your))\\b|\\bhow(?:'s| has) it been for you\\b" +
      '|\\bwhat got in the way\\b|\\bif you could (?:fix|change)\\b' +
      "|\\bout of (?:interest|curiosity)\\b|\\bif you don't mind me asking\\b|\\bwhat are you (?:using|doing)\\b" +
      '|\\bhow many (?:people|users|agents|employees|seats|staff|locations)\\b|\\bhow many [a-z]+ (?:a|per) (?:day|week|month|year|shift)\\b|\\bwhich [a-z]+ are you (?:on|using)\\b',
  },
  {
    name: 'next_steps',
    side: 'seller',
    weight: 2,
    cap: 4,
    pattern:
      "\\bi'll (?:send|email) (?:you |over |both )?(?:a |an |the |some |two |our )?(?:calendar |revised |clean )?" +
      '(?:invites?|recap|summary|quote|proposal|order form|contract|comparison|one-pager|trial|link|agreement|options|times|version|case study)\\b' +
      '|\\bnext steps?\\b|\\b(?:calendar )?invite\\b|\\b(?:set|book) up (?:a |an |some )?(?:time|call|meeting|demo|session)\\b' +
      "|\\bshall we (?:book|set|schedule)\\b|\\bcould we (?:meet|look at times|schedule)\\b|\\bi'll (?:follow up|check in|reach out)\\b" +
      '|\\b(?:a few|a couple of|some) (?:times|options)\\b|\\bout for signature\\b',
  },
  {
    name: 'commercial',
    side: 'seller',
    weight: 1.5,
    cap: 4,
    pattern:
      '\\bi can (?:offer|do|bring|cut|meet|agree|hold|include|prorate|go|switch|take)\\b|\\bi can give you (?:a |an )?(?:discount|[a-z]+ percent|[a-z]+ off|better|the same|a better)\\b|\\bwe can (?:offer|go|change|include|raise)\\b' +
      '|\\bper[- ](?:seat|user|provider|sender)\\b|\\blist price\\b|\\bprice lock\\b|\\border form\\b|\\bprorat|\\bco-term' +
      '|\\bthe standard is\\b|\\bis included (?:on|in)\\b' +
      "|\\bi(?:'ll| will| can| could)? (?:waive|lock (?:in )?the|throw in|knock off|take off)\\b|\\bi could (?:do|go|offer|be at|include|drop|meet|match)\\b" +
      "|\\bwhat if (?:we|i) (?:did|do|went|made|matched|waived|threw|included|dropped|locked|split|ramp)\\b|\\bif i match(?:ed)?\\b|\\bi(?:'ll| will) match (?:whatever|any|your|that)\\b" +
      "|\\b(?:migration|onboarding|training|setup|implementation|support) is included\\b|\\byou'll have (?:it|them|both|that|the [a-z]+) (?:by|today|tomorrow|this|first)\\b" +
      "|\\bi'?ll (?:update|revise|amend|adjust|redo|rework) the (?:quote|proposal|order form|contract|pricing|sow|paperwork|agreement)\\b|\\b(?:it|that|the (?:price|total|cost)) comes down to\\b",
  },
  {
    name: 'ask_commitment',
    side: 'seller',
    weight: 1.5,
    cap: 4,
    pattern:
      '\\bwould you (?:like|be (?:open|willing|interested|up for|comfortable|okay)|consider|want)\\b|\\bare you open to\\b|\\bwould (?:he|she|they|you|your [a-z]+) (?:go for|be up for) (?:that|it|this)\\b' +
      "|\\bwould it (?:make sense|help|be worth)\\b|\\bcould i (?:get|grab|suggest|set)\\b|\\bcan i grab\\b|\\bi'?d (?:love to|suggest|recommend|propose)\\b" +
      '|\\blet me (?:show|walk you|share my|build|put together)\\b|\\bcan i suggest\\b',
  },
  {
    name: 'persuasion',
    side: 'seller',
    weight: 1.5,
    cap: 4,
    pattern:
      '\\bno (?:strings|obligation|commitment)\\b|\\bcould i (?:drop|send|pop|come|swing|stop) (?:off|by|over|round|you)\\b|\\bhave you (?:ever )?heard (?:of|about)\\b|\\bare you familiar with\\b|\\byou (?:can|could) (?:help|make|choose|save|start|be part|consider|visit|try|donate|give|contribute)\\b' +
      '|\\bmake (?:a|an) (?:big |real |huge |real )?(?:difference|impact)\\b|\\beven (?:a |the )?(?:small|little|tiny|smallest|modest)\\b|\\bgoes? a long way\\b|\\bevery (?:little )?bit (?:helps|counts)\\b' +
      '|\\bany amount\\b|\\bany (?:donation|contribution|gift)\\b|\\bdo you (?:ever|usually|often|currently)\\b' +
      "|\\beven if it's (?:small|just|only|a little)\\b|\\bif you(?:'re| are) (?:comfortable|willing|able) (?:with|to) (?:donat|giv|contribut)|\\bi (?:really |highly |strongly )recommend\\b|\\bplease consider\\b",
  },
  {
    // Asking the other side to give, buy or commit: a donation request is the close of a pitch.
    name: 'asks_to_give',
    side: 'seller',
    weight: 2,
    cap: 3,
    pattern:
      '\\bhow (?:much )?(?:would|will|could|can) you (?:like to |want to |think you (?:can|could|would) |be (?:willing|able) to |plan (?:on|to) )?(?:donate|give|contribute|spend|pledge|commit|invest)\\b' +
      "|\\bi(?:'d| would) like to (?:ask|encourage|invite|urge) you to\\b|\\bwhat (?:would|do) you think (?:of|about) (?:donating|giving|contributing|joining|signing|trying|switching)\\b" +
      "|\\bi hope you (?:will|'ll|can|would) (?:think about|consider|donate|give|help|join|decide)\\b" +
      "|\\b(?:are )?you willing to (?:donate|give|contribute)\\b|\\bdo you want to (?:donate|give|contribute|make a donation)\\b|\\byou agree to (?:donate|give|contribute)\\b|\\bso you(?:'re| are) (?:donating|giving|contributing)\\b",
  },
  {
    // The other side's money as "yours": "your donation", "your purchase", "your payment".
    name: 'your_purchase',
    side: 'seller',
    weight: 1.25,
    cap: 3,
    pattern: '\\byour (?:donation|gift|contribution|pledge|purchase|investment|payment|earnings|money)\\b',
  },
  {
    name: 'describes_offering',
    side: 'seller',
    weight: 1,
    cap: 5,
    pattern:
      '\\b(?:it|they|this|which|that) (?:helps?|provides?|allows?|lets|gives|offers?|supports?|builds?|funds?|focuses|automates|handles|includes|promotes|serves|protects|fights|delivers|saves|aims)\\b',
  },
  {
    name: 'service',
    side: 'seller',
    weight: 2,
    cap: 3,
    pattern:
      '\\bthank(?:s| you) for calling\\b|\\b(?:how|what) (?:can|may) i (?:help|assist)\\b|\\bwhat can i do for you\\b|\\bhappy to help\\b(?! (?:them|him|her|others|people|children|kids|out)\\b)' +
      "|\\bi can (?:definitely )?(?:help (?:you|with)|look into)\\b|\\blet me (?:check (?:that|on that|your|for you)|pull (?:that|it|up))\\b|\\bmy pleasure\\b|\\bi'm sorry (?:about|for) (?:that|the)\\b" +
      '|\\b(?:is there )?anything else i can help\\b|\\bthanks (?:so much )?for (?:reaching out|getting in touch|contacting us)\\b|\\bwho am i speaking with\\b',
  },
  {
    name: 'gatekeeper_navigation',
    side: 'seller',
    weight: 2.5,
    cap: 3,
    pattern:
      "\\bcould i (?:speak|talk) (?:with|to)\\b|\\bi'?m (?:trying to reach|looking for) (?:whoever|someone|the|[a-z]+ [a-z]+ in)\\b" +
      '|\\bis (?:he|she) (?:available|around)\\b|\\bwho would be the right person\\b|\\bcould i leave a message\\b|\\bcan you (?:connect|put) me\\b' +
      "|\\bi'?m (?:trying to reach|hoping to (?:get|reach|speak|catch|have))\\b|\\b(?:better|good) (?:time|way) to (?:catch|reach|get hold of|get) (?:him|her|them)\\b" +
      "|\\b(?:could|can) i (?:get|have) (?:an|the|his|her|their) (?:email|number|extension|direct line)\\b|\\bcan you (?:tell|let) (?:him|her|them) (?:know|it's|that)\\b" +
      "|\\bi'?ll (?:call|try) (?:back|again)\\b|\\bi'?ll try (?:him|her|them)\\b|\\bwho(?:'s| is) the (?:right person|person (?:who|that) (?:handles|looks after|runs|manages))\\b" +
      "|\\bi'?m looking for (?:a few|some|ten|two|five|a couple of) (?:minutes|time) with\\b|\\bi was hoping to (?:grab|catch|get|reach) (?:him|her|them|[a-z]+) for\\b|\\b(?:who|which person)(?:'s| is| would be) the right (?:first )?(?:person|conversation|contact|team)\\b",
  },
  {
    name: 'leads_team',
    side: 'seller',
    weight: 2.5,
    cap: 3,
    pattern:
      "\\bi've brought [a-z]+ (?:along|with me)\\b|\\bi've (?:brought|pulled|looped) in [a-z]+\\b|\\bi've brought [a-z]+,? who\\b|\\b(?:he|she)'ll (?:ask|walk you|take you|cover|show you|answer|handle|demo|take (?:most|the lead|over|it from))\\b|\\bi'?ll (?:just )?(?:keep|take) (?:the )?notes\\b|\\b(?:he|she)'s (?:one of )?our (?:senior )?(?:solutions?|sales) engineers?\\b" +
      "|\\bour (?:senior )?(?:solutions?|sales) engineer\\b|\\bour (?:commercial|sales) (?:director|lead)\\b|\\bour (?:head of sales|implementation (?:lead|manager|consultant)|product (?:specialist|expert))\\b|\\b(?:i'll|i'm (?:gonna|going to)) let (?:[a-z]+) (?:drive|take|start|walk|get|lead|run|show)\\b|\\bover to you\\b|\\bi'll (?:jump in|mostly let)\\b" +
      "|\\bdo you want to start\\b|\\bon the commercial side\\b|\\bi'?m (?:your|the) account (?:executive|lead|manager)\\b" +
      '|,? your (?:account (?:manager|executive|rep)|customer success (?:manager|lead|contact)|csm|success manager)\\b',
  },
  // ---- buyer side ----
  {
    name: 'current_state',
    side: 'buyer',
    weight: 1.5,
    cap: 5,
    pattern:
      "\\bwe(?:'re| are) (?:currently |still |already )?(?:using|on)\\b|\\bwe currently\\b|\\bright now we\\b|\\bat the moment we\\b" +
      "|\\bour current\\b|\\bwe've been (?:on|using)\\b|\\bwe just (?:renewed|went through|signed)\\b|\\bwe already have\\b" +
      '|\\bmy team\\b|\\bour (?:budget|manager|cfo|ceo|vp|boss|it team|team is)\\b|\\bmy (?:boss|manager|vp|cfo|controller)\\b' +
      "|\\bwe use (?:a|an|two|three|about|around)\\b|\\bwe budgeted\\b|\\bwe can't\\b",
  },
  {
    name: 'evaluating',
    side: 'buyer',
    weight: 1.5,
    cap: 3,
    pattern:
      "\\bwe(?:'re| are) (?:evaluating|looking at|comparing|talking to|considering)\\b|\\bnarrowed it down\\b|\\b(?:another|other) vendors?\\b" +
      '|\\bthey came in cheaper\\b|\\bthe other (?:tool|vendor|option)\\b',
  },
  {
    name: 'price_question',
    side: 'buyer',
    weight: 2,
    cap: 3,
    pattern:
      "\\bhow much (?:does|is|would|will) (?:it|that|this|the [a-z]+) (?:cost|be|run)\\b|\\bhow much is (?:it|that|this)\\b|\\bwhat (?:does|would|will) (?:that|it|this) (?:cost|add|come to)\\b|\\bwhat's the (?:price|cost|catch)\\b" +
      "|\\bwhat(?:'s| is) (?:it|that|this) (?:cost|come to|(?:going to|gonna) cost)\\b" +
      '|\\bwhat would the total\\b|\\broom on price\\b|\\bcan (?:that|it) be waived\\b|\\bwhy is it free\\b',
  },
  {
    name: 'objection',
    side: 'buyer',
    weight: 2,
    cap: 3,
    pattern:
      "\\btoo expensive\\b|(?<!\\bif (?:he's|she's|they're|you're|it's) )\\bnot (?:really |terribly |that |very |too |all that |particularly )?interested\\b|\\bnot a priority\\b|\\bno budget\\b|\\bhard to take to\\b|\\bwe're all set\\b" +
      "|(?<!\\bif (?:it's|this is|now is) )\\b(?:bad time|not a good time)\\b|\\bheard that (?:pitch|before)\\b|\\btoo good\\b|\\bsend me (?:some|something|an email|more|info|information|your (?:deck|brochure|pricing))\\b" +
      "|\\bi'?d (?:have|need) to (?:check|ask|talk|get)\\b|\\blet me take (?:that|it) back\\b|\\bi'll take it to\\b|\\bi'll (?:look at it|keep it on file)\\b" +
      "|\\bi(?:'m| am)? (?:(?:still|just|really|simply) )?(?:unable|not able|not going|not willing|not in a position) to (?:donate|give|buy|pay|commit|afford|contribute|spend|sign)\\b" +
      "|\\bi (?:can't|cannot|won't|will not|don't want to) (?:really )?(?:donate|afford|buy|pay|contribute|spend)\\b|\\bi(?:'m| am) (?:still )?not (?:donating|buying|giving|contributing|spending)\\b|\\bi will not be (?:making|donating|giving|buying)\\b",
  },
  {
    name: 'screening',
    side: 'buyer',
    weight: 3,
    cap: 4,
    pattern:
      "\\bwho(?:'s| is) (?:calling|this)\\b|\\bwho should i say\\b|\\b(?:may|can) i (?:ask|say) who\\b|\\bwhat (?:is|'s) (?:this|it) (?:regarding|about)\\b" +
      '|\\bwhat company\\b|\\bdoes (?:he|she) know what\\b|\\bis (?:he|she) expecting\\b|\\bput you through\\b|\\btransfer you\\b' +
      "|\\b(?:he|she)(?:'s| is) (?:in (?:a )?meetings?|with a (?:patient|client|customer)|out (?:on|of|today)|not (?:in|available)|on the other line)\\b" +
      '|\\btake a message\\b|\\b(?:would|do) you (?:like|want) (?:to leave|(?:his|her) voicemail)\\b|\\bhow (?:can|may) i direct\\b|\\bplease hold\\b' +
      "|\\b(?:doesn't|does not|don't|do not) (?:take|do) (?:sales )?(?:calls|phone calls)\\b|\\bwhat it(?:'s| is) (?:regarding|about|in regard to|concerning)\\b|\\bis it a sales call\\b|\\bwe get a lot of calls\\b|\\bi'll pass it on\\b" +
      '|\\bwhich (?:firm|company|organi[sz]ation|agency|business) (?:are you|is this|do you|is it)\\b|\\bare you (?:calling )?(?:from|with) (?:a|an) (?:company|firm|vendor|agency|supplier)\\b|\\bare you (?:one of )?our (?:suppliers?|vendors?|clients?|customers?|patients?)\\b|\\b(?:have|has) (?:you|your (?:company|firm)) (?:worked|done business) with us\\b',
  },
  {
    name: 'caller_need',
    side: 'buyer',
    weight: 2.5,
    cap: 3,
    pattern:
      "\\bi'?m calling (?:about (?:my|our|the (?:invoice|bill|order|renewal|account))|because (?:my|our|we|i)|regarding (?:my|our)|to (?:ask|check|find|cancel|return|report|change))\\b" +
      "|\\bi (?:need|want|would like|'d like) to (?:return|cancel|check|transfer|change|report|know|order|update)\\b" +
      '|\\bmy (?:account|order|card|invoice|bill|balance|refund|password|subscription|savings|checking)\\b|\\bour (?:invoice|bill)\\b' +
      '|\\bwe got charged\\b|\\bi (?:got|saw) (?:a voicemail|your (?:ad|email|note))\\b|\\bi (?:wrote|messaged|chatted) (?:on|in|to) your\\b|\\bi lost my\\b|\\bis this the (?:sales|support)\\b' +
      '|\\bit worked fine\\b|\\bi (?:had|have) (?:a|some) questions?\\b',
  },
  {
    name: 'consent_or_doubt',
    side: 'buyer',
    weight: 1,
    cap: 4,
    pattern:
      "\\bi(?:'d| would) be (?:willing|happy|glad) to\\b|\\bi(?:'ll| will) (?:think about|consider) it\\b|\\bi'm not (?:sure|convinced)\\b" +
      "|\\bi don't (?:really )?know (?:much|if|about|enough)\\b|\\bi(?:'ll| will) (?:take|go with)\\b(?! (?:[a-z]+ ){0,3}?(?:to|back)\\b)",
  },
  {
    // The buyer commits their own money: "my donation", "I'll donate", "I can give $5".
    name: 'own_purchase',
    side: 'buyer',
    weight: 1,
    cap: 3,
    pattern:
      '\\bmy (?:donations?|gift|contribution|pledge|purchase)\\b' +
      "|\\bi(?:'ll| will|'d like to| would like to|'m going to| am going to| plan to| can| could| would) (?:also |gladly )?(?:donate|contribute|pledge|make a donation|give (?=to\\b|\\$|[0-9]|[a-z]+ (?:dollars?|cents?)\\b))",
  },
  {
    name: 'product_question',
    side: 'buyer',
    weight: 1.5,
    cap: 4,
    pattern:
      '\\bhow does (?:it|that|this|the [a-z]+) (?:work|compare|differ)\\b|\\bwhat (?:exactly )?does (?:it|that) do\\b' +
      '|\\bcan (?:we|i|our [a-z]+) (?:export|import|try|integrate)\\b|\\bwould we need\\b|\\bdo we need\\b|\\bhow many [a-z]+ would we\\b',
  },
  // ---- generic templates from sales methodology (openers, SPIN discovery, value, objections, next steps) ----
  {
    name: 'permission_opener',
    side: 'seller',
    weight: 2,
    cap: 2,
    pattern:
      '\\b(?:do|have) you (?:have|got) (?:a |two |a few |a couple of )?(?:minutes?|moments?|seconds?)\\b|\\bis (?:now|this) (?:a )?(?:good|bad|ok|okay) time\\b' +
      '|\\bthanks for (?:making (?:the )?time|taking the time|your time today)\\b',
  },
  {
    name: 'social_proof',
    side: 'seller',
    weight: 1.5,
    cap: 3,
    pattern:
      '\\bwe work with (?:a lot of|lots of|many|other|several|companies|teams|firms|businesses)\\b|\\b(?:other|similar) (?:customers|clients|companies|teams|firms) (?:have|see|saw|tell|told|found|use)\\b' +
      "|\\bcase stud(?:y|ies)\\b|\\b(?:customers|clients) typically\\b|\\btypically (?:see|save|cut|get)\\b|\\bwhat we've done (?:for|with)\\b|\\bfor (?:other|similar) (?:[a-z]+ )?(?:clients|customers)\\b",
  },
  {
    name: 'objection_handling',
    side: 'seller',
    weight: 1.5,
    cap: 3,
    pattern:
      "\\b(?:i|totally|completely|i completely|i totally) (?:understand|get (?:it|that))\\b|\\bi hear you\\b|\\bthat's (?:a )?(?:fair|totally fair|reasonable)(?: (?:point|question|concern))?\\b" +
      "|\\bthat's (?:a )?(?:common|normal) (?:concern|question|one)\\b|\\bthat's (?:very|really|pretty|quite) common\\b|\\bunderstandable\\b",
  },
  {
    name: 'spin_question',
    side: 'seller',
    weight: 1.25,
    cap: 6,
    pattern:
      '\\bhow (?:long|often|much time) (?:do|does|did|has|have|is|are) (?:you|your)\\b|\\bhow many [a-z]+ (?:do|are|did) you\\b|\\b(?:can|could) you walk me\\b|\\b(?:can|could) you tell me (?:(?:a (?:little|bit) |more |a bit )?(?:about )?(?:how|what|who|when|where|why|which|your|you)\\b)' +
      "|\\bwhat(?:'s| is) (?:the|your) (?:timeline|timeframe|budget|process|priority|decision)\\b|\\bwho (?:else )?(?:is|would be|will be) involved\\b" +
      "|\\bwhat would (?:it|that) (?:mean|look like) (?:for|to) you\\b|\\bwhat (?:would|does) (?:it|that|(?:a|an|the) [a-z]+(?: of [a-z]+)?) cost you\\b|\\bwhat's (?:driving|behind) (?:that|this|the)\\b|\\bwhy now\\b" +
      '|\\bwhat (?:tools?|systems?|software|process) (?:are|do) you\\b|\\bhow (?:are|do) you (?:doing|dealing with|handle|handling) (?:that|it|this)\\b' +
      "|\\b(?:talk|take) me through\\b|\\bwhat (?:goes|went|tends to go) wrong\\b|\\bhow long does (?:the|that|it|this)\\b|\\bi'll ask (?:a lot of|some|a few) questions\\b" +
      '|\\b(?:summari[sz]e|recap) what i (?:heard|learned)\\b|\\b(?:sit|rank|fit) in your (?:priorities|plans|roadmap)\\b|\\bget a (?:picture|sense|feel) (?:of|for)\\b',
  },
  {
    name: 'proposes_next_step',
    side: 'seller',
    weight: 1.5,
    cap: 3,
    pattern:
      "\\bi'll (?:send|email|share) (?:you|over|across)\\b|\\b(?:does|would) [a-z]+(?: at [a-z0-9:]+)? work for you\\b|\\bhow does [a-z]+ (?:look|sound) for you\\b" +
      "|\\bfollow[- ]up (?:call|meeting|session)\\b|\\bi'll (?:set|book|schedule) (?:up )?(?:a|the|some|time)\\b",
  },
  {
    name: 'seller_pricing',
    side: 'seller',
    weight: 1.25,
    cap: 3,
    pattern:
      '\\bper (?:user|seat|licen[cs]e)\\b|\\b(?:a|per) (?:user|seat) (?:a|per) (?:month|year)\\b|\\b(?:starts|comes in|priced) at\\b',
  },
  {
    name: 'agent_action',
    side: 'seller',
    weight: 1.5,
    cap: 3,
    pattern:
      "\\b(?:can|may|could) i (?:get|have|take|grab) (?:your|the) (?:full )?(?:name|username|user name|email|account|order|postcode|zip|phone|details)\\b|\\bmay i ask (?:the reason|your|for your)\\b|\\b(?:i can|i'll|let me) escalate\\b|\\bi've (?:gone ahead|added|updated|applied|set (?:it|that|you) up)\\b" +
      "|\\bi can see (?:you(?:'re| are)|your|that your)\\b",
  },
  {
    name: 'introduces_colleague',
    side: 'seller',
    weight: 2,
    cap: 2,
    pattern:
      "\\b(?:my|our) colleague\\b|(?:\\bis|'s) (?:our|one of our) [a-z]+ (?:engineer|architect|specialist|consultant|lead)\\b",
  },
  {
    // Handing the call to a colleague just introduced: "this is Sam from our team, she'll drive today".
    name: 'hands_over_lead',
    side: 'seller',
    weight: 2.5,
    cap: 1,
    pattern: "\\b(?:he|she)'ll (?:drive|lead)\\b",
  },
  {
    name: 'pain_statement',
    side: 'buyer',
    weight: 1.25,
    cap: 4,
    pattern:
      "\\b(?:it's|it is|that's) (?:a )?(?:real )?(?:pain|nightmare|mess|headache|struggle)\\b|\\bwe (?:struggle|waste|lose)\\b|\\btakes (?:us|me|forever|ages)\\b" +
      '|\\bwe (?:currently|still|mostly|basically) [a-z]+\\b|\\b(?:right now|today|at the moment|currently),? (?:we|our|everything)\\b|\\bour (?:staff|people|process|setup|stack|workflow|spreadsheets?|employees)\\b',
  },
  {
    name: 'needs_approval',
    side: 'buyer',
    weight: 1.5,
    cap: 3,
    pattern:
      '\\blet me (?:check|talk|run (?:it|this|that)|confirm) (?:with|by|past) (?:my|our|the)\\b|' +
      "\\bi (?:need|have|'d need|'d have|would need|would have) to (?:run|check|talk|ask|get|speak|loop)\\b|\\b(?:run|check) (?:it|this|that) (?:by|with|past) (?:my|our|the) (?:boss|manager|team|cfo|ceo|director|vp|partner|board|finance|legal|it|procurement|head|owner|lawyer|accountant|colleagues?)\\b|\\bget (?:sign-off|approval|buy-in)\\b",
  },
  {
    name: 'asks_vendor',
    side: 'buyer',
    weight: 1.5,
    cap: 4,
    pattern:
      // Not "could you send / share / include…": sellers ask buyers for their files and data as often.
      '\\b(?:can|could|would) you (?:match|waive|lower|come down|do better)\\b' +
      '|\\b(?:does|can|will|would) (?:it|this|that|your (?:product|platform|tool|app|software|system)) (?:work|integrate|support|handle|connect|sync|let|allow|export|import|scale|include)\\b' +
      '|\\bdo you (?:support|integrate|offer|have (?:an? )?(?:api|integration|trial|discount|option))\\b|\\bis (?:there|it) (?:an? )?(?:trial|discount|minimum|setup fee)\\b' +
      '|\\bhow much (?:does|is|would|will) (?:it|this|that|the (?:licen[cs]e|subscription|plan|platform|tool|product|upgrade|add-on))\\b|\\bhow much do you charge\\b|\\bwhat (?:do|would) you charge\\b|\\bany (?:flexibility|wiggle room|room) on\\b',
  },
  {
    name: 'screening_generic',
    side: 'buyer',
    weight: 3,
    cap: 3,
    pattern:
      "\\bwhat(?:'s| is) (?:this|it|the call) (?:in reference to|concerning)\\b|\\bwho(?:'s| is) speaking\\b|\\bwhat company (?:are you|is this)\\b" +
      "|\\b(?:he|she)(?:'s| is) (?:busy|unavailable|away|tied up|on a call|not here)\\b|\\bi(?:'ll| will) (?:let|tell) (?:him|her) you called\\b" +
      "|\\bnot (?:taking|accepting) (?:calls|sales calls|vendor calls)\\b|\\bvendors? (?:have to|must|need to|should) (?:go|come|email|send|use)\\b|\\bi can (?:transfer|put) you\\b|\\btransferring you\\b|\\bi'?m not supposed to\\b|\\b(?:he|she) (?:says|asks|wants) (?:to|you to|people to)\\b|\\bfor (?:providers|vendors|suppliers|salespeople)\\b|\\bi can (?:put|leave) a note\\b|\\b(?:he|she)(?:'s| is) in (?:surgery|the plant|the field|the office|clinic|court|class)\\b|\\bno[- ]solicitation\\b|\\b(?:can't|cannot) (?:transfer|put through) (?:sales|vendor)|\\btake me off\\b|\\bi'll (?:see|check) if (?:he|she)(?:'s| is)\\b",
  },
  {
    name: 'inbound_need',
    side: 'buyer',
    weight: 2,
    cap: 2,
    pattern:
      "\\bi(?:'m| am) (?:ringing|phoning) (?:about|because|regarding|to)\\b|\\b(?:i|we) (?:need|want|would like|'d like) (?:a|some) (?:quote|price|demo|help|information|info)\\b" +
      "|\\bwe(?:'re| are) (?:an? )?(?:existing|current) customer\\b|\\bwe(?:'re| are) already (?:a )?customers?\\b",
  },
  {
    // Service and concession offers in the first person: "I can set that up", "let me resend it to you".
    name: 'offers_action',
    side: 'seller',
    weight: 1,
    cap: 4,
    pattern:
      '\\bi can (?!not\\b|buy\\b|afford\\b|pay\\b|sign\\b|donate\\b|probably\\b|live\\b|do (?:monday|tuesday|wednesday|thursday|friday|that day|then)\\b|transfer\\b|put (?:you|a note)\\b|take a\\b|give you (?:his|her|their|the email|the number)\\b)(?:also |definitely |certainly )?[a-z]+\\b' +
      "|\\b(?:i'll|i will|let me) (?:also )?(?:send|email|walk|show|set|resend|add|update|share|get|put|book|arrange|extend|write|prepare|pull) (?:[a-z']+ ){0,3}?(?:you|your)\\b",
  },
  {
    name: 'affirming',
    side: 'seller',
    weight: 1,
    cap: 3,
    pattern:
      '\\b(?:glad|great|lovely|good|nice) to hear\\b|\\bof course\\b|\\babsolutely\\b|\\bgreat question\\b|\\bhappy to\\b|\\bwhat we can do\\b',
  },
  {
    // The seller's side as a capable actor ("we can", "we'll", "we could"), not the buyer's "can we", "we can't".
    name: 'we_can',
    side: 'seller',
    weight: 0.75,
    cap: 4,
    pattern: "\\bwe (?:can|could|will|'ll)(?!'t| not)\\b|\\bwe'll\\b",
  },
  {
    // The buyer describes their own organisation and its people, tools and problems.
    name: 'own_org',
    side: 'buyer',
    weight: 0.75,
    cap: 6,
    pattern:
      '\\b(?:our|my) (?:current|old|existing|own|biggest|main|office|team|staff|people|it|hr|finance|board|boss|manager|director|clinic|clinics|sites?|stores?|customers|users|system|tool|process|data)\\b' +
      '|\\bwe (?:see|saw|tried|lost|hired|paid|had|spend|spent|pay|get|got|did|need|needed|want|wanted)\\b',
  },
  {
    // The buyer's side of a deal: their demands on the vendor's paper, their purchasing process.
    name: 'buyer_terms',
    side: 'buyer',
    weight: 1.5,
    cap: 4,
    pattern:
      "\\bwe (?:asked for|require|insist|can't accept|cannot accept|won't accept|want the right|prefer)\\b|\\byour (?:standard |current |revised |latest |new )?(?:version|draft|paper|proposal|quote|order form|msa|dpa|contract|terms) (?:says|say|has|lists|includes|doesn't|does not|only)\\b" +
      "|\\b(?:i|we)'?ll sign\\b|\\byou(?:'ve| have) got (?:it|a deal)\\b|\\bthat's where it lands\\b|\\b(?:could|can) you do (?:better|it for|[a-z]+ (?:thousand|hundred|percent))\\b|\\bwe need (?:it|that|this) (?:capped|at|to be|lower|below|under)\\b" +
      '|\\b(?:supplier|vendor) (?:registration|risk (?:assessment|review)|number|policy)\\b|\\bregister(?:ed)? (?:as a|in our) (?:supplier|vendor)\\b|\\b(?:issue|raise) (?:a|the) (?:po|purchase order)\\b|\\b(?:po|purchase order) raised\\b|\\bthanks for (?:sending|the) (?:the )?(?:revised |updated |new )?(?:quote|proposal|pricing)\\b|\\bif a vendor\\b|\\bany vendor\\b|\\bour (?:vendors|suppliers)\\b' +
      '|\\bour (?:procurement|purchasing|legal|security|infosec|compliance) (?:team|people|department|policy|process) (?:needs?|wants?|requires?|will|asked)\\b',
  },
  // ---- general conversational roles (who offers to act, whose organisation is discussed) ----
  {
    // The seller offers to do the work: "shall I put together…", "would it help if I…", "want me to…".
    name: 'offer_to_act',
    side: 'seller',
    weight: 1.5,
    cap: 4,
    pattern:
      '\\b(?:shall|should) i (?!ask\\b|tell\\b|say\\b|call\\b|bring\\b|send (?:you )?(?:our|my)\\b)[a-z]+|\\bwould it help if (?:i|we)\\b|\\b(?:do |would )?(?:you )?(?:want|like) me to\\b' +
      "|\\bi'?ll (?:have|get) (?:them|it|that|those|this|something|a [a-z]+) (?:ready|over|across|drafted|sorted)\\b|\\bi'?ll put (?:together|in)\\b" +
      "|\\bmeeting request\\b|\\b(?:a few|some|two|three) (?:slots|time slots)\\b|\\bi'?ll (?:reflect|include|note) (?:that|it|this)\\b" +
      "|\\bi'?ll (?:loop in|bring in|ask (?:our|my))\\b|\\bi'?ll put (?:a |an |the |our )?(?:[a-z-]+ ){0,3}together\\b|\\bwe'?ll send (?:you |over )?(?:our|the|a|an)\\b|\\b(?:could|can) i show you\\b|\\bput together (?:a|an|some|the|two|three|a few)\\b" +
      "|\\bwhat(?:'s| is) the best (?:email|number|way to reach|time to (?:call|reach))\\b|\\bi'?ll meet you\\b|\\bfor (?:your )?signature\\b" +
      "|\\bi'?ll (?:send|share|email|forward) (?:the|a|an|our|updated|revised|final|some|both)\\b|\\bi'?ll resend\\b|\\bif (?:that|it)(?:'d| would) (?:be )?(?:useful|helpful)\\b|\\bi'?d like to (?:come back|follow up|send|share|show|bring) (?:you |with )" +
      "|\\bi'?ll send (?:it|them|that|this) (?:by|over|today|tomorrow|tonight|on|first|this)\\b|\\bi'?ll (?:have|get) (?:support|our [a-z]+(?: [a-z]+)?) (?:to )?(?:look|push|check|send|fix|call|reach|review|map|set|configure|confirm|update|change)\\b" +
      "|\\bi'?ll (?:text|call|ping|message|update) you (?:when|once|as soon as)\\b|\\bi'?ll (?:build|prepare|draft|configure|mock up) (?:a|an|the|you|some|two|three)\\b|\\bi'?ll write (?:this|it|that|these) up\\b" +
      '|\\bwhat are you comparing us\\b|\\bcompar(?:e|ing) us (?:to|with|against)\\b',
  },
  {
    // The seller shows the product and points to prior customers' results.
    name: 'demonstrates',
    side: 'seller',
    weight: 1.25,
    cap: 4,
    pattern:
      "\\b(?:i'll|let me) share my screen\\b|\\bif i (?:open|click|go (?:to|into)|select|pick|switch)\\b|\\bhere you can see\\b|\\byou can see (?:the|that|how|your|it|here)\\b" +
      '|\\blet me (?:go back|scroll|click|open (?:the|that|this|it))\\b|\\b(?:this|that) (?:button|tab|screen|page|menu|field|icon|toggle) (?:here|there|on the)\\b' +
      "|\\bwe (?:moved|switched|migrated|took|got) (?:[a-z']+ ){1,2}(?:team|company|firm|office|group|clinic)s? (?:to|onto|off|from)\\b",
  },
  {
    // The seller talks about the buyer's organisation and its numbers ("your team", "your renewal", "your stores").
    name: 'your_org',
    side: 'seller',
    weight: 0.75,
    cap: 6,
    pattern:
      "\\byour (?:team|teams|company|company's|agency|office|offices|business|organi[sz]ation|district|clinic|clinics|firm|group|staff|people|reps|managers|agents|drivers|stores|sites|locations|numbers|volumes?|setup|process|workflow|side|users|admins|account|renewal|contract|current|existing|growth|goals|priorities|timeline|board|cfo|ceo|director|it team|finance team|lawyer|buyers|customers|patients|students|members)\\b",
  },
  {
    // The buyer profiles their own organisation: its size, its people, what it has ("we've got two sites", "we have
    // about 300 users"). Not "we're a small firm": sellers describe their own company that way too.
    name: 'own_profile',
    side: 'buyer',
    weight: 1.25,
    cap: 4,
    pattern:
      "\\bwe(?:'ve| have) got\\b|\\bwe (?:have|run|employ|operate) (?:about|around|roughly|over|nearly|almost|like|[0-9]+)\\b",
  },
  {
    // The seller tells the buyer what the offering would do for them, or what the seller recommends.
    name: 'benefit_to_you',
    side: 'seller',
    weight: 1.25,
    cap: 3,
    pattern:
      "\\byou(?:'ll|'d| will| would) (?:be able to|never have to|no longer|not have to|not need to)\\b|\\byou (?:won't|wouldn't) (?:have|need) to\\b|\\b(?:it'll|it will|it would|that'll|that would|this will|this would) (?:save|give|let|free up) you\\b" +
      "|\\b(?:i|we)(?:'d| would) (?:recommend|suggest)\\b|\\bmy recommendation\\b",
  },
  {
    // The seller asks how the buyer's work runs now: how long, how often, how many, typically or today (not "how much",
    // which either side asks about money, nor "how are you today?").
    name: 'situation_question',
    side: 'seller',
    weight: 1.25,
    cap: 3,
    pattern:
      '\\bhow (?:long|often|many)\\b[^.?!]{0,60}\\b(?:currently|today|now|typically|usually|roughly|normally|on average|a (?:day|week|month|year)|per (?:day|week|month|year))\\b[^.?!]*\\?' +
      '|\\b(?:today|currently|right now|at the moment),? (?:who|how(?! much| are you| is your)|what|where|when)\\b[^.?!]*\\?|\\b(?:who|how(?! much| are you| is your)|what|where|when)\\b[^.?!]{0,60}\\b(?:today|currently|right now|at the moment)\\?',
  },
  {
    // The seller grants terms: what they are allowed to offer, where they can move, what goes into the paper.
    name: 'grants_terms',
    side: 'seller',
    weight: 1.5,
    cap: 3,
    pattern:
      "\\b(?:i|we)(?:'ve| have) been (?:authori[sz]ed|cleared|approved|given the (?:ok|okay|go-ahead)) to\\b|\\b(?:we|i)(?:'d| would) (?:be able to )?offer\\b|\\bi can (?:move|flex|bend|budge) on\\b" +
      "|\\b(?:i'll|i will|we'll|we will) (?:add|include|put|build|write) (?:the|that|it|them|this|those|a|an) [^.?!]{0,30}\\b(?:in|into|to|on) (?:the|your) (?:draft|contract|agreement|order form|quote|proposal|setup|paper|terms)\\b|\\bsending it (?:over|now|in|today|across)\\b" +
      // terms granted on a condition: "I can waive the fee if you…", "if you sign today, I can…"
      "|\\b(?:we|i)(?: can| could|'ll| will) (?:do|go|accept|agree|waive|include|add|extend|hold|lock)[^.?!]{0,40}\\bif you\\b" +
      "|\\bif you (?:can |could )?(?:sign|commit|give us|agree to (?:a|the)|move)[^.?!]{0,40}\\b(?:we|i)(?: can| could| will|'ll)\\b",
  },
  {
    // The buyer demands terms and takes the paper to their own approvers.
    name: 'demands_terms',
    side: 'buyer',
    weight: 1.25,
    cap: 3,
    pattern:
      '\\bwe (?:need|want|require) (?:[a-z0-9-]+ ){0,3}(?:days|months|years|percent|only|capped|fixed)\\b|\\bsend (?:me|us) the (?:revised|updated|new|final|clean|redlined) (?:draft|version|quote|proposal|contract|order form|paper|terms)\\b' +
      "|\\bsend it (?:over|through|across) and (?:i|we)(?:'ll| will) sign\\b|\\b(?:bring|take) (?:it|this|that) to (?:our|my) (?:purchasing|procurement|board|committee|cfo|finance|legal|management)\\b",
  },
  {
    // The buyer refers to the vendor's offering as "yours": "your platform", "your pricing", "your docs".
    name: 'vendor_ref',
    side: 'buyer',
    weight: 1,
    cap: 4,
    pattern:
      '\\byour (?:product|products|platform|software|tool|app|solution|pricing|prices|price|offering|enterprise|docs|documentation|api|sales (?:team|rep)|support (?:team|line)|brochure|competitors?)\\b',
  },
];

/** The families as a few combined patterns (cue-patterns.ts). */
const CUES = new CueFamilySet(FAMILIES.map((f) => f.pattern));

/** For the evaluation's family-dropout measure only (eval/dropout.ts): read the speakers with only some cue families. */
export function setSpeakerFamiliesForEvaluation(
  keep: ((family: number, pattern: string) => boolean) | null,
): number {
  return CUES.keepOnly(keep);
}

/**
 * Second- and first-person words in one pass. Pronoun balance: you/your/yours/yourself against i/me/my/mine/myself.
 * Possessives: the seller talks about "your" business, the buyer about "our"/"my" own.
 */
const PERSON_WORDS = /\b(?:you|your|yours|yourself|i|me|my|mine|myself|our|ours)\b/g;
const INTERROGATIVE_START =
  /^(?:(?:and|so|but|okay|ok|right|and so|out of curiosity),? )?(?:could|can|would|will|do|does|did|are|is|have|has|were|should|is there|how|what|what's|which|when|where|who|why)\b/;
const ADDRESSES_YOU = /\byou(?:r|rs|rself)?\b/;
/**
 * First-person words that put the asker's own side into a question ("can we…", "what about our…", "send me…").
 * The "me" of a discovery request ("walk me through", "tell me about", "help me understand") is not the asker's side.
 */
const OWN_SIDE =
  /\b(?:we|our|ours|us|mine)\b|\bmy\b(?! (?:colleague|team (?:can|will)))|(?<!\b(?:tell|walk|take|help|show|give|remind|talk) )\bme\b/;
/** Questions about the offering itself (what it does, costs, supports), typically asked by the buyer. */
const ABOUT_OFFERING =
  /^(?:(?:and|so|but|okay|ok|right),? )?(?:how much(?:$| (?:is|does|would|will|are|do) (?:it|that|this|these|those|all (?:this|that)|the (?:[a-z-]+ )?(?:fee|fees|price|cost|plan|licen[cs]e|subscription|upgrade|add-on|total|setup|package|tier|module|service|bundle|renewal|pilot|program|option))\b| (?:higher|more|extra|less|lower|cheaper|for|per)\b| of a (?:discount|difference|saving|premium)\b)|(?:is|are) there (?:a |an |any )?(?:[a-z-]+ )?(?:discount|discounts|fee|fees|minimum|contract|trial|setup|limit|cap|charge|costs?|penalty|warranty|guarantee|sla|refund|flexibility|website|app|api|version|plan|tier|integration)\b|(?:is|are) there [a-z' ]*\b(?:i|we) (?:can|could)\b|(?:does|can|will) (?:it|that|this)\b|it (?:[a-z]+s|can|will|does)\b)|\byour (?:product|platform|software|tool|app|solution|pricing|price|offering|api|enterprise|docs)\b|\bdo you (?:support|offer|integrate|provide|charge)\b|\bhow (?:does|would|will) (?:it|that|this|the [a-z]+) (?:work|integrate|connect|compare|handle)\b|\bwhat (?:does|would|will) (?:it|that|this) (?:cost|cover|include|involve)\b|^(?:and )?the (?:cost|price)$|\bwhat (?:exactly )?(?:does|do) (?:this|that|the) (?:organi[sz]ation|charity|nonprofit|foundation|company|program|product|platform|service|tool|app|software) (?:do|offer|provide)\b|\btell me (?:a (?:little|bit) )?(?:more )?about (?:it|this|that|them)\b/;
/** Questions about how a product area works or what it covers ("where do the suggestions come from?"). */
const ABOUT_FEATURE =
  /^(?:(?:and|so|but|okay|ok),? )?(?:(?:where|how) (?:do|does) (?:the|these|those|it|that|this) (?:[a-z]+ )?(?:come from|work|get|sync|update)|what about (?:reporting|pricing|security|support|integrations?|sso|mobile|exports?|the api|permissions|onboarding|training|the data|data|backups|uptime))\b/;
/** Questions that screen a caller: who they are, where they call from, what the call is about. */
const ABOUT_CALLER =
  /\bwho(?:'s| is) (?:this|calling|speaking)\b|\bwhat(?:'s| is) (?:this|it|the call|the nature of the call) (?:about|regarding|in reference to|concerning)\b|\bwhat(?:'s| is) the nature of\b|\b(?:where|what company) (?:are )?you(?:'re)? (?:calling|ringing|with|from)\b|\bwhat company\b|\bwhat it(?:'s| is) (?:regarding|about|concerning)\b|\bis (?:he|she|they) expecting\b|\band you are\b|\bwho did you say\b|\b(?:are|were) you (?:a|an|from) (?:the )?(?:patient|customer|client|vendor|provider|supplier|salesperson|sales)\b|\byou are from\b|\bwho gave you (?:my|this)\b|\bwhich (?:firm|company|organi[sz]ation|agency|business) (?:are you|is this|is it)\b|\bare you (?:calling )?(?:from|with) (?:a|an) (?:company|firm|vendor|agency|supplier)\b|\bare you (?:one of )?our (?:suppliers?|vendors?)\b|\bhow(?:'d| did) you get (?:my|this)\b|\bwhat do you (?:guys )?(?:do|sell)\b|\bwho (?:are you|do you work for)\b/;
/**
 * In unpunctuated (ASR) text a question rarely opens the turn ("okay great so how many people…"): a turn with no
 * sentence punctuation at all is read as asking when one of these question frames occurs anywhere in it.
 */
const QUESTION_FRAME =
  /\b(?:how (?:many|much|long|often|do|does|did|are|is|would|will)|what(?:'s| is| are| do| does| did| would| kind| happens)|which (?:one|[a-z]+ (?:do|are|is))|who (?:else|is|are|would|handles)|do you|did you|are you|can you|could you|would you|have you|is there|are there|does (?:it|that|this|your)|can (?:it|we|i)|when (?:do|does|did|is|would|will))\b/;
const SENTENCE_PUNCTUATION = /[.?!]/;
/** Questions about what the buyer's side could do with the offering ("can we export…?", "can she approve…?"). */
const CAPABILITY_QUESTION =
  /^(?:(?:and|so|but|okay|ok|right),? )?(?:can|could|will|would|do|does) (?:we|i|she|he|they|our [a-z]+|my [a-z]+|users|admins|managers|people) (?:still |also |then |just )?(?:export|import|build|use|set|connect|integrate|add|change|customi[sz]e|see|get|approve|edit|create|run|track|try|test|filter|share|access|turn|switch|sync|pull|push|automate|configure|keep|store|host|cancel|upgrade|downgrade|pay|need|migrate|choose|map|restrict|limit|delete|download|upload|print|send|receive|log|sign|pick|select|schedule|hide)\b/;
/** Scheduling questions ("can we meet on Tuesday?", "could we set up a call?"), not about the offering. */
const SCHEDULING =
  /\b(?:meet|schedule|book|set up (?:a|some|another|the) (?:call|time|meeting|session)|find (?:a|some) time|talk|chat|speak|catch up|regroup|reconvene|move (?:the|our)|push (?:the|it)|start|wait|hear)\b/;
/** How much the other side gives or spends: asked by either side, so it directs no answer. */
const HOW_MUCH_YOU = /^(?:(?:and|so|but|okay|ok|well),? )?how much(?: [a-z']+){0,6} you\b/;
/** Greetings and questions handed back ("how are you?", "how was your weekend?", "and you?"): small talk either side asks. */
const SMALL_TALK =
  /^(?:(?:hi|hello|hey|good|great|fine|well|and|so|but|okay|ok),? )*(?:how (?:are|r) (?:you|u)(?: doing)?(?: today| this (?:morning|afternoon|evening))?|how(?:'s| is| was| has) (?:your|the) (?:day|morning|afternoon|evening|weekend|week|holiday|weather)(?: been| going)?|how(?:'s| is) it going|how have you been|(?:how|what) about (?:you|yourself)|(?:and )?(?:you|yourself)|you too)$/;
/** An answer that speaks about the speaker's own side ("we use…", "our team…", "I'm not sure"). */
const OWN_ANSWER = /\b(?:we|we're|we've|our|us|my|i|i'm|i've|i'd)\b/;

/** Minimum net seller-side evidence of the pick (the others may be clearly buyer-side, which the lead captures). */
const MIN_NET = 1;
/** Minimum lead of the pick over the best other candidate. */
const MIN_MARGIN = 3;
/** Minimum of own evidence plus lead: weak evidence needs a large lead, a small lead strong evidence. */
const MIN_TOTAL = 6.5;
const CONFIDENCE_SCALE = 2.5;
/** Minimum seller-minus-buyer cue points of the pick (structural signals count as cues). */
const MIN_CUE_NET = 1.5;
/** Or: more than MIN_CUE_FOR_LEAD cue points of the pick and this lead in cue points over the runner-up. */
const MIN_CUE_LEAD = 4;
/** A single weak cue (one "you can help") does not make a pick, however buyer-like the other speaker sounds. */
const MIN_CUE_FOR_LEAD = 1;
/** The runner-up looks seller-side too and is within this fraction of the pick: two seller-side voices. */
const CLOSE_SELLER_RATIO = 0.6;
/** Between two seller-side voices, the one who runs the call (agenda, next steps, commercial terms) must lead by this. */
const RUNS_CALL_MARGIN = 2;

const YOU_QUESTION_WEIGHT = 0.75;
const YOU_QUESTION_CAP = 6;
/** Questions about the asker's own side or about the offering (buyer-side), per occurrence. */
const OWN_QUESTION_WEIGHT = 0.5;
const OWN_QUESTION_CAP = 6;
const ADDRESS_WEIGHT = 4;
const POSSESSIVE_WEIGHT = 3;
/** Words of a speaker needed before the pronoun balance counts fully. */
const ADDRESS_FULL_EVIDENCE_WORDS = 80;
/** Answering another speaker's question about one's own situation (buyer) or about the offering (seller). */
const ANSWER_SELF_WEIGHT = 1;
const ANSWER_SELF_CAP = 6;
const ANSWER_OFFERING_WEIGHT = 1.25;
const ANSWER_OFFERING_CAP = 5;
const ANSWER_SCREEN_WEIGHT = 2;
const ANSWER_SCREEN_CAP = 3;

/** Families of the speaker who introduces a colleague and hands the call over ("Sam is our solutions engineer"). */
const HANDS_OVER = ['leads_team', 'introduces_colleague', 'hands_over_lead'].map((name) =>
  FAMILIES.findIndex((f) => f.name === name),
);
/**
 * The word model replaces a pick it rates under REPLACE_OWN_BELOW with a speaker it rates at least REPLACE_MIN (a sales
 * engineer or the buyer named where the rep's words are plain), and otherwise vetoes a pick it rates under
 * VETO_OWN_BELOW while rating another speaker over VETO_OTHER_ABOVE (chosen by per-author cross-validation, §30;
 * REPLACE_MIN 0.8 → 0.95 with the 600-epoch model, §38).
 */
const REPLACE_OWN_BELOW = 0.1;
const REPLACE_MIN = 0.95;
const VETO_OWN_BELOW = 0.3;
const VETO_OTHER_ABOVE = 0.4;
/**
 * Where the phrases found nothing, the word model picks the speaker it rates at least WORD_PICK_MIN while it leaves
 * "nobody" (a call without a seller) at most WORD_PICK_NOBODY_MAX; where the phrases found two voices they cannot
 * tell apart, only at WORD_PICK_UNDECIDABLE_MIN (per-author cross-validation, decisions §35).
 */
const WORD_PICK_MIN = 0.8;
const WORD_PICK_NOBODY_MAX = 0.02;
const WORD_PICK_UNDECIDABLE_MIN = 0.9;
/** Characters of utterance text read in full; longer calls are read in blocks of turns at an even stride. */
const TEXT_BUDGET = 150_000;
const BLOCK_TURNS = 12;
/** The most agenda, next-step and terms evidence of a colleague brought in who does not run the deal. */
const INTRODUCED_RUNS_CALL_MAX = 3;
/** Characters from the start of the call searched for who brought a colleague in (introductions come early). */
const INTRODUCTION_TEXT_BUDGET = 30_000;
/** A pick with less agenda, next-step and terms evidence than this does not run the call (late-voice rule). */
const LATE_VOICE_RUNS_CALL_MAX = 2;
/** Share of the turns after which a voice's first turn is late, and the turns a late voice needs. */
const LATE_VOICE_SHARE = 0.5;
const LATE_VOICE_MIN_TURNS = 2;
/** A voice that presents itself as leading the seller's team: "I manage the team here", "I'm her manager". */
const PRESENTS_AS_MANAGER =
  /\bi (?:manage|lead|run) (?:the|our) (?:[a-z]+ )?team\b|\bi'?m (?:the|his|her|their) manager\b|\bi manage (?:him|her|them)\b/;
/** Families that show who runs the call, to tell the rep from a sales engineer. */
const RUNS_CALL = new Set([
  'agenda',
  'next_steps',
  'leads_team',
  'introduces_colleague',
  'hands_over_lead',
  'proposes_next_step',
  'commercial',
  'seller_pricing',
  'reason_for_call',
  'ask_commitment',
  'offer_to_act',
]);

export interface SpeakerEvidence {
  label: string;
  cues: number[];
  words: number;
  you: number;
  self: number;
  youQuestions: number;
  ownQuestions: number;
  yourPoss: number;
  ownPoss: number;
  /** Answers to another speaker's question about this speaker's own situation (buyer-side). */
  answeredSelf: number;
  /** Answers to another speaker's question about the offering (seller-side). */
  answeredOffering: number;
  /** Answers to a screening question (who is calling, what about): the caller, a seller. */
  answeredScreen: number;
  seller: number;
  buyer: number;
  lexical: number;
  runsCall: number;
  net: number;
}

function emptyEvidence(label: string): SpeakerEvidence {
  return {
    label,
    cues: new Array<number>(FAMILIES.length).fill(0),
    words: 0,
    you: 0,
    self: 0,
    youQuestions: 0,
    ownQuestions: 0,
    yourPoss: 0,
    ownPoss: 0,
    answeredSelf: 0,
    answeredOffering: 0,
    answeredScreen: 0,
    seller: 0,
    buyer: 0,
    lexical: 0,
    runsCall: 0,
    net: 0,
  };
}

/** What a turn asks of the next speaker. */
type Ask = 'none' | 'about_you' | 'about_offering' | 'about_caller';

/** Adds one turn's cues and pronouns to its speaker's evidence; returns what the turn asks. */
function scanTurn(e: SpeakerEvidence, text: string): Ask {
  forEachCue(CUES.combined, text, (family) => e.cues[family]!++);
  PERSON_WORDS.lastIndex = 0;
  for (let m = PERSON_WORDS.exec(text); m !== null; m = PERSON_WORDS.exec(text)) {
    const w = m[0];
    if (w.startsWith('y')) {
      e.you++;
      if (w === 'your' || w === 'yours') e.yourPoss++;
    } else if (w === 'our' || w === 'ours') e.ownPoss++;
    else {
      e.self++;
      if (w === 'my') e.ownPoss++;
    }
  }
  // Questions aimed at the other side: "?"-terminated, or interrogative openings in unpunctuated ASR text.
  let ask: Ask = 'none';
  let start = 0;
  const unpunctuated = !SENTENCE_PUNCTUATION.test(text);
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 46; // '.' closes the last sentence
    const wordChar = (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 39;
    if (wordChar && !inWord) e.words++;
    inWord = wordChar;
    if (code === 46 || code === 33 || code === 63 || code === 10) {
      if (i > start) {
        const sentence = text.slice(start, i).trim();
        if (
          code === 63 ||
          INTERROGATIVE_START.test(sentence) ||
          (unpunctuated && QUESTION_FRAME.test(sentence))
        ) {
          // "How do you handle…?" asks about the other side (seller); "can we…?", "does it…?" about one's own
          // side or the offering (buyer).
          if (HOW_MUCH_YOU.test(sentence)) {
            // "How much would you like to give?" and "how much are you giving?" are asked by either side.
          } else if (ABOUT_CALLER.test(sentence)) {
            ask = 'about_caller';
          } else if (ABOUT_OFFERING.test(sentence) || ABOUT_FEATURE.test(sentence)) {
            e.ownQuestions++;
            if (ask !== 'about_caller') ask = 'about_offering';
          } else if (OWN_SIDE.test(sentence)) {
            e.ownQuestions++;
            // "Can we build our own reports?" is answered by the seller; "can we meet on Tuesday?" is scheduling.
            if (ask === 'none' && CAPABILITY_QUESTION.test(sentence) && !SCHEDULING.test(sentence))
              ask = 'about_offering';
          } else if (ADDRESSES_YOU.test(sentence) && !SMALL_TALK.test(sentence)) {
            e.youQuestions++;
            if (ask === 'none') ask = 'about_you';
          }
        }
      }
      start = i + 1;
    }
  }
  return ask;
}

function finish(e: SpeakerEvidence): SpeakerEvidence {
  let seller = 0;
  let buyer = 0;
  let runsCall = 0;
  FAMILIES.forEach((f, i) => {
    const points = Math.min(e.cues[i]!, f.cap) * f.weight;
    if (f.side === 'seller') seller += points;
    else buyer += points;
    if (RUNS_CALL.has(f.name)) runsCall += points;
  });
  // Structural signals: answering a question about the offering is selling; answering one about one's own
  // situation is buying. They count as cue evidence.
  seller += Math.min(e.answeredOffering, ANSWER_OFFERING_CAP) * ANSWER_OFFERING_WEIGHT;
  seller += Math.min(e.answeredScreen, ANSWER_SCREEN_CAP) * ANSWER_SCREEN_WEIGHT;
  buyer += Math.min(e.answeredSelf, ANSWER_SELF_CAP) * ANSWER_SELF_WEIGHT;
  const balance = (e.you - e.self) / (e.you + e.self + 2);
  const possessive = (e.yourPoss - e.ownPoss) / (e.yourPoss + e.ownPoss + 2);
  const lexical =
    Math.min(e.youQuestions, YOU_QUESTION_CAP) * YOU_QUESTION_WEIGHT -
    Math.min(e.ownQuestions, OWN_QUESTION_CAP) * OWN_QUESTION_WEIGHT +
    (ADDRESS_WEIGHT * balance + POSSESSIVE_WEIGHT * possessive) *
      Math.min(1, e.words / ADDRESS_FULL_EVIDENCE_WORDS);
  e.seller = seller;
  e.buyer = buyer;
  e.lexical = lexical;
  e.runsCall = runsCall;
  e.net = seller - buyer + lexical;
  return e;
}

/**
 * One pass over the turns in order. Besides each speaker's own words, a turn that answers another speaker's
 * question counts: the answer to "how many people are on your team?" comes from the buyer, the answer to "does it
 * integrate with…?" from the seller. Only adjacency matters, never who opened the call.
 */
export function collectEvidence(turns: readonly Turn[]): Map<string, SpeakerEvidence> {
  const bySpeaker = new Map<string, SpeakerEvidence>();
  let previousAsk: Ask = 'none';
  let previousSpeaker: string | null = null;
  let totalChars = 0;
  for (const turn of turns) totalChars += turn.text.length;
  // Past the budget, read blocks of consecutive turns at an even stride (adjacency survives inside a block): cue
  // counts are capped per speaker, so a long call saturates them long before its end, and the cost of a
  // 2,000-turn call stays bounded. Every speaker is still a candidate.
  const stride = Math.max(1, Math.ceil(totalChars / TEXT_BUDGET));
  let index = -1;
  for (const turn of turns) {
    index++;
    let e = bySpeaker.get(turn.speaker);
    if (e === undefined) {
      e = emptyEvidence(turn.speaker);
      bySpeaker.set(turn.speaker, e);
    }
    if (stride > 1 && Math.floor(index / BLOCK_TURNS) % stride !== 0) {
      previousSpeaker = null;
      previousAsk = 'none';
      continue;
    }
    const text = normalize(turn.text);
    const ask = scanTurn(e, text);
    if (previousSpeaker !== null && previousSpeaker !== turn.speaker) {
      if (previousAsk === 'about_caller' && ask !== 'about_caller') e.answeredScreen++;
      else if (previousAsk === 'about_offering' && ask !== 'about_offering') e.answeredOffering++;
      else if (previousAsk === 'about_you' && ask !== 'about_you' && OWN_ANSWER.test(text)) e.answeredSelf++;
    }
    // Consecutive turns of one label are merged upstream; a repeated label still keeps its own question open.
    if (previousSpeaker !== turn.speaker || ask !== 'none') previousAsk = ask;
    previousSpeaker = turn.speaker;
  }
  for (const e of bySpeaker.values()) finish(e);
  return bySpeaker;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function describe(e: SpeakerEvidence): Record<string, unknown> {
  const cues: Record<string, number> = {};
  FAMILIES.forEach((f, i) => {
    if (e.cues[i]! > 0) cues[`${f.side}.${f.name}`] = e.cues[i]!;
  });
  if (e.answeredOffering > 0) cues['seller.answers_offering_question'] = e.answeredOffering;
  if (e.answeredScreen > 0) cues['seller.answers_screening_question'] = e.answeredScreen;
  if (e.answeredSelf > 0) cues['buyer.answers_about_own_situation'] = e.answeredSelf;
  return {
    label: e.label,
    net: round(e.net),
    seller: round(e.seller),
    buyer: round(e.buyer),
    lexical: round(e.lexical),
    runs_call: round(e.runsCall),
    you_questions: e.youQuestions,
    own_questions: e.ownQuestions,
    your_possessive: e.yourPoss,
    own_possessive: e.ownPoss,
    you: e.you,
    first_person: e.self,
    cues,
  };
}

function handsOver(e: SpeakerEvidence): boolean {
  return HANDS_OVER.some((i) => e.cues[i]! > 0);
}

/**
 * The reading's answer where the dialogue shows two voices that could each be the rep and nothing tells them apart
 * (as opposed to null: too little evidence). Only a word model very sure of one of them overrules it (§35).
 */
const UNDECIDABLE = 'undecidable' as const;

function byNetThenLabel(a: SpeakerEvidence, b: SpeakerEvidence): number {
  return b.net - a.net || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
}

/**
 * Returns the rep's label or null (abstain). Never returns a label in excludedLabels; never favours the first speaker.
 * Two readers (decisions §27, §30): the phrases and structure above decide; the word model (speaker-model.ts), a
 * choice among the speakers and nobody, replaces a pick it all but rules out with the speaker it clearly prefers,
 * vetoes a pick it doubts while preferring another, and decides where the phrases found nothing (or two voices they
 * cannot tell apart) when one speaker clearly sounds like the rep and the call clearly has a seller.
 */
export function inferRepSpeaker(
  turns: Turn[],
  options: { excludedLabels: ReadonlySet<string> },
  model: SpeakerModel = shippedSpeakerModel(),
): InferenceResult | null {
  const evidence = collectEvidence(turns);
  const reading = readRepSpeaker(turns, evidence, options);
  const likelihood = likelihoodsOf(model, speakerFeatureRows(model, turns));
  const nobody = 1 - [...likelihood.values()].reduce((sum, p) => sum + p, 0);
  const strongestOther = (label: string): number =>
    Math.max(0, ...[...likelihood].filter(([other]) => other !== label).map(([, p]) => p));
  const [label, own] = [...likelihood]
    .filter(([l]) => !options.excludedLabels.has(l))
    .reduce<[string | null, number]>((best, entry) => (entry[1] > best[1] ? entry : best), [null, 0]);
  /** The model's own favourite, `label`, as the answer. */
  const wordModelPick = (extra: Record<string, unknown>): InferenceResult => ({
    label: label!,
    confidence: round(own),
    signals: {
      decided_by: 'word_model',
      rep_likelihood: round(own),
      strongest_other: round(strongestOther(label!)),
      ...extra,
    },
  });
  /** The model alone decides: two or more speakers, its favourite rated at least `min`, a seller-less call unlikely. */
  const wordModelDecides = (min: number): boolean =>
    likelihood.size >= 2 && label !== null && own >= min && nobody <= WORD_PICK_NOBODY_MAX;
  if (reading === UNDECIDABLE)
    return wordModelDecides(WORD_PICK_UNDECIDABLE_MIN) ? wordModelPick({ phrases: 'undecidable' }) : null;
  if (reading !== null) {
    const readingOwn = likelihood.get(reading.label) ?? 0;
    // Who brought a specialist in hosts the call, however little they say: the words do not overrule that.
    const introduced = reading.signals.decided_by === 'introduced';
    if (
      !introduced &&
      readingOwn < REPLACE_OWN_BELOW &&
      label !== null &&
      label !== reading.label &&
      own >= REPLACE_MIN
    ) {
      return wordModelPick({ phrases_pick: reading.label });
    }
    if (!introduced && readingOwn < VETO_OWN_BELOW && strongestOther(reading.label) > VETO_OTHER_ABOVE)
      return null;
    return { ...reading, signals: { ...reading.signals, rep_likelihood: round(readingOwn) } };
  }
  return wordModelDecides(WORD_PICK_MIN) ? wordModelPick({}) : null;
}

/** The phrase-and-structure reading alone. */
function readRepSpeaker(
  turns: Turn[],
  evidence: Map<string, SpeakerEvidence>,
  options: { excludedLabels: ReadonlySet<string> },
): InferenceResult | null | typeof UNDECIDABLE {
  const candidates: SpeakerEvidence[] = [];
  for (const [label, e] of evidence) {
    if (!options.excludedLabels.has(label)) candidates.push(e);
  }
  if (candidates.length === 0) return null;
  // Ties broken by label, never by position, so the answer does not depend on who spoke first.
  candidates.sort(byNetThenLabel);
  let best = candidates[0]!;
  let runnerUp = candidates[1] ?? null;
  // Two seller-side voices (rep and sales engineer, beside at least one other speaker): the one who runs the call
  // (agenda, next steps, terms) is the rep when that is clear; when they are close and neither runs the call, the
  // dialogue cannot tell them apart.
  let closeSeller =
    runnerUp !== null && runnerUp.net >= MIN_NET && runnerUp.net >= CLOSE_SELLER_RATIO * best.net;
  const secondSeller = runnerUp !== null && runnerUp.net >= MIN_NET && runnerUp.seller > runnerUp.buyer;
  let ledBy: string | null = null;
  if ((closeSeller || secondSeller) && runnerUp !== null && evidence.size >= 3) {
    // Whoever introduces the engineer and hands the call over leads it; otherwise the agenda and next steps decide.
    const bestHandsOver = handsOver(best);
    const runnerHandsOver = handsOver(runnerUp);
    const [lead, other] =
      bestHandsOver !== runnerHandsOver
        ? bestHandsOver
          ? [best, runnerUp]
          : [runnerUp, best]
        : best.runsCall >= runnerUp.runsCall
          ? [best, runnerUp]
          : [runnerUp, best];
    if (bestHandsOver !== runnerHandsOver || lead.runsCall - other.runsCall >= RUNS_CALL_MARGIN) {
      ledBy = 'runs_call';
      const third = candidates[2] ?? null;
      best = lead;
      // The margin that matters now is over the buyer side: the best non-seller voice.
      runnerUp = third;
      closeSeller = false;
    }
  }
  // Two voices with seller-side evidence and none of the buyer's, the quieter well behind (not close), beside at least
  // one other speaker whose own evidence is the buyer's: a rep and a specialist; the margin that matters is the best
  // one's over that buyer-side voice.
  if (
    ledBy === null &&
    !closeSeller &&
    runnerUp !== null &&
    evidence.size >= 3 &&
    runnerUp.net > 0 &&
    runnerUp.seller > 0 &&
    runnerUp.buyer === 0 &&
    best.seller > 0 &&
    best.buyer === 0
  ) {
    const buyerSide = candidates.find((c) => c !== best && c !== runnerUp);
    if (buyerSide !== undefined && buyerSide.buyer > buyerSide.seller) {
      ledBy = 'ahead_of_colleague';
      runnerUp = buyerSide;
    }
  }
  const margin = runnerUp === null ? best.net : best.net - runnerUp.net;
  // Calibrated on the development sets: a total (own evidence + lead) at MIN_TOTAL is roughly a coin flip between
  // "clearly the rep" and "not decidable"; each further CONFIDENCE_SCALE points halves the remaining doubt.
  const confidence = round(1 / (1 + Math.exp(-(best.net + margin - MIN_TOTAL + 1) / CONFIDENCE_SCALE)));
  const signals: Record<string, unknown> = {
    method: 'heuristic',
    margin: round(margin),
    winner: describe(best),
    runner_up: runnerUp === null ? null : describe(runnerUp),
  };
  if (ledBy !== null) signals.decided_by = ledBy;
  // The pronoun and question-direction signals support a pick but never make one alone: the pick needs net
  // seller-side cue evidence (small talk full of "and you?" questions is not selling).
  const bestCue = best.seller - best.buyer;
  const runnerCue = runnerUp === null ? 0 : runnerUp.seller - runnerUp.buyer;
  const cueBacked =
    bestCue >= MIN_CUE_NET || (bestCue > MIN_CUE_FOR_LEAD && bestCue - runnerCue >= MIN_CUE_LEAD);
  if (best.net < MIN_NET || margin < MIN_MARGIN || best.net + margin < MIN_TOTAL || !cueBacked) return null;
  if (closeSeller) return UNDECIDABLE;
  // A seller-side voice someone else brought into the call by name ("I brought Sam, she knows the integrations"),
  // who then does not run the agenda, next steps or terms: a specialist or a manager; whoever brought them hosts the
  // call and is the rep, unless that voice sounds like the buyer (then the dialogue cannot tell the sides apart and the
  // answer is no pick). A colleague brought in who then runs the deal (an account executive introduced by a customer
  // success manager) is the rep.
  if (evidence.size >= 3 && best.runsCall <= INTRODUCED_RUNS_CALL_MAX) {
    const host = introducerOf(turns, best.label, candidates);
    if (host !== null) {
      if (host.buyer > host.seller) return UNDECIDABLE;
      signals.decided_by = 'introduced';
      signals.introduced = describe(best);
      signals.winner = describe(host);
      return { label: host.label, confidence, signals };
    }
  }
  // A fourth or later voice whose first turn comes in the second half of the call, and who speaks again, beside a pick
  // who does not run the call: an account executive who lets a sales engineer do the talking and steps in for the
  // timeline and next steps, or a late customer; the dialogue cannot tell which, so no pick.
  if (evidence.size >= 4 && best.runsCall < LATE_VOICE_RUNS_CALL_MAX && hasLateVoice(turns, best.label))
    return UNDECIDABLE;
  // A seller-side voice that presents itself as leading the team ("I manage the team here, I asked to join"), beside
  // another voice with seller-side evidence: a manager who joined the account executive's call; no pick.
  if (
    evidence.size >= 3 &&
    candidates.some((c) => c !== best && c.seller > c.buyer) &&
    presentsAsManager(turns, best.label)
  )
    return UNDECIDABLE;
  return { label: best.label, confidence, signals };
}

/** Whether a fourth or later voice, other than `label`, first speaks after half the turns and speaks at least twice. */
function hasLateVoice(turns: readonly Turn[], label: string): boolean {
  const first = new Map<string, number>();
  const count = new Map<string, number>();
  turns.forEach((turn, i) => {
    if (!first.has(turn.speaker)) first.set(turn.speaker, i);
    count.set(turn.speaker, (count.get(turn.speaker) ?? 0) + 1);
  });
  let ordinal = 0;
  for (const [speaker, i] of first) {
    ordinal += 1;
    if (
      ordinal >= 4 &&
      speaker !== label &&
      i >= LATE_VOICE_SHARE * turns.length &&
      (count.get(speaker) ?? 0) >= LATE_VOICE_MIN_TURNS
    )
      return true;
  }
  return false;
}

/** Whether `label` presents itself as leading the team early in the call. */
function presentsAsManager(turns: readonly Turn[], label: string): boolean {
  let chars = 0;
  for (const turn of turns) {
    if (chars > INTRODUCTION_TEXT_BUDGET) return false;
    chars += turn.text.length;
    if (turn.speaker === label && PRESENTS_AS_MANAGER.test(normalize(turn.text))) return true;
  }
  return false;
}

/** Words of a label that can be a name said in the dialogue ("Sam", "Mr. Bloggs"), not "Speaker 2" or "spk_1". */
const GENERIC_LABEL_WORD =
  /^(?:speaker|spk|agent|rep|customer|caller|client|user|unknown|guest|host|participant|person|mr|mrs|ms|dr|sir|the|and)$/;

function nameWords(label: string): string[] {
  return (normalize(label).match(/[a-z\u00c0-\u024f]{3,}/g) ?? []).filter((w) => !GENERIC_LABEL_WORD.test(w));
}

/**
 * The one other speaker who brings `label` into the call by name: "I brought Sam today", "I asked Jo to join",
 * "Sam is here with me", "joining us is Sam", "I'll let Sam take it". Null when nobody or more than one does.
 */
function introducerOf(
  turns: readonly Turn[],
  label: string,
  candidates: readonly SpeakerEvidence[],
): SpeakerEvidence | null {
  const names = nameWords(label);
  if (names.length === 0) return null;
  const name = `(?:${names.join('|')})`;
  const frame = new RegExp(
    `\\b(?:(?:i(?:'ve| have)? )?(?:brought|invited|roped in|looped in|pulled in)(?: along| in)?|(?:i(?:'ve| have)? )?asked|i(?:'ve| have) got|joining (?:us|me)(?: today)? (?:is|are)|with me (?:today )?(?:is|are)|(?:i'll|i will|let me) (?:let|hand (?:it )?over to)) ${name}\\b` +
      `|\\b${name},? (?:is|'s) (?:here|with (?:me|us)|joining|on the (?:line|call)|our|one of our)\\b`,
  );
  const byLabel = new Map(candidates.map((e) => [e.label, e]));
  let host: SpeakerEvidence | null = null;
  let chars = 0;
  for (const turn of turns) {
    if (chars > INTRODUCTION_TEXT_BUDGET) break;
    chars += turn.text.length;
    if (turn.speaker === label) continue;
    const e = byLabel.get(turn.speaker);
    if (e === undefined || e === host || !frame.test(normalize(turn.text))) continue;
    if (host !== null) return null;
    host = e;
  }
  return host;
}

/** Adapter for the speaker ladder's inference port (resolve-speaker.ts `SpeakerInferrer`). */
export function createHeuristicInferrer(): (
  turns: Turn[],
  options: { excludedLabels: ReadonlySet<string> },
) => Promise<InferenceResult | null> {
  return async (turns, options) => inferRepSpeaker(turns, options);
}

/** Exposed for diagnostics (eval runner): the evidence table without the abstention rule. */
export function explainSpeakers(turns: Turn[]): Record<string, unknown>[] {
  return [...collectEvidence(turns).values()].map(describe);
}
