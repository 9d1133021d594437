import { decideRange, etagListMatches, ifRangeAllows } from '../../../domain/media/range';

describe('HTTP Range decisions', () => {
  it('single ranges: closed, open-ended, suffix, clipped to the size', () => {
    expect(decideRange('bytes=0-99', 1000)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(decideRange('bytes=900-', 1000)).toEqual({ kind: 'partial', start: 900, end: 999 });
    expect(decideRange('bytes=-100', 1000)).toEqual({ kind: 'partial', start: 900, end: 999 });
    expect(decideRange('bytes=-5000', 1000)).toEqual({ kind: 'partial', start: 0, end: 999 });
    expect(decideRange('bytes=500-5000', 1000)).toEqual({ kind: 'partial', start: 500, end: 999 });
  });

  it('past the end is unsatisfiable; no header, several ranges or nonsense are served whole', () => {
    expect(decideRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange(undefined, 1000)).toEqual({ kind: 'full' });
    expect(decideRange('bytes=0-1,5-6', 1000)).toEqual({ kind: 'full' });
    expect(decideRange('items=0-1', 1000)).toEqual({ kind: 'full' });
    expect(decideRange('bytes=9-3', 1000)).toEqual({ kind: 'full' });
  });

  it('validators: If-None-Match lists (weak compare), If-Range needs the strong tag', () => {
    expect(etagListMatches('"a", "b"', '"b"')).toBe(true);
    expect(etagListMatches('W/"b"', '"b"')).toBe(true);
    expect(etagListMatches('*', '"b"')).toBe(true);
    expect(etagListMatches('"c"', '"b"')).toBe(false);
    expect(etagListMatches(undefined, '"b"')).toBe(false);
    expect(ifRangeAllows(undefined, '"b"')).toBe(true);
    expect(ifRangeAllows('"b"', '"b"')).toBe(true);
    expect(ifRangeAllows('W/"b"', '"b"')).toBe(false);
    expect(ifRangeAllows('Wed, 21 Oct 2015 07:28:00 GMT', '"b"')).toBe(false);
  });
});
