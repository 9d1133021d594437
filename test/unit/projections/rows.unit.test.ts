import { addDecimal, canonical, ColumnInfo, TableInfo, TableRows } from '../../../projections/rows';

const col = (name: string, type: string, scale: number | null = null): ColumnInfo => ({ name, type, scale });

function table(columns: ColumnInfo[], key: string[], defaults: Record<string, unknown> = {}, uniques: string[][] = []): TableRows {
  return new TableRows('t', { columns, byName: new Map(columns.map((c) => [c.name, c])), key, uniques, defaults } as TableInfo);
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
    expect(canonical(col('c', 'timestamp with time zone'), new Date('2026-11-22T00:00:00.000Z'))).toBe('2026-11-22T00:00:00.000Z');
    expect(() => canonical(col('c', 'numeric'), 'abc')).toThrow('not a decimal number');
  });
});

describe('changes applied in memory', () => {
  const usage = () => table([col('u', 'text'), col('calls', 'bigint'), col('cost', 'numeric', 8), col('log', 'jsonb'), col('seen', 'timestamp with time zone')], ['u'], { calls: '0', cost: '0.00000000', log: [] });

  it('insert-or-increment: first insert takes defaults, later ones increment exactly', () => {
    const t = usage();
    seed(t, [], [{ u: 'a' }]);
    const up = { op: 'upsert' as const, table: 't', key: { u: 'a' }, insert: { cost: 0.1 }, update: { cost: { $inc: 0.2 }, calls: { $inc: 1 } } };
    t.apply(up);
    t.apply(up);
    expect(t.result()).toEqual({ inserts: [{ u: 'a', calls: '1', cost: '0.30000000', log: [], seen: null }], updates: [], deletes: [] });
  });

  it('every right-hand side sees the row before the change; NULL stays NULL under $inc and $append', () => {
    const t = usage();
    seed(t, [{ u: 'a', calls: null, cost: '1.00000000', log: null, seen: '2026-11-22T00:00:00.000500+00:00' }]);
    t.apply({ op: 'update', table: 't', key: { u: 'a' }, set: { calls: { $inc: 1 }, log: { $append: { x: 1 } }, seen: { $greatest: '2026-11-22T00:00:00.000Z' } } });
    expect(t.find('t', { u: 'a' })).toMatchObject({ calls: null, log: null, seen: '2026-11-22T00:00:00.000500+00:00' });
    t.apply({ op: 'update', table: 't', key: { u: 'a' }, set: { seen: { $greatest: '2026-11-22T00:00:01.000Z' } } });
    expect(t.find('t', { u: 'a' })!.seen).toBe('2026-11-22T00:00:01.000Z');
  });

  it('guards: whereIn on a column, and key columns beyond the primary key', () => {
    const t = table([col('id', 'bigint'), col('owner', 'text'), col('status', 'text')], ['id']);
    seed(t, [{ id: '5', owner: 'ann', status: 'done' }]);
    t.apply({ op: 'update', table: 't', key: { id: 5, owner: 'bob' }, set: { status: 'x' } });
    t.apply({ op: 'update', table: 't', key: { id: 5 }, set: { status: 'y' }, whereIn: { column: 'status', values: ['started'] } });
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
    expect(() => t.apply({ op: 'update', table: 't', key: { v: 1 }, set: { v: 2 } })).toThrow('must name its primary key');
    seed(t, [{ id: 'a', v: 1 }]);
    expect(() => t.apply({ op: 'update', table: 't', key: { id: 'a' }, set: { nope: 2 } })).toThrow('unknown column t.nope');
    expect(() => t.apply({ op: 'update', table: 't', key: { id: 'a' }, set: { id: 'b' } })).toThrow('may not set t.id');
  });

  it('an upsert may name its row by another unique key; later changes find it by either key', () => {
    const t = table([col('id', 'bigint'), col('k', 'text'), col('read', 'boolean')], ['id'], { read: false }, [['k']]);
    seed(t, [], [{ k: 'x' }]);
    t.apply({ op: 'upsert', table: 't', key: { k: 'x' }, insert: { id: 7 } });
    t.apply({ op: 'upsert', table: 't', key: { k: 'x' }, insert: { id: 9 } }); // raised again: still the first
    t.apply({ op: 'update', table: 't', key: { id: '7' }, set: { read: true } });
    expect(t.result().inserts).toEqual([{ id: '7', k: 'x', read: true }]);
    expect(() => t.apply({ op: 'upsert', table: 't', key: { k: 'x', read: true }, insert: { id: 1 } })).toThrow('exactly a unique key');
  });

  it('a row the batch already changed wins over the same row read again by another key', () => {
    const t = table([col('id', 'bigint'), col('k', 'text'), col('read', 'boolean')], ['id'], {}, [['k']]);
    seed(t, [{ id: '7', k: 'x', read: false }]);
    t.apply({ op: 'update', table: 't', key: { id: 7 }, set: { read: true } });
    t.loaded('t', { id: '7', k: 'x', read: false });
    expect(t.find('t', { k: 'x' })).toEqual({ id: '7', k: 'x', read: true });
  });
});
