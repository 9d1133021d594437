/**
 * What an in-process language model (the `llama` provider) may write in one
 * gateway call, and where in the template writer's answer its text goes.
 *
 * The template writer (`localTask`) always runs first and gives the grounded
 * answer; a plan names the parts of that answer the model writes again:
 *  - `rewrite`: the model rephrases the text sentence by sentence. Citation
 *    markers (`[n]`) are taken off before and put back after, so every cited
 *    `[n]` stays with its sentence; the gate refuses a sentence that loses or
 *    gains a number or a name, or drifts from the original's meaning.
 *  - `write`: the model writes short copy (social post, hook, headline, subject
 *    line, caption) from a brief, with the template's version as its draft.
 * A part the gate refuses keeps the template writer's text, and the report says why.
 *
 * Paths address the answer: `''` is the whole text (Markdown answers), `a.b.0`
 * a string inside a JSON answer, `a.*` every string of an array.
 */

import type { Coverage } from './compose';

/** One chat turn of a model prompt (domain/ai/chat.ts). */
export type { ChatTurn } from '../ai/chat';

/** Short-copy forms the model writes in `write` mode (each has its own prompt and example). */
export const COPY_FORMS = ['social_post', 'hook', 'headline', 'subject_line', 'caption'] as const;
export type CopyForm = (typeof COPY_FORMS)[number];

/** Facts and framing the model may use in `write` mode; nothing else counts as supported. */
export interface ModelBrief {
  topic: string;
  audience?: string;
  tone?: string;
  /** Where it goes (`profnet`, `microblog`, an email, ...): named in the prompt. */
  platform?: string;
  keyPoints?: string[];
  /** Source sentences the copy may restate. */
  facts?: string[];
}

export interface ModelField {
  path: string;
  mode: 'rewrite' | 'write';
  /** `write` only: the kind of copy. */
  form?: CopyForm;
  /** `write` only: what to write about. */
  brief?: ModelBrief;
  /** Hard limit: longer text is cut at the last sentence end that fits, or refused. */
  maxChars?: number;
  /**
   * `write` only, in-process model only: a GBNF grammar (llama.cpp's format) the model's text must follow. Only
   * texts of the grammar's language can come out, whatever tokens sampling picks; the gate still checks them.
   */
  grammar?: string;
}

export interface ModelPlan {
  fields: ModelField[];
  /** Sources the rewritten text is checked against with the claim checker (default: the task's sources). */
  sources?: Array<{ title: string; url: string; excerpt: string }>;
}

/** Why the gate kept the template writer's text instead of the model's. */
export type GateReason =
  | 'empty'
  | 'too_long'
  | 'repetitive'
  | 'off_language'
  | 'meta_talk'
  | 'meaning_drift'
  | 'meaning_changed'
  | 'unsupported_number'
  | 'unsupported_name'
  | 'off_topic'
  | 'claim_check'
  | 'model_error'
  | 'time_budget';

export interface FieldReport {
  path: string;
  mode: 'rewrite' | 'write';
  form?: CopyForm;
  /** Pieces offered to the model (sentences for rewrites, 1 for write). */
  units: number;
  /** Pieces whose model text replaced the template writer's. */
  written: number;
  /** Pieces the model gave back as they were (the template's text stays; not counted as written). */
  unchanged: number;
  /** Pieces where the template writer's text stayed, by reason. */
  rejected: Partial<Record<GateReason, number>>;
}

/** The plan's outcome, returned in the response metadata (`model_writing`). */
export interface ModelWritingReport {
  /** `model`: every piece by the model; `template`: none; `mixed`: some. */
  writer: 'model' | 'template' | 'mixed';
  generations: number;
  fields: FieldReport[];
}

/** Providers a request may ask for (`auto`: vendor, else llama when its model is present, else local). */
export const PROVIDER_CHOICES = ['auto', 'vendor_a', 'vendor_b', 'llama', 'local'] as const;
export type ProviderChoiceName = (typeof PROVIDER_CHOICES)[number];

/** What a client sees about the AI call behind a text (the `metadata` of section and copy results). */
export interface GenerationMetadata {
  provider: string;
  model: string;
  /** True when no outside vendor was involved (`llama` or `local`). */
  offline: boolean;
  tokens_in: number;
  tokens_out: number;
  /** llama only: the model file's size, who wrote the text, and what the gate refused. */
  model_size_bytes?: number;
  writer?: 'model' | 'template' | 'mixed';
  model_writing?: ModelWritingReport;
  fallback_reason?: GateReason;
  /** Epoch milliseconds of the first generated token, and the time from the gateway call to it. */
  first_token_at?: number;
  time_to_first_token_ms?: number;
  /** Time the model spent generating (all generations of the call). */
  generation_ms?: number;
  /** The offline writer's account of how it met the brief, and why the text is shorter than asked (compose.ts). */
  coverage?: Coverage;
}

/** Plans the platform's own writers use (docs/providers.md lists which route uses which). */
export const MODEL_PLANS = {
  /** Sections and revisions: the grounded composer's sentences rephrased, citations kept. */
  rewriteText: (): ModelPlan => ({ fields: [{ path: '', mode: 'rewrite' }] }),
  /** Headlines in a JSON list (outline title options). */
  headlines: (path: string, brief: ModelBrief, maxChars = 70): ModelPlan => ({
    fields: [{ path, mode: 'write', form: 'headline', brief, maxChars }],
  }),
  /** One piece of short copy at `path` of a JSON answer. */
  copy: (path: string, form: CopyForm, brief: ModelBrief, maxChars: number): ModelPlan => ({
    fields: [{ path, mode: 'write', form, brief, maxChars }],
  }),
};

/** One string the plan addresses: where it is and what it holds now. */
export interface Target {
  /** Concrete path (`*` resolved to indices). */
  path: string;
  value: string;
}

const segmentsOf = (path: string): string[] => (path === '' ? [] : path.split('.'));

/** The strings `path` addresses in `doc` (a JSON value); missing or non-string entries are skipped. */
export function targetsOf(doc: unknown, path: string): Target[] {
  const out: Target[] = [];
  const walk = (node: unknown, rest: string[], at: string[]): void => {
    if (rest.length === 0) {
      if (typeof node === 'string') out.push({ path: at.join('.'), value: node });
      return;
    }
    const [head, ...tail] = rest;
    if (head === '*') {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, tail, [...at, String(i)]));
      return;
    }
    if (node !== null && typeof node === 'object' && Object.prototype.hasOwnProperty.call(node, head))
      walk((node as Record<string, unknown>)[head], tail, [...at, head]);
  };
  walk(doc, segmentsOf(path), []);
  return out;
}

/** `doc` with the string at the concrete `path` replaced (a copy; `''` replaces the whole value). */
export function withValue(doc: unknown, path: string, value: string): unknown {
  const segs = segmentsOf(path);
  if (segs.length === 0) return value;
  const [head, ...tail] = segs;
  if (Array.isArray(doc)) {
    const copy = [...doc];
    copy[Number(head)] = withValue(copy[Number(head)], tail.join('.'), value);
    return copy;
  }
  const obj = doc as Record<string, unknown>;
  return { ...obj, [head]: withValue(obj[head], tail.join('.'), value) };
}
