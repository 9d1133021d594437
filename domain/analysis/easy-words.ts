/**
 * Compact list of familiar English words for the Dale–Chall formula.
 *
 * APPROXIMATION: the published Dale–Chall list has about 3,000 words known
 * to most fourth-graders. Shipping it is not possible here, so this is our
 * own list of roughly 1,300 very common, concrete, short words (function
 * words, everyday nouns, verbs, adjectives, numbers, time words). Because it
 * is smaller, more words count as "difficult" than with the real list and
 * Dale–Chall scores come out somewhat higher (harder). `isEasyWord` accepts
 * regular inflections of listed words (-s, -es, -ed, -ing, -er, -est, -ly),
 * as the original rules do.
 */

const LIST = `
a able about above across act add afraid after afternoon again against age ago agree ahead air all allow almost alone
along already also always am among an and angry animal another answer any anyone anything apple are area arm around
arrive art as ask at aunt away baby back bad bag ball band bank bar base basket bath be beach bean bear beat beautiful
became because become bed bee been before began begin behind being believe bell belong below belt bench beside best
better between big bike bill bird birthday bit bite black blank blanket blind block blood blow blue board boat body
bone book born both bottle bottom bought bowl box boy brain branch brave bread break breakfast bridge bright bring
broke brother brought brown brush build building built burn bus busy but butter buy by cake call came camp can candy
cap car card care careful carry case cat catch caught cause cent center chair chance change check cheese chicken
child children choose church circle city class clean clear climb clock close cloth clothes cloud club coat cold
color come common cook cool copy corn corner cost could count country course cover cow crowd cry cup cut dad dance
dark date daughter day dead deal dear deep desk did die different dinner dirt dirty dish do doctor does dog doing
dollar done door double down draw dream dress drink drive drop dry duck during dust each ear early earth east easy eat
edge egg eight either else empty end enough even evening ever every everyone everything eye face fact fair fall
family far farm fast fat father fear feed feel feet fell felt few field fight fill find fine finger finish fire first
fish five fix flag floor flower fly follow food foot for forest forget form found four free fresh friend from front
fruit full fun funny game garden gate gave get gift girl give glad glass go goat gold gone good got grass gray great
green grew ground group grow guess gun had hair half hall hand happen happy hard has hat have he head hear heard heart
heavy held hello help hen her here hers hide high hill him his hit hold hole home hope horse hot hour house how huge
hundred hungry hunt hurry hurt husband I ice idea if important in inside into iron is it its job join joke jump just
keep kept key kick kid kill kind king kitchen knee knew knife know lady laid lake land large last late laugh lay lead
learn least leave left leg less let letter lie life lift light like line lion list listen little live long look lose
lost lot loud love low lunch made mail main make man many map mark market matter may me meal mean meat meet men met
middle might mile milk mind mine minute miss mistake money month moon more morning most mother mountain mouse mouth
move much music must my name near neck need never new news next nice night nine no noise none noon nor north nose not
note nothing notice now number of off offer office often oh oil old on once one only open or order other our out
outside over own page paint pair paper parent park part party pass past path pay pen people pet pick picture piece pig
place plan plant play please point poor post pot pound power present pretty price print problem pull push put queen
question quick quiet quite race rain ran reach read ready real reason red remember rest rich ride right ring rise
river road rock roll roof room root rope round row rule run sad safe said sail salt same sand sat save saw say school
sea seat second see seed seem seen self sell send sent set seven several shall shape share she sheep shine ship shoe
shop short should shout show shut sick side sign simple since sing sir sister sit six size skin sky sleep slow small
smell smile snow so soft soil some someone something sometimes son song soon sorry sound south space speak special
spend spoke spot spring square stand star start state stay step stick still stone stood stop store story street
strong study such sugar summer sun supper sure surprise sweet swim table tail take talk tall taste teach teacher team
tear tell ten than thank that the their them then there these they thick thin thing think third this those though
thought three threw through throw tie till time tiny tired to today together told tomorrow tonight too took top touch
toward town toy track train tree trip trouble truck true try turn twelve twenty two uncle under until up upon us use
useful very visit voice wait wake walk wall want war warm was wash watch water wave way we wear weather week well went
were west wet what wheel when where which while white who whole why wide wife wild will win wind window wing winter
wise wish with without woman women wonder wood word wore work world would write wrong yard year yellow yes yesterday
yet you young your zero
able accept across action active actually add address admit adult advice afford afternoon agent alive allow alright
amount animal anybody anyway anywhere apart appear arrive article asleep attack attend avoid awake award aware
balance bake battle beauty bedroom beer bend benefit bet beyond bill bin birth blame block boss bother brand
breath brief broad budget bug button cable camera cancel capital career careful cash cell chain chart chat cheap
chief choice civil claim clever click client climate coast coffee coin collect college comfort company compare
complete computer concern contact contain content control cost couple cousin crash create credit crime cross
culture current customer cycle daily damage data deal decide degree delay deliver design detail develop device
diet difference dig direct discuss disease divide document doubt download drama drawer driver early earn
economy effect effort elect email employ energy engine enjoy enter entire equal error escape event exact example
excellent except exercise expect expensive expert explain express extra factory fail fan fashion feature fee file
film final firm fit flat focus folk force foreign forward frame friendly future gain garage general glove goal
goods grade grand growth guest guide habit handle hang health heat height hero highway hire history hobby holiday
honest hospital hotel however human husband ignore image improve include income increase indeed industry
information insect instead interest internet invite island issue item jacket journey judge juice kid knowledge
label lack language laptop law lawyer layer leader level library limit link load local lock lucky machine magazine
major manage manager master match material meaning measure medical member memory message metal method mirror
mix mobile model modern moment monitor mostly motor movie museum nation nature nearly neighbor network normal
nurse object ocean offer officer online option orange ordinary organize owner pack pain panel parking partner
passenger patient pattern peace percent perfect perhaps period person phone photo physical pilot plastic plate
player pocket poem police policy polite popular position possible potato practice prefer prepare press pressure
private prize process produce product profit program project promise proper protect proud prove provide public
purpose quality quarter radio rate rather receive recent record reduce region regular relax release rent repair
repeat reply report result return review reward rice risk role routine rush salad sale sample scale scene score
screen search season secret section secure select sense series serve service session settle shadow shirt shock
shower signal silver single skill smart social soldier solid solve sort source speech speed spirit sport staff
stage standard station steal steel stock storm straight strange stress structure student style subject success
sudden suggest suit supply support surface system talent target task tax tea technical teeth term test text
theater theme theory ticket tip title tool topic total tour trade traffic travel treat trend trust truth type
unit usual value video view village vote wallet weight welcome whether winner worker worry yard
`;

