/**
 * LanguageTool, an independent grammar checker nobody here wrote, as the content evaluation's judge of grammar
 * (docs/quality.md). One JVM for a whole run: scripts/languagetool/Check.java reads a text a line and answers its
 * matches; the jars are fetched by `ensure_languagetool` (scripts/lib.sh) into .tools/languagetool/lib.
 *
 * What counts as an error: rules of the grammar, typo, confused-word, punctuation and casing categories (and any
 * rule whose issue type is grammar or misspelling); style, redundancy, typography and whitespace rules do not. A
 * typo match on a word the brief itself spells that way (a shop's name, a trade term) is not the writer's error.
 */
import { spawn, ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = path.resolve(__dirname, '../..');
export const LANGUAGETOOL_LIB = path.join(process.env.TOOLS_DIR ?? path.join(ROOT, '.tools'), 'languagetool/lib');

export interface LtMatch {
  rule: string;
  category: string;
  type: string;
  offset: number;
  length: number;
  message: string;
  /** The text the match covers. */
  covered: string;
}

const COUNTED_CATEGORIES = new Set(['GRAMMAR', 'TYPOS', 'CONFUSED_WORDS', 'PUNCTUATION', 'CASING']);
const COUNTED_TYPES = new Set(['grammar', 'misspelling']);

/** Whether a match is an error the evaluation counts (see the module comment). */
export function counted(m: LtMatch, briefWords: ReadonlySet<string>): boolean {
  if (!COUNTED_CATEGORIES.has(m.category) && !COUNTED_TYPES.has(m.type)) return false;
  if ((m.category === 'TYPOS' || m.type === 'misspelling') && briefWords.has(m.covered)) return false;
  return true;
}

export interface LanguageTool {
  /** Every match LanguageTool reports for `text`. */
  check(text: string): Promise<LtMatch[]>;
  close(): Promise<void>;
}

/** Starts the checker (about 15 s until LanguageTool is ready). */
export async function startLanguageTool(language = 'en-US'): Promise<LanguageTool> {
  if (!existsSync(path.join(LANGUAGETOOL_LIB, 'languagetool-core-6.7.jar')))
    throw new Error(`LanguageTool is not installed in ${LANGUAGETOOL_LIB}: run scripts/test or ensure_languagetool`);
  const child: ChildProcess = spawn(
    'java',
    ['-Xss4m', '-cp', `${LANGUAGETOOL_LIB}/*`, path.join(ROOT, 'scripts/languagetool/Check.java'), language],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const waiting = new Map<number, { text: string; resolve: (m: LtMatch[]) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let ready!: () => void;
  let failed!: (e: Error) => void;
  const started = new Promise<void>((res, rej) => ((ready = res), (failed = rej)));
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const msg = JSON.parse(line) as {
      ready?: boolean;
      id?: number;
      matches?: Omit<LtMatch, 'covered'>[];
      error?: string;
    };
    if (msg.ready) return ready();
    const w = waiting.get(msg.id!);
    if (!w) return;
    waiting.delete(msg.id!);
    if (msg.error) return w.reject(new Error(`LanguageTool: ${msg.error}`));
    w.resolve(msg.matches!.map((m) => ({ ...m, covered: w.text.slice(m.offset, m.offset + m.length) })));
  });
  child.once('exit', (code) => {
    const e = new Error(`LanguageTool exited (${code}): ${stderr}`);
    failed(e);
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  });
  await started;
  return {
    check(text) {
      const id = nextId++;
      return new Promise<LtMatch[]>((resolve, reject) => {
        waiting.set(id, { text, resolve, reject });
        child.stdin!.write(`${JSON.stringify({ id, text })}\n`);
      });
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin!.end();
      await exited;
    },
  };
}
