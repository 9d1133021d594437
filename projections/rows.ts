/**
 * The in-memory half of set-based projection writes: a batch's changes are
 * applied to rows held in memory (loaded once per batch), and the runner then
 * writes each touched row once. Values are kept in one canonical form per
 * column type so that a row loaded from PostgreSQL and a row built from an
 * event compare and combine the same way, and arithmetic gives exactly what
 * the SQL it replaces gave (numeric and bigint are exact decimal strings,
 * rounded to the column's scale after each step, as an UPDATE would store).
 */
import type { Change, Expr, Row, Scalar, SetValues } from './framework';

export interface ColumnInfo {
  name: string;
  /** information_schema data_type, e.g. "text", "numeric", "timestamp with time zone". */
  type: string;
  /** Scale of a numeric column with a declared scale, else null. */
  scale: number | null;
}

export interface TableInfo {
  columns: ColumnInfo[];
  byName: Map<string, ColumnInfo>;
  /** Primary-key columns, in order. */
  key: string[];
  /** Column sets of the table's other unique indexes (a change may name a row by one of them). */
  uniques: string[][];
  /** Values of the columns' (constant) defaults, canonical. */
  defaults: Record<string, unknown>;
}

export type Value = unknown;
export type MemRow = Record<string, Value>;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** An exact decimal: value = int / 10^scale. */
interface Dec {
  int: bigint;
  scale: number;
}

