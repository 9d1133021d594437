/**
 * Text the platform can store and send on: no NUL character (PostgreSQL's
 * jsonb and text refuse U+0000) and no unpaired UTF-16 surrogate (it has no
 * UTF-8 form). The API refuses such input at the edge; the event store checks
 * again before appending; vendor answers are cleaned with `storableText`.
 */

/** NUL, or a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
const UNSTORABLE_ALL = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

export interface UnstorableText {
  /** Dotted path of the offending value (`sections.0.heading`); '' for the value itself. */
  path: string;
  problem: 'NUL character' | 'unpaired surrogate';
}

/** The reason a string cannot be stored, or undefined when it can. */
export function textProblem(s: string): UnstorableText['problem'] | undefined {
  const m = UNSTORABLE.exec(s);
  if (!m) return undefined;
  return m[0] === '\u0000' ? 'NUL character' : 'unpaired surrogate';
}

/** The first string (value or object key) in `value` that cannot be stored, depth-first. */
export function findUnstorableText(value: unknown, path = ''): UnstorableText | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path, problem } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const f = findUnstorableText(value[i], path ? `${path}.${i}` : String(i));
      if (f) return f;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const p = path ? `${path}.${k}` : k;
      const keyProblem = textProblem(k);
      if (keyProblem) return { path: p, problem: keyProblem };
      const f = findUnstorableText(v, p);
      if (f) return f;
    }
  }
  return undefined;
}

/** Every string (value or key) in `value` that cannot be stored, depth-first, at most `max` of them. */
export function findAllUnstorableText(
  value: unknown,
  max = 20,
  path = '',
  out: UnstorableText[] = [],
): UnstorableText[] {
  if (out.length >= max) return out;
  if (typeof value === 'string') {
    const problem = textProblem(value);
    if (problem) out.push({ path, problem });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => findAllUnstorableText(v, max, path ? `${path}.${i}` : String(i), out));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const p = path ? `${path}.${k}` : k;
      const keyProblem = textProblem(k);
      if (keyProblem && out.length < max) out.push({ path: p, problem: keyProblem });
      else findAllUnstorableText(v, max, p, out);
    }
  }
  return out;
}

/** `s` without NUL characters and unpaired surrogates (text from vendors and tools, before it is stored). */
export const storableText = (s: string): string => s.replace(UNSTORABLE_ALL, '');
