/** Series expansion with rrule in the calendar's zone: counts, weekdays, working hours, DST, past occurrences. */
import { expandSeries, workingHourStarts } from '../../../domain/calendar/series';
import { fitTimingModel } from '../../../domain/calendar/timing';
import { local } from '../../../domain/calendar/time';

const zone = 'Europe/Berlin';
const model = fitTimingModel([], { platform: 'profnet', timezone: zone });
const wh = { start: '09:00', end: '17:00' };

describe('series expansion', () => {
  it('weekly, 3 posts per week over a DST change: same local hour, UTC instant moves by one hour', () => {
    const x = expandSeries(
      { frequency: 'weekly', start_date: '2030-03-25', posts_per_week: 3, count: 9 },
      { timezone: zone, working_hours: wh, model, now: new Date('2030-03-01T00:00:00Z') },
    );
    expect(x.occurrences).toHaveLength(9);
    expect(x.weekdays).toHaveLength(3);
    // profnet's prior favours Tuesday-Thursday.
    expect(x.weekdays).toEqual([2, 3, 4]);
    expect(x.rrule).toContain('FREQ=WEEKLY');
    expect(x.rrule).toContain('BYDAY=TU,WE,TH');
    expect(x.rrule).toContain(`DTSTART;TZID=${zone}:20300325T000000`);
    const locals = x.occurrences.map((o) => local(o, zone));
    expect(new Set(locals.map((l) => l.hour))).toEqual(new Set([x.hour]));
    expect(locals.every((l) => [2, 3, 4].includes(l.weekday))).toBe(true);
    expect(x.hour).toBeGreaterThanOrEqual(9);
    expect(x.hour).toBeLessThan(17);
    // 2030-03-31 is the switch to CEST: offsets before and after differ.
    const before = x.occurrences.find((o) => o.startsWith('2030-03-26'))!;
    const after = x.occurrences.find((o) => o.startsWith('2030-04-02'))!;
    expect(new Date(before).getUTCHours() - new Date(after).getUTCHours()).toBe(1);
  });

  it('daily with 7+ posts per week is every day; biweekly skips a week; monthly keeps the day of month', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const opts = { timezone: 'America/New_York', working_hours: wh, model, now };
    const daily = expandSeries({ frequency: 'daily', start_date: '2030-02-01', posts_per_week: 7, count: 10 }, opts);
    expect(daily.weekdays).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(daily.occurrences).toHaveLength(10);
    const bi = expandSeries({ frequency: 'biweekly', start_date: '2030-02-04', posts_per_week: 1, count: 3 }, opts);
    const days = bi.occurrences.map((o) => Date.parse(o) / 86400_000);
    expect(days[1] - days[0]).toBeCloseTo(14, 0);
    const monthly = expandSeries({ frequency: 'monthly', start_date: '2030-01-31', count: 3 }, opts);
    expect(monthly.occurrences.map((o) => local(o, 'America/New_York').day)).toEqual([31, 31, 31]);
  });

  it('skips occurrences that are not in the future and stops at end_date', () => {
    const x = expandSeries(
      { frequency: 'weekly', start_date: '2030-01-07', posts_per_week: 2, end_date: '2030-01-31' },
      { timezone: zone, working_hours: wh, model, now: new Date('2030-01-15T00:00:00Z') },
    );
    expect(x.skipped_past).toBeGreaterThan(0);
    expect(x.occurrences.every((o) => o > '2030-01-15' && o < '2030-02-01')).toBe(true);
  });

  it('working hours that run over midnight', () => {
    expect(workingHourStarts({ start: '22:00', end: '02:00' })).toEqual([0, 1, 22, 23]);
  });
});
