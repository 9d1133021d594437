import { addDecimal, canonical, ColumnInfo, TableInfo, TableRows } from '../../../projections/rows';

const col = (name: string, type: string, scale: number | null = null): ColumnInfo => ({ name, type, scale });

function table(
  columns: ColumnInfo[],
  key: string[],
  defaults: Record<string, unknown> = {},
  uniques: string[][] = [],
): TableRows {
  return new TableRows('t', {
    columns,
    byName: new Map(columns.map((c) => [c.name, c])),
    key,
    uniques,
    defaults,
  } as TableInfo);
}
/** As the runner does after its load query: rows found, and identities looked up but not found. */
function seed(t: TableRows, found: Record<string, unknown>[], missing: Record<string, string | number>[] = []) {
  for (const r of found) t.loaded('t', r);
  for (const k of missing) t.absent(t.identify('t', k).id);
}

describe('exact decimal arithmetic (as PostgreSQL numeric)', () => {
  it('adds without binary floating point error', () => {
    expect(addDecimal('0.1', 0.2)).toBe('0.3');
    expect(addDecimal('9007199254740993', 1)).toBe('9007199254740994');
    expect(addDecimal('-1.5', '0.25')).toBe('-1.25');
    expect(addDecimal('1e-7', '0')).toBe('0.0000001');
  });

  it('rounds half away from zero to the column scale, after each step', () => {
    expect(addDecimal('0', '0.123456785', 8)).toBe('0.12345679');
    expect(addDecimal('0', '-0.123456785', 8)).toBe('-0.12345679');
    expect(addDecimal('1.00000000', '0.000000004', 8)).toBe('1.00000000');
  });

  it('keeps canonical forms per column type', () => {
    expect(canonical(col('c', 'numeric', 8), 0.25)).toBe('0.25000000');
    expect(canonical(col('c', 'bigint'), 12)).toBe('12');
    expect(canonical(col('c', 'integer'), '7')).toBe(7);
    expect(canonical(col('c', 'boolean'), 't')).toBe(true);
    expect(canonical(col('c', 'timestamp with time zone'), new Date('2026-11-22T00:00:00.000Z'))).toBe(
      '2026-11-22T00:00:00.000Z',
    );
    expect(() => canonical(col('c', 'numeric'), 'abc')).toThrow('not a decimal number');
  });
});

