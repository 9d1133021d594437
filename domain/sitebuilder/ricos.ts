/**
 * Markdown → the builder's rich-content format (Ricos: a tree of typed nodes,
 * `{nodes: [...]}`), the `richContent` of a draft post.
 *
 * Parsed with markdown-it (CommonMark + tables + strikethrough), then mapped
 * block by block: paragraphs, headings 1–6, bulleted and ordered lists (nested
 * lists stay nested inside their item), block quotes, fenced and indented
 * code, horizontal rules (dividers), tables, and images (a block of their own:
 * an image inside a paragraph splits it). Inline marks become decorations:
 * bold, italic, strikethrough, links (http, https and mailto only; others keep
 * their text without the link). Ricos has no inline-code mark: inline code
 * keeps its text undecorated. Raw HTML is not interpreted: it is kept as text.
 *
 * Pure and deterministic: node ids are numbered in document order, so the
 * same Markdown always gives the same document.
 */
import MarkdownIt from 'markdown-it';

export interface RicosDecoration {
  type: 'BOLD' | 'ITALIC' | 'STRIKETHROUGH' | 'LINK';
  fontWeightValue?: number;
  italicData?: boolean;
  strikethroughData?: boolean;
  linkData?: { link: { url: string; target: 'BLANK'; rel: { noreferrer: boolean } } };
}

export interface RicosNode {
  type: string;
  id: string;
  nodes: RicosNode[];
  textData?: { text: string; decorations: RicosDecoration[] };
  [data: string]: unknown;
}

export interface RicosDocument {
  nodes: RicosNode[];
}

const md = new MarkdownIt('default', { html: true, linkify: false });
type Token = ReturnType<typeof md.parse>[number];
const SAFE_LINK = /^(https?:|mailto:)/i;

class Builder {
  private n = 0;
  node(type: string, nodes: RicosNode[] = [], data: Record<string, unknown> = {}): RicosNode {
    return { type, id: `n${++this.n}`, nodes, ...data };
  }
  text(text: string, decorations: RicosDecoration[]): RicosNode {
    return this.node('TEXT', [], { textData: { text, decorations } });
  }
}

/** An inline run: text nodes, with images pulled out to become blocks of their own. */
type InlinePart = { kind: 'text'; nodes: RicosNode[] } | { kind: 'image'; node: RicosNode };

function inline(b: Builder, children: Token[]): InlinePart[] {
  const parts: InlinePart[] = [];
  let current: RicosNode[] = [];
  const marks: RicosDecoration[] = [];
  const push = (text: string) => {
    if (text === '') return;
    const prev = current[current.length - 1];
    const same = prev && JSON.stringify(prev.textData!.decorations) === JSON.stringify(marks);
    if (same) prev.textData!.text += text;
    else
      current.push(
        b.text(
          text,
          marks.map((m) => ({ ...m })),
        ),
      );
  };
  const open = (d: RicosDecoration) => marks.push(d);
  const close = (type: RicosDecoration['type']) => {
    const at = marks.map((m) => m.type).lastIndexOf(type);
    if (at >= 0) marks.splice(at, 1);
  };
  for (const t of children) {
    switch (t.type) {
      case 'text':
      case 'code_inline':
      case 'html_inline':
        push(t.content);
        break;
      case 'softbreak':
        push(' ');
        break;
      case 'hardbreak':
        push('\n');
        break;
      case 'strong_open':
        open({ type: 'BOLD', fontWeightValue: 700 });
        break;
      case 'strong_close':
        close('BOLD');
        break;
      case 'em_open':
        open({ type: 'ITALIC', italicData: true });
        break;
      case 'em_close':
        close('ITALIC');
        break;
      case 's_open':
        open({ type: 'STRIKETHROUGH', strikethroughData: true });
        break;
      case 's_close':
        close('STRIKETHROUGH');
        break;
      case 'link_open': {
        const href = String(t.attrGet('href') ?? '');
        // An unsafe link keeps its text; the close below finds no LINK mark to remove.
        if (SAFE_LINK.test(href))
          open({ type: 'LINK', linkData: { link: { url: href, target: 'BLANK', rel: { noreferrer: true } } } });
        break;
      }
      case 'link_close':
        close('LINK');
        break;
      case 'image': {
        const src = String(t.attrGet('src') ?? '');
        if (!/^https?:/i.test(src)) {
          push(t.content);
          break;
        }
        if (current.length) parts.push({ kind: 'text', nodes: current });
        current = [];
        parts.push({
          kind: 'image',
          node: b.node('IMAGE', [], {
            imageData: {
              containerData: { alignment: 'CENTER', width: { size: 'CONTENT' } },
              image: { src: { url: src } },
              altText: t.content,
              ...(t.attrGet('title') ? { caption: String(t.attrGet('title')) } : {}),
            },
          }),
        });
        break;
      }
      default:
        if (t.content) push(t.content);
    }
  }
  if (current.length) parts.push({ kind: 'text', nodes: current });
  return parts;
}

