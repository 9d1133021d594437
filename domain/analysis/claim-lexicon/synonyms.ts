/**
 * Claim lexicon: SYNONYM_GROUPS (and PHRASE_SYNONYMS, COMPARATIVES) fold
 * common report vocabulary ("sales"/"revenue", "global"/"world", "makes
 * up"/"accounts for") so a paraphrase still counts as the same subject.
 * The lexicon as a whole: claim-words.ts.
 */

/** Words of one group compare as the same subject word (first one is the canonical form). */
export const SYNONYM_GROUPS: string[][] = [
  ['world', 'global', 'worldwide'],
  ['revenue', 'sales', 'turnover'],
  ['employee', 'worker', 'staff', 'staffer', 'personnel', 'employ', 'employs', 'employed'],
  ['company', 'firm', 'business'],
  ['customer', 'client', 'buyer', 'shopper', 'consumer'],
  ['survey', 'poll', 'questionnaire', 'questioned', 'surveyed', 'polled', 'interviewed'],
  ['founded', 'establish', 'established', 'start', 'started', 'launch', 'launched', 'begin', 'began', 'begun'],
  ['install', 'installed', 'deploy', 'deployed'],
  ['buy', 'bought', 'purchase', 'purchased'],
  ['use', 'utilize', 'utilise', 'leverage'],
  ['article', 'post', 'piece', 'story', 'content'],
  // what is paid: "spends less on flour" is about the cost of flour, "the ingredient bill" what they cost
  ['price', 'cost', 'spend', 'spends', 'spent', 'spending', 'bill', 'expenditure', 'expense'],
  ['research', 'study', 'studies'],
  ['people', 'person', 'individual'],
  ['method', 'approach', 'technique', 'strategy', 'tactic'],
  ['goal', 'aim', 'objective', 'target'],
  ['important', 'crucial', 'vital', 'essential'],
  ['choose', 'chose', 'chosen', 'select', 'pick', 'opt'],
  ['account', 'represent', 'comprise', 'constitute'],
  ['produce', 'produced', 'generate', 'generated'],
  ['reader', 'audience'],
  ['mistake', 'error'],
  ['update', 'updated', 'refresh', 'refreshed', 'revise', 'revised'],
  ['return', 'returned'],
  ['surprise', 'unexpected'],
  ['fee', 'charge', 'charges'],
  ['shipping', 'delivery'],
  ['focus', 'concentration', 'attention'],
  ['website', 'site'],
  ['earn', 'earned', 'receive', 'received', 'get', 'got'],
  ['traffic', 'visit', 'visits'],
  ['month', 'monthly'],
  ['week', 'weekly'],
  ['day', 'daily'],
  ['year', 'yearly', 'annual', 'annually'],
  ['show', 'showed', 'shown', 'reveal', 'revealed', 'indicate', 'indicated'],
  ['create', 'created', 'build', 'built'],
];

