/**
 * The passes over the OpenAPI document's schemas (api/kernel/openapi.ts): the request schemas as the document shows
 * them, the shapes client generators read best, the named shapes hoisted into `components.schemas`, and a schema of
 * the document as a standalone JSON Schema.
 */

export type Schema = Record<string, unknown>;

/**
 * The request schema as the document shows it. Validation (ajv) uses `allOf` of `if {P: const v} then S` for a
 * body whose fields depend on a kind field (precise errors for the kind given); the document shows the same rule as
 * `oneOf` of one branch per kind, which generators and readers understand better (and which accepts the same bodies:
 * the kinds' consts are distinct, so exactly one branch can match).
 */
export function documentedSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(documentedSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(Object.entries(schema as Schema).map(([k, v]) => [k, documentedSchema(v)])) as Schema;
  const branches = node.allOf as Schema[] | undefined;
  const kindOf = (b: Schema) => {
    const props = (b.if as Schema | undefined)?.properties as Record<string, Schema> | undefined;
    const keys = props ? Object.keys(props) : [];
    return keys.length === 1 && 'const' in props![keys[0]] && b.then && Object.keys(b).length === 2
      ? { field: keys[0], value: props![keys[0]].const, then: b.then as Schema }
      : undefined;
  };
  const kinds = Array.isArray(branches) ? branches.map(kindOf) : [];
  if (!kinds.length || kinds.some((k) => !k || k.field !== kinds[0]!.field)) return node;
  const { allOf: _rule, ...rest } = node;
  return {
    ...rest,
    oneOf: kinds.map((k) => ({
      ...k!.then,
      properties: { ...((k!.then.properties as Schema) ?? {}), [k!.field]: { const: k!.value } },
      required: [...new Set([...((k!.then.required as string[]) ?? []), k!.field])],
    })),
  };
}

/** `names` with each repeat numbered in order (`X`, `X_2`, `X_3`): member names and operation ids that must differ. */
export function distinctNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((base) => {
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}_${n}`;
  });
}

/** The constant name a client generator gives an enum value (`content.generated` and `content_generated`: CONTENT_GENERATED). */
const enumConstant = (v: string) =>
  v
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase() || 'VALUE';

/**
 * `x-enum-varnames` (the member names openapi-python-client, openapi-generator and others use) on every string enum
 * whose values would get one name twice — the webhook events list both `content.generated` and the spec's
 * `content_generated` — so generated clients build (a repeated name made openapi-python-client stop). The first value
 * keeps the plain name; a later one that repeats it gets `_2`, `_3`, … in document order.
 */
export function withEnumVarnames<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withEnumVarnames) as T;
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withEnumVarnames(v)])) as Schema;
  const values = out.enum;
  if (Array.isArray(values) && values.length && values.every((v) => typeof v === 'string')) {
    const names = distinctNames((values as string[]).map(enumConstant));
    if (names.some((x, i) => x !== enumConstant(values[i] as string))) out['x-enum-varnames'] = names;
  }
  return out as T;
}

/**
 * An object schema with its own `properties` beside a `oneOf` of object branches (a writer's answer: the common
 * fields, and the content of each kind) has each branch carry the common properties and required fields itself.
 * It accepts the same documents; client generators read each branch as a whole type (openapi-python-client ignored
 * the common fields of such a schema, so a generated client lost `text`, `task_id`, …).
 */
export function foldIntoBranches<T>(node: T): T {
  if (Array.isArray(node)) return node.map(foldIntoBranches) as T;
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, foldIntoBranches(v)])) as Schema;
  const branches = out.oneOf as Schema[] | undefined;
  const props = out.properties as Record<string, unknown> | undefined;
  if (!Array.isArray(branches) || !props || branches.some((b) => !b || typeof b !== 'object' || '$ref' in b))
    return out as T;
  const { properties: _p, required, additionalProperties, ...rest } = out;
  return {
    ...rest,
    oneOf: branches.map((b) => ({
      type: 'object',
      ...b,
      properties: { ...props, ...((b.properties as Record<string, unknown>) ?? {}) },
      required: [...new Set([...((required as string[]) ?? []), ...((b.required as string[]) ?? [])])],
      ...(additionalProperties !== undefined && b.additionalProperties === undefined ? { additionalProperties } : {}),
    })),
  } as T;
}

/** The document as client generators read it best (the same documents valid): see the two passes. */
export const forGenerators = <T>(doc: T): T => withEnumVarnames(foldIntoBranches(doc));

/** JSON with object keys sorted: two schemas are one shape when these are equal. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x as Schema)
            .sort()
            .map((k) => [k, (x as Schema)[k]]),
        )
      : x,
  );

/**
 * Every schema named with `named()` (api/kernel/schema.ts: the `x-component` mark) moves to `components.schemas`
 * under its name, once, and each place that used it refers to it (`$ref`, keeping a description of its own beside
 * it). Innermost first, so a named shape inside another is referred to from the component too. A name given to two
 * different shapes is a programming error: the build fails naming it.
 */
export function hoistNamed<T>(doc: T, schemas: Record<string, unknown>): T {
  const shapes = new Map<string, string>();
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, visit(v)])) as Schema;
    const name = out['x-component'];
    if (typeof name !== 'string') return out;
    const { 'x-component': _mark, description, ...shape } = out;
    const key = canonical(shape);
    const known = shapes.get(name);
    if (known !== undefined && known !== key) throw new Error(`OpenAPI: two different schemas are named ${name}`);
    if (known === undefined) {
      shapes.set(name, key);
      schemas[name] = shape;
    }
    return { $ref: `#/components/schemas/${name}`, ...(description ? { description } : {}) };
  };
  return visit(doc) as T;
}

/**
 * A schema of the document (a response's, say) as a standalone JSON Schema that ajv compiles: its `$ref`s into
 * `components` resolve within it.
 */
export const standaloneSchema = (doc: { components?: unknown }, schema: unknown): Record<string, unknown> => ({
  allOf: [schema],
  components: doc.components,
});
