import { ClaimSource, checkClaims } from '../../../domain/analysis/claims';
import { compareMeaning } from '../../../domain/analysis/claim-meaning';
import { extractFacts } from '../../../domain/analysis/claim-facts';

/*
 * The general mechanisms added after held-out batch 7 (docs/analysis.md, "Quality"), each checked on wording
 * of its own (a ferry operator, not batch 7's port and bakery chain).
 */
const SOURCES: ClaimSource[] = [
  {
    title: 'Riverside ferry operations report',
    url: 'https://ferry.example.org/report',
    excerpt:
      'Most passengers reach the island by ferry rather than by plane. Fog rarely cancels crossings for more than a week. ' +
      'The operator launched its first electric ferry in March 2022. ' +
      'Northbay Ferries spent $8.4 million on fuel across its 12 vessels in 2023. ' +
      'The fare the operator charged for a return ticket rose 15% between April and August 2023. ' +
      'Maintenance now costs the operator more than insurance does. ' +
      "Most of the operator's diesel comes from a refinery in Rotterdam. " +
      'The operator did not raise the price of season tickets in 2023. ' +
      'Small boatyards sometimes repair hulls more quickly than large shipyards.',
  },
];
const status = (claim: string) => checkClaims(claim, SOURCES).claim_analysis[0]?.verification_status;

describe('claim checker: paraphrase and contradiction mechanisms', () => {
  it.each([
    [
      '"X, not Y" in mid-sentence is "X rather than Y"',
      'The ferry, not the plane, carries most passengers to the island.',
    ],
    [
      'passive voice, a hedge synonym and a bound "longer than a week"',
      'Crossings are seldom cancelled by fog for longer than a week.',
    ],
    [
      'phrasal "came into use" verbs are "opened"',
      "In March 2022 the operator's first electric ferry entered service.",
    ],
    [
      'what is paid: "bill", "spend", "cost"',
      "Northbay Ferries' fuel bill for its 12 vessels came to $8.4 million in 2023.",
    ],
    [
      'every figure confirmed by a passage about the same subject outweighs one reworded noun',
      "Northbay Ferries' outlay on fuel for its 12 vessels reached $8.4 million in 2023.",
    ],
    [
      '"X% more in B than in A" is "rose X% between A and B"',
      'Passengers paid 15% more for a return ticket in August 2023 than in April 2023.',
    ],
    [
      'sides swapped and the comparative reversed (a double flip)',
      'The operator now spends less on insurance than on maintenance.',
    ],
    [
      '"the bulk of" is "most of"; "is supplied by" is "comes from"',
      "The bulk of the operator's diesel is supplied by a Rotterdam refinery.",
    ],
  ])('verifies a paraphrase: %s', (_why, claim) => {
    expect(status(claim)).toBe('verified');
  });

  it.each([
    [
      'a quantifier flip ("little of" for "most of")',
      "Little of the operator's diesel comes from the Rotterdam refinery.",
    ],
    [
      '"outside" a place the source says it is in',
      "Most of the operator's diesel comes from refineries outside Rotterdam.",
    ],
    [
      'a price rise told as "made customers pay more"',
      'In 2023 the operator made its passengers pay more for season tickets.',
    ],
    ['"charged more for" against "did not raise the price"', 'In 2023 the operator charged more for season tickets.'],
    ['a comparison reversed without swapping sides', 'The operator now spends more on insurance than on maintenance.'],
  ])('contradicts: %s', (_why, claim) => {
    expect(status(claim)).toBe('contradicted');
  });

  it('does not contradict a comparison by another measure ("more carefully" against "more quickly")', () => {
    expect(status('Small boatyards usually repair hulls more carefully than large shipyards.')).toBe('unverified');
  });

  it('does not verify a passage that agrees in figures but reverses the claim', () => {
    expect(status('Passengers paid 15% less for a return ticket in August 2023 than in April 2023.')).not.toBe(
      'verified',
    );
  });

  it('reads a passive pivot verb the other way round', () => {
    const src = 'Ebook sales overtook print sales in 2021.';
    expect(compareMeaning('Print sales were overtaken by ebook sales in 2021.', src).verdict).toBe('same');
    expect(compareMeaning('Ebook sales were overtaken by print sales in 2021.', src).verdict).toBe('contradicted');
  });

  it("gives the first month of a range the range's year", () => {
    const dates = extractFacts('Prices rose 15% between April and August 2023.').dates;
    expect(dates.map((d) => [d.month, d.year])).toEqual(
      expect.arrayContaining([
        [4, 2023],
        [8, 2023],
      ]),
    );
  });
});