/** Phrases rewritten before keying, so "makes up" compares with "accounts for". */
export const PHRASE_SYNONYMS: Array<[RegExp, string]> = [
  [/\b(?:go|goes|went|gone|going) up\b/gi, 'rose'],
  [/\b(?:go|goes|went|gone|going) down\b/gi, 'fell'],
  [/\bup(?= (?:by )?[$€£]?\d)/gi, 'rose'],
  [/\bdown(?= (?:by )?[$€£]?\d)/gi, 'fell'],
  [/\b(?:go|goes|went|gone|going|come|comes|came|coming) back\b/gi, 'return'],
  [/\b(?:drive|drives|drove|driven|driving|push|pushes|pushed|pushing) up\b/gi, 'rose'],
  [/\b(?:drag|drags|dragged|dragging|pull|pulls|pulled|pulling) down\b/gi, 'fell'],
  [/\b(?:pay|pays|paid|paying) off\b/gi, 'pays'],
  [/\b(?:hold|holds|held|holding) (?:up|steady|firm)\b/gi, 'did not fall'],
  [
    /\b(?:stall|stalls|stalled|stagnate|stagnates|stagnated|flatlined|(?:stayed|stays|remained|remains) flat)\b/gi,
    'did not rise',
  ],
  [/\bon (?:its|their|his|her|your|our) own\b/gi, 'alone'],
  [/\b(?:take|takes|took|taken|taking) longer\b/gi, 'slower'],
  [/\b(?:take|takes|took|taken|taking) less time\b/gi, 'faster'],
  [/\b(?:stopped|ceased|quit|stops|ceases) (\w+ing)\b/gi, 'no longer $1'],
  [/\bunless\b/gi, 'without'],
  [/\b(?:keep|keeps|kept|keeping) ((?:[\w-]+ ){1,3})away\b/gi, 'deterred $1'],
  [/\b(?:keep|keeps|kept|keeping) away\b/gi, 'deterred'],
  [/\b(?:fall|falls|fell|fallen|falling) short\b/gi, 'fails'],
  [/\b(?:drive|drives|drove|driven|driving) away\b/gi, 'deters'],
  [/\b(?:make|makes|made|making) up\b/gi, 'accounts'],
  [/\b(?:is|are|was|were) responsible for\b/gi, 'accounts'],
  [/\bin charge of\b/gi, 'leads'],
  [/\bset up\b/gi, 'founded'],
  [/\b(?:a )?recipe for disaster\b/gi, 'disaster'],
  [/\bfrom start to finish\b/gi, 'in full'],
  [/\bin touch with\b/gi, 'in contact with'],
  [/\b(?:give|gives|gave|given|giving) up\b/gi, 'quit'],
  [/\b(?:sell|sells|sold|selling) more than\b/gi, 'outsold'],
  [/\b(?:make|makes|made|making) (more |less )?money\b/gi, 'earn $1'],
  // stable against changing: "were stable", "stayed steady" deny a change; "were volatile", "fluctuated" state one
  [
    /\b(?:is|are|was|were|been|remain|remains|remained|stay|stays|stayed|held|kept) (?:broadly |largely |fairly |relatively |roughly )?(?:stable|steady|unchanged|constant|the same)\b/gi,
    'did not change',
  ],
  [
    /\b(?:is|are|was|were|been) (?:highly |very )?(?:volatile|unstable|erratic)\b|\bfluctuat(?:e|es|ed|ing)\b/gi,
    'changed',
  ],
  // "twice as likely", "three times as many": more of it (the multiplier is compared as a figure)
  [/\b(twice|thrice|(?:two|three|four|five|six|ten|\d+(?:\.\d+)?) times) as\b/gi, '$1 more'],
  // "..., not by car." at the end: "rather than by car"
  [/,\s+not\s+((?:by |to |in |for |on |at |the |a |an )?[\w-]+(?: [\w-]+){0,2})(?=[.!]?$)/gi, ' rather than $1'],
  // "Rail, not road, carries most containers": the same contrast in the middle ("rail rather than road carries")
  [/,\s+not\s+((?:by |to |in |for |on |at |the |a |an )?[\w-]+(?: [\w-]+){0,2}),\s+/gi, ' rather than $1 '],
  // coming into use is opening: "came into service", "went live", "entered service", "started operating"
  [
    /\b(?:(?:come|comes|came|coming|go|goes|went|gone|going|put|puts|putting|was put|were put) into (?:service|operation|use)|(?:go|goes|went|gone|going) live|(?:enter|enters|entered|entering) (?:service|operation)|(?:start|starts|started|starting|begin|begins|began|begun|beginning) (?:operating|operations))\b/gi,
    'opened',
  ],
  // who supplies a thing is where it comes from: "is supplied by two mills" is "comes from two mills"
  [
    /\b(?:is|are|was|were|being|been) (?:mostly |mainly |largely )?(?:supplied|provided|sourced|delivered) (?:by|from)\b/gi,
    'comes from',
  ],
  // a price raised for customers: "made its customers pay more for bread", "charged more for bread"
  [
    /\b(?:make|makes|made|making) (?:its |their |the |his |her )?(?:customers|clients|buyers|shoppers|consumers|users|people) pay more (?:for|on)\b|\b(?:charge|charges|charged|charging) more for\b/gi,
    'raised the price of',
  ],
  [
    /\b(?:let|lets|letting) (?:its |their |the |his |her )?(?:customers|clients|buyers|shoppers|consumers|users|people) pay less (?:for|on)\b|\b(?:charge|charges|charged|charging) less for\b/gi,
    'cut the price of',
  ],
  // "outside Yorkshire" is "not in Yorkshire": the place denied
  [/\boutside(?: of)?(?= (?:the )?\p{Lu})/gu, 'not in'],
];

/** Comparatives that compare as their adjective ("older articles" ~ "old articles"); the lexicon's own stay apart. */
export const COMPARATIVES: Array<[string, string]> = [
  ['older', 'old'],
  ['fitter', 'fit'],
  ['newer', 'new'],
  ['younger', 'young'],
  ['fresher', 'fresh'],
  ['richer', 'rich'],
  ['wider', 'wide'],
  ['deeper', 'deep'],
  ['warmer', 'warm'],
  ['colder', 'cold'],
  ['heavier', 'heavy'],
  ['lighter', 'light'],
  ['clearer', 'clear'],
  ['broader', 'broad'],
  ['narrower', 'narrow'],
  ['closer', 'close'],
  ['louder', 'loud'],
];
