/** SEO performance pieces: date ranges, CSV parsing, row checks, ratios. */
import { change, conversionRate, ctr, metricsOf, parseDateRange } from '../../../domain/performance/report';
import { checkRows, csvRows, pageOnDomain, parseCsv } from '../../../domain/performance/rows';

const today = new Date('2025-03-01T23:59:00Z');

describe('parseDateRange', () => {
  it('reads Nd, Nm and explicit ranges ending today (UTC), with the previous period of the same length', () => {
    expect(parseDateRange('30d', today)).toEqual({
      value: '30d',
      start: '2025-01-31',
      end: '2025-03-01',
      days: 30,
      previous: { start: '2025-01-01', end: '2025-01-30' },
    });
    expect(parseDateRange('1m', today)).toMatchObject({ start: '2025-02-02', end: '2025-03-01', days: 28 });
    expect(parseDateRange('2024-02-28..2024-03-01', today)).toMatchObject({ days: 3 });
  });
  it('refuses what it cannot read, naming date_range', () => {
    for (const v of ['0d', '481d', '17m', '2025-02-30..2025-03-01', '2025-03-02..2025-03-01', 'last week'])
      expect(() => parseDateRange(v, today)).toThrow(expect.objectContaining({ field: 'date_range' }));
  });
});

describe('CSV import', () => {
  it('parses quoted fields, escaped quotes, CRLF and a BOM', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, ""y""",2\r\n\r\n')).toEqual([
      ['a', 'b'],
      ['x, "y"', '2'],
    ]);
  });
  it('maps the header case-insensitively and ignores unknown columns', () => {
    expect(csvRows('DATE,Page,Clicks,Impressions,ctr\n2025-01-01,/a,1,2,0.5\n')).toEqual([
      { date: '2025-01-01', page: '/a', clicks: '1', impressions: '2' },
    ]);
  });
  it('checks rows: dates, domain, whole numbers, clicks ≤ impressions, duplicates', () => {
    expect(
      checkRows(
        [{ date: '2025-01-01', page: 'https://blog.example.com/x', clicks: '1,000', impressions: 2000 }],
        'example.com',
        'rows',
      ),
    ).toEqual([
      {
        date: '2025-01-01',
        page: 'https://blog.example.com/x',
        query: '',
        clicks: 1000,
        impressions: 2000,
        position: null,
        conversions: null,
      },
    ]);
    let err: { issues: Array<{ path: string }> } | undefined;
    try {
      checkRows(
        [
          { date: '2025-01-01', page: '/a', clicks: 1.5, impressions: 2, position: 0 },
          { date: '2025-01-01', page: '/a', clicks: 1, impressions: 2 },
        ],
        'example.com',
        'csv',
      );
    } catch (e) {
      err = e as typeof err;
    }
    expect(err!.issues.map((i) => i.path)).toEqual(['csv.1.clicks', 'csv.1.position', 'csv.2.date']);
  });
  it('accepts paths and URLs on the domain or its subdomains only', () => {
    expect(pageOnDomain('/x', 'example.com')).toBe(true);
    expect(pageOnDomain('https://www.example.com/x', 'example.com')).toBe(true);
    expect(pageOnDomain('https://notexample.com/x', 'example.com')).toBe(false);
    expect(pageOnDomain('ftp://example.com/x', 'example.com')).toBe(false);
  });
});

describe('ratios', () => {
  it('are null when there is nothing to divide by', () => {
    expect(ctr(1, 0)).toBeNull();
    expect(ctr(1, 3)).toBe(33.33);
    expect(change(5, 0)).toBeNull();
    expect(change(15, 10)).toBe(50);
    expect(conversionRate(null, 10)).toBeNull();
    expect(conversionRate(1, 8)).toBe(12.5);
    expect(metricsOf(['traffic,rankings', 'traffic'])).toEqual(['traffic', 'rankings']);
    expect(metricsOf(undefined)).toEqual(['traffic', 'rankings', 'conversions']);
  });
});
