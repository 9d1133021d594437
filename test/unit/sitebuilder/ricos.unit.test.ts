/** Markdown → Ricos: block and inline mapping, unsafe links, images as blocks, determinism. */
import { markdownToRicos, RicosNode, walkRicos } from '../../../domain/sitebuilder/ricos';

const types = (nodes: RicosNode[]) => nodes.map((n) => n.type);
const texts = (n: RicosNode) =>
  [...walkRicos([n])]
    .filter((x) => x.type === 'TEXT')
    .map((x) => x.textData!.text)
    .join('');

describe('markdownToRicos', () => {
  const md = [
    '# Planning *content*',
    '',
    'Write **bold _and italic_** with a [link](https://example.org/a) and ~~old~~ `code`.',
    '',
    '- one',
    '  - nested',
    '- two',
    '',
    '3. three',
    '',
    '> quoted',
    '',
    '```ts',
    'const x = 1;',
    '```',
    '',
    '---',
    '',
    'Before ![A chart](https://example.org/c.png "Chart") after',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
  ].join('\n');
  const doc = markdownToRicos(md);

  it('maps every block kind', () => {
    expect(types(doc.nodes)).toEqual([
      'HEADING',
      'PARAGRAPH',
      'BULLETED_LIST',
      'ORDERED_LIST',
      'BLOCKQUOTE',
      'CODE_BLOCK',
      'DIVIDER',
      'PARAGRAPH',
      'IMAGE',
      'PARAGRAPH',
      'TABLE',
    ]);
    expect(doc.nodes[0].headingData).toEqual({ level: 1 });
    const list = doc.nodes[2];
    expect(types(list.nodes)).toEqual(['LIST_ITEM', 'LIST_ITEM']);
    expect(types(list.nodes[0].nodes)).toEqual(['PARAGRAPH', 'BULLETED_LIST']);
    expect(doc.nodes[3].orderedListData).toEqual({ indentation: 0, start: 3 });
    expect(texts(doc.nodes[5])).toBe('const x = 1;');
    expect(doc.nodes[8].imageData).toMatchObject({
      image: { src: { url: 'https://example.org/c.png' } },
      altText: 'A chart',
      caption: 'Chart',
    });
    expect(types(doc.nodes[10].nodes)).toEqual(['TABLE_ROW', 'TABLE_ROW']);
  });

  it('turns inline marks into decorations', () => {
    const p = doc.nodes[1].nodes;
    const byText = Object.fromEntries(p.map((t) => [t.textData!.text, t.textData!.decorations.map((d) => d.type)]));
    expect(byText['bold ']).toEqual(['BOLD']);
    expect(byText['and italic']).toEqual(['BOLD', 'ITALIC']);
    expect(byText['link']).toEqual(['LINK']);
    expect(byText['old']).toEqual(['STRIKETHROUGH']);
    const link = p.find((t) => t.textData!.text === 'link')!.textData!.decorations[0];
    expect(link.linkData!.link.url).toBe('https://example.org/a');
    expect(texts(doc.nodes[1])).toBe('Write bold and italic with a link and old code.');
  });

  it('keeps the text of unsafe links and raw HTML without interpreting them', () => {
    const d = markdownToRicos('[click](javascript:alert(1)) and <b>x</b>\n\n<script>alert(1)</script>');
    for (const n of walkRicos(d.nodes)) expect(n.textData?.decorations ?? []).toEqual([]);
    expect(texts(d.nodes[0])).toContain('click');
    expect(texts(d.nodes[1])).toBe('<script>alert(1)</script>');
  });

  it('is deterministic', () => {
    expect(markdownToRicos(md)).toEqual(doc);
    expect(markdownToRicos('')).toEqual({ nodes: [] });
  });
});