/** Index of the token closing the block opened at `i` (same nesting level). */
function closing(tokens: Token[], i: number): number {
  let depth = 0;
  for (let j = i; j < tokens.length; j++) {
    depth += tokens[j].nesting;
    if (depth === 0) return j;
  }
  return tokens.length - 1;
}

const inlineChildren = (tokens: Token[], from: number, to: number): Token[] =>
  tokens.slice(from, to).find((t) => t.type === 'inline')?.children ?? [];

function blocks(b: Builder, tokens: Token[], depth = 0): RicosNode[] {
  const out: RicosNode[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const end = t.nesting === 1 ? closing(tokens, i) : i;
    const inner = tokens.slice(i + 1, end);
    switch (t.type) {
      case 'paragraph_open':
        for (const p of inline(b, inlineChildren(tokens, i, end)))
          out.push(p.kind === 'image' ? p.node : b.node('PARAGRAPH', p.nodes, { paragraphData: {} }));
        break;
      case 'heading_open': {
        const level = Number(t.tag.slice(1));
        const parts = inline(b, inlineChildren(tokens, i, end));
        for (const p of parts)
          out.push(p.kind === 'image' ? p.node : b.node('HEADING', p.nodes, { headingData: { level } }));
        break;
      }
      case 'bullet_list_open':
        out.push(b.node('BULLETED_LIST', blocks(b, inner, depth + 1), { bulletedListData: { indentation: depth } }));
        break;
      case 'ordered_list_open': {
        const start = Number(t.attrGet('start') ?? 1);
        out.push(
          b.node('ORDERED_LIST', blocks(b, inner, depth + 1), {
            orderedListData: { indentation: depth, ...(start !== 1 ? { start } : {}) },
          }),
        );
        break;
      }
      case 'list_item_open': {
        const children = blocks(b, inner, depth);
        out.push(b.node('LIST_ITEM', children.length ? children : [b.node('PARAGRAPH', [], { paragraphData: {} })]));
        break;
      }
      case 'blockquote_open':
        out.push(b.node('BLOCKQUOTE', blocks(b, inner, depth), { blockquoteData: { indentation: 0 } }));
        break;
      case 'fence':
      case 'code_block':
        out.push(
          b.node('CODE_BLOCK', [b.text(t.content.replace(/\n$/, ''), [])], {
            codeBlockData: { textStyle: { textAlignment: 'AUTO' } },
          }),
        );
        break;
      case 'hr':
        out.push(b.node('DIVIDER', [], { dividerData: { lineStyle: 'SINGLE', width: 'LARGE', alignment: 'CENTER' } }));
        break;
      case 'html_block':
        out.push(b.node('PARAGRAPH', [b.text(t.content.replace(/\n+$/, ''), [])], { paragraphData: {} }));
        break;
      case 'table_open':
        out.push(table(b, inner));
        break;
      default:
        break;
    }
    i = end;
  }
  return out;
}

function table(b: Builder, tokens: Token[]): RicosNode {
  const rows: RicosNode[] = [];
  let cols = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== 'tr_open') continue;
    const end = closing(tokens, i);
    const cells: RicosNode[] = [];
    for (let j = i + 1; j < end; j++) {
      const c = tokens[j];
      if (c.type !== 'th_open' && c.type !== 'td_open') continue;
      const cend = closing(tokens, j);
      const nodes = inline(b, inlineChildren(tokens, j, cend)).flatMap((p) => (p.kind === 'text' ? p.nodes : []));
      cells.push(b.node('TABLE_CELL', [b.node('PARAGRAPH', nodes, { paragraphData: {} })], { tableCellData: {} }));
      j = cend;
    }
    cols = Math.max(cols, cells.length);
    rows.push(b.node('TABLE_ROW', cells));
    i = end;
  }
  return b.node('TABLE', rows, {
    tableData: {
      dimensions: {
        colsWidthRatio: Array(cols).fill(1),
        rowsHeight: Array(rows.length).fill(47),
        colsMinWidth: Array(cols).fill(120),
      },
    },
  });
}

/** The Ricos document of `markdown`. */
export function markdownToRicos(markdown: string): RicosDocument {
  return { nodes: blocks(new Builder(), md.parse(markdown, {})) };
}

/** Every node of a document, depth first (for counting and tests). */
export function* walkRicos(nodes: RicosNode[]): Generator<RicosNode> {
  for (const n of nodes) {
    yield n;
    yield* walkRicos(n.nodes);
  }
}