export function parseDecimal(v: string | number | bigint): Dec {
  if (typeof v === 'bigint') return { int: v, scale: 0 };
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v.trim();
  const m = DECIMAL.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new Error(`not a decimal number: ${String(v)}`);
  const frac = m[3] ?? '';
  let int = BigInt(`${m[2] || '0'}${frac}`);
  let scale = frac.length - Number(m[4] ?? 0);
  if (scale < 0) {
    int *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { int: m[1] === '-' ? -int : int, scale };
}

function rescale(d: Dec, scale: number): Dec {
  if (scale >= d.scale) return { int: d.int * 10n ** BigInt(scale - d.scale), scale };
  // Round half away from zero, as PostgreSQL's numeric does.
  const f = 10n ** BigInt(d.scale - scale);
  const neg = d.int < 0n;
  const abs = neg ? -d.int : d.int;
  let q = abs / f;
  if ((abs % f) * 2n >= f) q += 1n;
  return { int: neg ? -q : q, scale };
}

export function formatDecimal(d: Dec): string {
  const neg = d.int < 0n;
  const digits = (neg ? -d.int : d.int).toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const frac = d.scale ? `.${digits.slice(digits.length - d.scale)}` : '';
  return `${neg ? '-' : ''}${whole}${frac}`;
}

/** a + b exactly, rounded to `scale` when the column has one. */
export function addDecimal(a: string | number, b: string | number, scale: number | null = null): string {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const s = Math.max(x.scale, y.scale);
  const sum: Dec = { int: rescale(x, s).int + rescale(y, s).int, scale: s };
  return formatDecimal(scale === null ? sum : rescale(sum, scale));
}

function compareDecimal(a: string | number, b: string | number): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const s = Math.max(x.scale, y.scale);
  const d = rescale(x, s).int - rescale(y, s).int;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

const EXACT = new Set(['numeric', 'bigint']);
const FLOAT = new Set(['integer', 'smallint', 'double precision', 'real']);
const TIME = new Set(['timestamp with time zone', 'timestamp without time zone', 'date']);
const JSON_TYPES = new Set(['jsonb', 'json']);

const TEXT = new Set(['text', 'character varying', 'character', 'uuid']);

/** Column types the in-memory model handles; a projection table with another type is refused at its first batch. */
export function supportedType(type: string): boolean {
  return (
    EXACT.has(type) || FLOAT.has(type) || TIME.has(type) || JSON_TYPES.has(type) || TEXT.has(type) || type === 'boolean'
  );
}

/** The canonical in-memory form of a value of a column (loaded from pg, or given by a projection). */
export function canonical(col: ColumnInfo, v: unknown): Value {
  if (v === null || v === undefined) return null;
  if (JSON_TYPES.has(col.type)) return v;
  if (EXACT.has(col.type)) {
    const s = formatDecimal(parseDecimal(v as string | number));
    return col.scale !== null ? formatDecimal(rescale(parseDecimal(s), col.scale)) : s;
  }
  if (FLOAT.has(col.type)) return typeof v === 'number' ? v : Number(v);
  if (col.type === 'boolean') return typeof v === 'boolean' ? v : v === 't' || v === 'true';
  // Times stay the strings they were given (loaded ones as ISO 8601 with microseconds): no rounding through Date.
  if (TIME.has(col.type)) return v instanceof Date ? v.toISOString() : String(v);
  return String(v);
}

function equal(col: ColumnInfo, a: Value, b: Value): boolean {
  if (a === null || b === null) return a === b;
  if (EXACT.has(col.type)) return compareDecimal(a as string, b as string) === 0;
  if (TIME.has(col.type)) return compareTime(a as string, b as string) === 0;
  if (JSON_TYPES.has(col.type)) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** A time as [milliseconds, sub-millisecond digits], so microseconds still order. */
function timeOf(v: string): [number, string] {
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) throw new Error(`not a time: ${v}`);
  return [ms, (/\.\d{3}(\d*)/.exec(v)?.[1] ?? '').padEnd(6, '0')];
}

function compareTime(a: string, b: string): number {
  const [x, xs] = timeOf(a);
  const [y, ys] = timeOf(b);
  return x !== y ? Math.sign(x - y) : xs < ys ? -1 : xs > ys ? 1 : 0;
}

function greater(col: ColumnInfo, a: Value, b: Value): boolean {
  if (EXACT.has(col.type)) return compareDecimal(a as string, b as string) > 0;
  if (TIME.has(col.type)) return compareTime(a as string, b as string) > 0;
  return (a as number | string) > (b as number | string);
}

const isExpr = (v: unknown): v is Expr =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && ('$inc' in v || '$append' in v || '$greatest' in v);

function column(t: TableInfo, table: string, name: string): ColumnInfo {
  const c = t.byName.get(name);
  if (!c) throw new Error(`projection change names unknown column ${table}.${name}`);
  return c;
}

/** The column set that identifies the row a change names: the primary key, or another unique key, within `key`. */
export function identityColumns(t: TableInfo, table: string, key: Row): string[] {
  const names = Object.keys(key);
  for (const cols of [t.key, ...t.uniques]) if (cols.every((c) => names.includes(c))) return cols;
  throw new Error(
    `projection change on ${table} must name its primary key (${t.key.join(', ')}) or another unique key; it names ${names.join(', ')}`,
  );
}

/** An identity string: which columns, and their canonical values. */
function identity(t: TableInfo, table: string, cols: string[], row: Row | MemRow): string {
  return JSON.stringify([cols, cols.map((c) => canonical(column(t, table, c), row[c]))]);
}

/** The primary-key identity of a row. */
export function keyOf(t: TableInfo, table: string, key: Row | MemRow): string {
  return identity(t, table, t.key, key);
}

/** Columns of `key` beyond the identifying ones act as a guard: the row must have these values. */
function guardHolds(t: TableInfo, table: string, row: MemRow, key: Row, ident: string[]): boolean {
  for (const [k, v] of Object.entries(key)) {
    if (ident.includes(k)) continue;
    const c = column(t, table, k);
    if (!equal(c, row[k], canonical(c, v))) return false;
  }
  return true;
}

/** SQL semantics of an expression over NULL: NULL + n, NULL || x and greatest(NULL, x) as PostgreSQL gives them. */
function applySet(t: TableInfo, table: string, row: MemRow, set: SetValues): void {
  const next: MemRow = {};
  for (const [name, v] of Object.entries(set)) {
    const c = column(t, table, name);
    if (t.key.includes(name) || t.uniques.some((u) => u.includes(name)))
      throw new Error(`projection change may not set ${table}.${name}: it identifies rows`);
    const cur = row[name];
    if (!isExpr(v)) next[name] = canonical(c, v);
    else if ('$inc' in v) {
      if (cur === null || cur === undefined) next[name] = null;
      else if (EXACT.has(c.type)) next[name] = addDecimal(cur as string, v.$inc, c.scale);
      else next[name] = (cur as number) + v.$inc;
    } else if ('$append' in v)
      next[name] = cur === null || cur === undefined ? null : [...(cur as unknown[]), v.$append];
    else {
      const x = canonical(c, v.$greatest);
      next[name] = cur === null || cur === undefined ? x : x === null ? cur : greater(c, x, cur) ? x : cur;
    }
  }
  // Every right-hand side sees the row as it was before this change, as in one SQL UPDATE.
  Object.assign(row, next);
}

/**
 * The rows of one table that a batch reads and writes, by primary key
 * (`null` = known not to exist), and which primary key each identity a change
 * used resolves to (`null` = no such row).
 */
export class TableRows {
  readonly rows = new Map<string, MemRow | null>();
  private readonly ids = new Map<string, string | null>();
  readonly touched = new Set<string>();
  /** Primary keys of rows read from the database (the others are new in this batch). */
  readonly stored = new Set<string>();
  constructor(
    readonly name: string,
    readonly info: TableInfo,
  ) {}

  /** The identity a change names, and its columns; whether it is resolved yet. */
  identify(table: string, key: Row): { id: string; cols: string[]; known: boolean } {
    const cols = identityColumns(this.info, table, key);
    const id = identity(this.info, table, cols, key);
    return { id, cols, known: this.ids.has(id) };
  }

  /** Records a row loaded from the database (or built in memory) under all its identities. */
  register(table: string, row: MemRow): string {
    const pk = keyOf(this.info, table, row);
    this.rows.set(pk, row);
    for (const cols of [this.info.key, ...this.info.uniques]) this.ids.set(identity(this.info, table, cols, row), pk);
    return pk;
  }

  /** Records a row read from the database; a row the batch already holds (and may have changed) wins. */
  loaded(table: string, row: MemRow): void {
    const pk = keyOf(this.info, table, row);
    this.stored.add(pk);
    if (!this.rows.has(pk)) {
      this.register(table, row);
      return;
    }
    const held = this.rows.get(pk);
    for (const cols of [this.info.key, ...this.info.uniques]) {
      const id = identity(this.info, table, cols, row);
      if (!this.ids.has(id)) this.ids.set(id, held ? pk : null);
    }
  }

  /** Records that no row has this identity. */
  absent(id: string): void {
    if (!this.ids.has(id)) this.ids.set(id, null);
  }

  find(table: string, key: Row): MemRow | null {
    const { id, known } = this.identify(table, key);
    if (!known) throw new Error(`row ${id} of ${table} was not loaded`);
    const pk = this.ids.get(id);
    return pk ? (this.rows.get(pk) ?? null) : null;
  }

  /** Applies one change; the rows it names must have been loaded. */
  apply(c: Change): void {
    const t = this.info;
    const { cols } = this.identify(c.table, c.key);
    const row = this.find(c.table, c.key);
    switch (c.op) {
      case 'upsert': {
        if (cols !== t.key && Object.keys(c.key).length !== cols.length)
          throw new Error(`upsert on ${c.table} must name exactly a unique key`);
        if (row === null) {
          const fresh: MemRow = {};
          for (const col of t.columns) fresh[col.name] = t.defaults[col.name] ?? null;
          for (const [name, v] of Object.entries({ ...c.key, ...c.insert }))
            fresh[name] = canonical(column(t, c.table, name), v);
          const pk = keyOf(t, c.table, fresh);
          if (this.rows.get(pk)) throw new Error(`upsert on ${c.table} would duplicate primary key ${pk}`);
          this.touched.add(this.register(c.table, fresh));
        } else if (c.update && Object.keys(c.update).length) {
          applySet(t, c.table, row, c.update);
          this.touched.add(keyOf(t, c.table, row));
        }
        return;
      }
      case 'update': {
        if (row === null || !guardHolds(t, c.table, row, c.key, cols)) return;
        if (c.whereIn) {
          const col = column(t, c.table, c.whereIn.column);
          const cur = row[col.name];
          if (!c.whereIn.values.some((v: Scalar) => equal(col, cur, canonical(col, v)))) return;
        }
        applySet(t, c.table, row, c.set);
        this.touched.add(keyOf(t, c.table, row));
        return;
      }
      case 'delete': {
        if (row === null || !guardHolds(t, c.table, row, c.key, cols)) return;
        const pk = keyOf(t, c.table, row);
        this.rows.set(pk, null);
        for (const u of [t.key, ...t.uniques]) this.ids.set(identity(t, c.table, u, row), null);
        this.touched.add(pk);
      }
    }
  }

  /**
   * What to write: touched rows that were read from the database (update),
   * touched rows new in this batch (insert), and primary keys of stored rows
   * the batch deleted (delete).
   */
  result(): { updates: MemRow[]; inserts: MemRow[]; deletes: MemRow[] } {
    const updates: MemRow[] = [];
    const inserts: MemRow[] = [];
    const deletes: MemRow[] = [];
    for (const k of this.touched) {
      const row = this.rows.get(k);
      if (row) (this.stored.has(k) ? updates : inserts).push(row);
      else if (this.stored.has(k)) {
        const values = (JSON.parse(k) as [string[], Value[]])[1];
        deletes.push(Object.fromEntries(this.info.key.map((c, i) => [c, values[i]])));
      }
    }
    return { updates, inserts, deletes };
  }
}