describe('changes applied in memory', () => {
  const usage = () =>
    table(
      [
        col('u', 'text'),
        col('calls', 'bigint'),
        col('cost', 'numeric', 8),
        col('log', 'jsonb'),
        col('seen', 'timestamp with time zone'),
      ],
      ['u'],
      { calls: '0', cost: '0.00000000', log: [] },
    );

  it('insert-or-increment: first insert takes defaults, later ones increment exactly', () => {
    const t = usage();
    seed(t, [], [{ u: 'a' }]);
    const up = {
      op: 'upsert' as const,
      table: 't',
      key: { u: 'a' },
      insert: { cost: 0.1 },
      update: { cost: { $inc: 0.2 }, calls: { $inc: 1 } },
    };
    t.apply(up);
    t.apply(up);
    expect(t.result()).toEqual({
      inserts: [{ u: 'a', calls: '1', cost: '0.30000000', log: [], seen: null }],
      updates: [],
      deletes: [],
    });
  });

  it('every right-hand side sees the row before the change; NULL stays NULL under $inc and $append', () => {
    const t = usage();
    seed(t, [{ u: 'a', calls: null, cost: '1.00000000', log: null, seen: '2026-11-22T00:00:00.000500+00:00' }]);
    t.apply({
      op: 'update',
      table: 't',
      key: { u: 'a' },
      set: { calls: { $inc: 1 }, log: { $append: { x: 1 } }, seen: { $greatest: '2026-11-22T00:00:00.000Z' } },
    });
    expect(t.find('t', { u: 'a' })).toMatchObject({ calls: null, log: null, seen: '2026-11-22T00:00:00.000500+00:00' });
    t.apply({ op: 'update', table: 't', key: { u: 'a' }, set: { seen: { $greatest: '2026-11-22T00:00:01.000Z' } } });
    expect(t.find('t', { u: 'a' })!.seen).toBe('2026-11-22T00:00:01.000Z');
  });

  it('guards: whereIn on a column, and key columns beyond the primary key', () => {
    const t = table([col('id', 'bigint'), col('owner', 'text'), col('status', 'text')], ['id']);
    seed(t, [{ id: '5', owner: 'ann', status: 'done' }]);
    t.apply({ op: 'update', table: 't', key: { id: 5, owner: 'bob' }, set: { status: 'x' } });
    t.apply({
      op: 'update',
      table: 't',
      key: { id: 5 },
      set: { status: 'y' },
      whereIn: { column: 'status', values: ['started'] },
    });
    expect(t.result().updates).toEqual([]);
    t.apply({ op: 'update', table: 't', key: { id: '5', owner: 'ann' }, set: { status: 'z' } });
    expect(t.result()).toEqual({ updates: [{ id: '5', owner: 'ann', status: 'z' }], inserts: [], deletes: [] });
  });

  it('a row new in the batch and deleted again is not written at all', () => {
    const t = table([col('id', 'text'), col('v', 'integer')], ['id']);
    seed(t, [], [{ id: 'n' }]);
    t.apply({ op: 'upsert', table: 't', key: { id: 'n' }, insert: { v: 1 } });
    t.apply({ op: 'delete', table: 't', key: { id: 'n' } });
    expect(t.result()).toEqual({ updates: [], inserts: [], deletes: [] });
  });

  it('an update of a missing row does nothing; a delete is written as a delete', () => {
    const t = table([col('id', 'text'), col('v', 'integer')], ['id']);
    seed(t, [{ id: 'here', v: 1 }], [{ id: 'gone' }]);
    t.apply({ op: 'update', table: 't', key: { id: 'gone' }, set: { v: 2 } });
    t.apply({ op: 'delete', table: 't', key: { id: 'here' } });
    expect(t.result()).toEqual({ updates: [], inserts: [], deletes: [{ id: 'here' }] });
  });

  it('refuses changes that do not name the primary key or name unknown columns', () => {
    const t = table([col('id', 'text'), col('v', 'integer')], ['id']);
    expect(() => t.apply({ op: 'update', table: 't', key: { v: 1 }, set: { v: 2 } })).toThrow(
      'must name its primary key',
    );
    seed(t, [{ id: 'a', v: 1 }]);
    expect(() => t.apply({ op: 'update', table: 't', key: { id: 'a' }, set: { nope: 2 } })).toThrow(
      'unknown column t.nope',
    );
    expect(() => t.apply({ op: 'update', table: 't', key: { id: 'a' }, set: { id: 'b' } })).toThrow('may not set t.id');
  });

  it('an upsert may name its row by another unique key; later changes find it by either key', () => {
    const t = table([col('id', 'bigint'), col('k', 'text'), col('read', 'boolean')], ['id'], { read: false }, [['k']]);
    seed(t, [], [{ k: 'x' }]);
    t.apply({ op: 'upsert', table: 't', key: { k: 'x' }, insert: { id: 7 } });
    t.apply({ op: 'upsert', table: 't', key: { k: 'x' }, insert: { id: 9 } }); // raised again: still the first
    t.apply({ op: 'update', table: 't', key: { id: '7' }, set: { read: true } });
    expect(t.result().inserts).toEqual([{ id: '7', k: 'x', read: true }]);
    expect(() => t.apply({ op: 'upsert', table: 't', key: { k: 'x', read: true }, insert: { id: 1 } })).toThrow(
      'exactly a unique key',
    );
  });

  it('a row the batch already changed wins over the same row read again by another key', () => {
    const t = table([col('id', 'bigint'), col('k', 'text'), col('read', 'boolean')], ['id'], {}, [['k']]);
    seed(t, [{ id: '7', k: 'x', read: false }]);
    t.apply({ op: 'update', table: 't', key: { id: 7 }, set: { read: true } });
    t.loaded('t', { id: '7', k: 'x', read: false });
    expect(t.find('t', { k: 'x' })).toEqual({ id: '7', k: 'x', read: true });
  });
});