export const EASY_WORDS: ReadonlySet<string> = new Set(
  LIST.split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase()),
);

const SUFFIXES: Array<[RegExp, string[]]> = [
  [/ies$/, ['y']],
  [/ied$/, ['y']],
  [/ier$/, ['y']],
  [/iest$/, ['y']],
  [/ily$/, ['y']],
  [/es$/, ['', 'e']],
  [/s$/, ['']],
  [/ed$/, ['', 'e']],
  [/ing$/, ['', 'e']],
  [/er$/, ['', 'e']],
  [/est$/, ['', 'e']],
  [/ly$/, ['']],
];

const memo = new Map<string, boolean>();

/** Is `word` on the familiar-word list, directly or as a regular inflection? (memoised, bounded) */
export function isEasyWord(word: string): boolean {
  const hit = memo.get(word);
  if (hit !== undefined) return hit;
  if (memo.size >= 20_000) memo.clear();
  const easy = lookup(word);
  memo.set(word, easy);
  return easy;
}

function lookup(word: string): boolean {
  const w = word.toLowerCase().replace(/[’']s$/, '');
  if (EASY_WORDS.has(w)) return true;
  for (const [re, repl] of SUFFIXES) {
    if (!re.test(w)) continue;
    const stem = w.replace(re, '');
    for (const r of repl) {
      if (EASY_WORDS.has(stem + r)) return true;
      // doubled final consonant: "stopped" -> "stop"
      if (r === '' && /([bdgmnprt])\1$/.test(stem) && EASY_WORDS.has(stem.slice(0, -1))) return true;
    }
  }
  return false;
}