describe('merge semantics: several changes to one row in one batch', () => {
  const ledger = () =>
    table(
      [
        col('id', 'text'),
        col('n', 'bigint'),
        col('amount', 'numeric', 2),
        col('tags', 'jsonb'),
        col('peak', 'integer'),
        col('note', 'text'),
      ],
      ['id'],
      { n: '0', tags: [] },
    );
  const storedRow = { id: 's', n: '5', amount: '1.00', tags: ['old'], peak: 3, note: 'old' };

  it('upsert then update of a new row: one insert carrying both', () => {
    const t = ledger();
    seed(t, [], [{ id: 'x' }]);
    t.apply({ op: 'upsert', table: 't', key: { id: 'x' }, insert: { n: 5, note: 'a' } });
    t.apply({ op: 'update', table: 't', key: { id: 'x' }, set: { note: 'b', n: { $inc: 1 } } });
    expect(t.result()).toEqual({
      updates: [],
      inserts: [{ id: 'x', n: '6', amount: null, tags: [], peak: null, note: 'b' }],
      deletes: [],
    });
  });

  it("upsert with update of a stored row, then update: one update; the upsert's insert values are not used", () => {
    const t = ledger();
    seed(t, [{ ...storedRow }]);
    t.apply({
      op: 'upsert',
      table: 't',
      key: { id: 's' },
      insert: { n: 100, note: 'ignored' },
      update: { n: { $inc: 1 } },
    });
    t.apply({ op: 'update', table: 't', key: { id: 's' }, set: { note: 'b' } });
    expect(t.result()).toEqual({ updates: [{ ...storedRow, n: '6', note: 'b' }], inserts: [], deletes: [] });
  });

  it('upsert of a stored row without update (or with an empty one) changes nothing and writes nothing', () => {
    const t = ledger();
    seed(t, [{ ...storedRow }]);
    t.apply({ op: 'upsert', table: 't', key: { id: 's' }, insert: { n: 100, note: 'ignored' } });
    t.apply({ op: 'upsert', table: 't', key: { id: 's' }, insert: { note: 'ignored' }, update: {} });
    expect(t.find('t', { id: 's' })).toEqual(storedRow);
    expect(t.result()).toEqual({ updates: [], inserts: [], deletes: [] });
  });

  it('update then $inc twice: each increment adds to the value before it, rounded to the scale at every step', () => {
    const t = ledger();
    seed(t, [{ ...storedRow }]);
    t.apply({ op: 'update', table: 't', key: { id: 's' }, set: { n: 10, amount: '0.10' } });
    t.apply({ op: 'update', table: 't', key: { id: 's' }, set: { n: { $inc: 1 }, amount: { $inc: 0.105 } } });
    t.apply({ op: 'update', table: 't', key: { id: 's' }, set: { n: { $inc: 2 }, amount: { $inc: 0.005 } } });
    // 0.10 + 0.105 = 0.205 → 0.21, + 0.005 = 0.215 → 0.22 (one unrounded sum would give 0.21)
    expect(t.result().updates).toEqual([{ ...storedRow, n: '13', amount: '0.22' }]);
  });

  it('$append: appends in change order; an array value is appended as one element', () => {
    const t = ledger();
    seed(t, [{ ...storedRow }]);
    for (const v of ['b', { c: 1 }, ['d', 'e']])
      t.apply({ op: 'update', table: 't', key: { id: 's' }, set: { tags: { $append: v } } });
    expect(t.result().updates).toEqual([{ ...storedRow, tags: ['old', 'b', { c: 1 }, ['d', 'e']] }]);
  });

  it('$greatest across changes keeps the largest: a NULL column takes the value, a NULL value keeps the column, numbers compare as numbers', () => {
    const t = ledger();
    seed(t, [], [{ id: 'g' }]);
    t.apply({ op: 'upsert', table: 't', key: { id: 'g' }, insert: {} });
    const peaks: (number | string | null)[] = [5, 3, null, 7, '12'];
    for (const v of peaks) t.apply({ op: 'update', table: 't', key: { id: 'g' }, set: { peak: { $greatest: v } } });
    t.apply({ op: 'update', table: 't', key: { id: 'g' }, set: { amount: { $greatest: '9.50' } } });
    t.apply({ op: 'update', table: 't', key: { id: 'g' }, set: { amount: { $greatest: 10 } } }); // as text '9.50' > '10'
    t.apply({ op: 'update', table: 't', key: { id: 'g' }, set: { amount: { $greatest: '9.99' } } });
    expect(t.find('t', { id: 'g' })).toMatchObject({ peak: 12, amount: '10.00' });
    expect(t.result().inserts).toEqual([{ id: 'g', n: '0', amount: '10.00', tags: [], peak: 12, note: null }]);
  });

  it('delete then re-insert of a stored row: written as one update, with defaults (not the old values) where the insert sets nothing', () => {
    const t = ledger();
    seed(t, [{ ...storedRow }]);
    t.apply({ op: 'delete', table: 't', key: { id: 's' } });
    t.apply({
      op: 'upsert',
      table: 't',
      key: { id: 's' },
      insert: { note: 'new' },
      update: { note: 'not used: the row was gone' },
    });
    expect(t.result()).toEqual({
      updates: [{ id: 's', n: '0', amount: null, tags: [], peak: null, note: 'new' }],
      inserts: [],
      deletes: [],
    });
  });

  it('a new row inserted, deleted and inserted again is one insert of its last version', () => {
    const t = ledger();
    seed(t, [], [{ id: 'x' }]);
    t.apply({ op: 'upsert', table: 't', key: { id: 'x' }, insert: { note: 'first' } });
    t.apply({ op: 'delete', table: 't', key: { id: 'x' } });
    t.apply({ op: 'upsert', table: 't', key: { id: 'x' }, insert: { note: 'second' } });
    expect(t.result()).toEqual({
      updates: [],
      inserts: [{ id: 'x', n: '0', amount: null, tags: [], peak: null, note: 'second' }],
      deletes: [],
    });
  });

  it('after a delete, updates and a second delete find no row; a delete whose guard fails deletes nothing', () => {
    const t = ledger();
    seed(t, [{ ...storedRow }, { ...storedRow, id: 'k' }]);
    t.apply({ op: 'delete', table: 't', key: { id: 's' } });
    t.apply({ op: 'update', table: 't', key: { id: 's' }, set: { note: 'lost' } });
    t.apply({ op: 'delete', table: 't', key: { id: 's' } });
    t.apply({ op: 'delete', table: 't', key: { id: 'k', note: 'other' } });
    expect(t.find('t', { id: 's' })).toBeNull();
    expect(t.result()).toEqual({ updates: [], inserts: [], deletes: [{ id: 's' }] });
  });

  it('an update of a missing row leaves nothing behind for a later upsert: that upsert inserts from its insert values only', () => {
    const t = ledger();
    seed(t, [], [{ id: 'm' }]);
    t.apply({ op: 'update', table: 't', key: { id: 'm' }, set: { n: { $inc: 5 }, note: 'lost' } });
    expect(t.find('t', { id: 'm' })).toBeNull();
    t.apply({ op: 'upsert', table: 't', key: { id: 'm' }, insert: { n: 1 }, update: { n: { $inc: 1 } } });
    expect(t.result()).toEqual({
      updates: [],
      inserts: [{ id: 'm', n: '1', amount: null, tags: [], peak: null, note: null }],
      deletes: [],
    });
  });

  it('result(): every touched stored row is an update, even one set back to its old values; rows only read are not written; order is first touch', () => {
    const t = ledger();
    seed(
      t,
      [
        { ...storedRow, id: 'a' },
        { ...storedRow, id: 'b' },
        { ...storedRow, id: 'c' },
      ],
      [{ id: 'new' }],
    );
    t.apply({ op: 'update', table: 't', key: { id: 'b' }, set: { note: 'x' } });
    t.apply({ op: 'upsert', table: 't', key: { id: 'new' }, insert: {} });
    t.apply({ op: 'update', table: 't', key: { id: 'a' }, set: { note: 'old' } });
    t.apply({ op: 'update', table: 't', key: { id: 'b' }, set: { note: 'old' } });
    expect(t.find('t', { id: 'c' })).toEqual({ ...storedRow, id: 'c' });
    expect(t.result()).toEqual({
      updates: [
        { ...storedRow, id: 'b' },
        { ...storedRow, id: 'a' },
      ],
      inserts: [{ id: 'new', n: '0', amount: null, tags: [], peak: null, note: null }],
      deletes: [],
    });
  });
});
