/**
 * The marked path (documents over GROUP_SIZE) must read markdown exactly as the mdast
 * path does: same segments, same pseudo render, byte-exact identity. Both paths are
 * forced here on the same inputs, including documents far below GROUP_SIZE.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { getAdapter } from '../../src/formats/index.js';
import { markdownDrafts } from '../../src/formats/markdown/adapter.js';
import { markedBlocks } from '../helpers/markdown-blocks.js';
import { TemplateDocument } from '../../src/formats/core/document.js';
import { fixtures, identityRender, LTR, pseudoRender, RTL } from './helpers.js';
import { markdownShape } from './structure.js';
import { propertyRuns } from '../helpers/property-runs.js';

const docOf = (source: string, parser: 'mdast' | 'marked') => new TemplateDocument('markdown', source, markdownDrafts(source, { parser }));

function assertSameAsMdast(source: string): void {
  const reference = docOf(source, 'mdast');
  const fast = docOf(source, 'marked');
  assert.equal(identityRender(fast), source);
  assert.deepEqual(fast.segments, reference.segments);
  for (const target of [LTR, RTL]) assert.equal(pseudoRender(fast, target), pseudoRender(reference, target));
}

/** How many top-level blocks the marked path handed to mdast. */
const fallbacks = (source: string) => markedBlocks(source).filter((b) => b.type === 'fallback').length;

const word = fc.constantFrom('Hello', 'world', 'café', 'Save', 'the', 'a', '42', "don't", '日本語', 'Привет', 'x_y');
const placeholder = fc.constantFrom('{name}', '%s', '{{x}}', 'https://ex.com/a?b=1', 'me@ex.com', '<g1>', '{c, plural, one {# item} other {# items}}');
const inlineText = fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: placeholder }), { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
const inline = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: inlineText },
      { weight: 1, arbitrary: inlineText.map((t) => `*${t}*`) },
      { weight: 1, arbitrary: inlineText.map((t) => `**${t}**`) },
      { weight: 1, arbitrary: inlineText.map((t) => `[${t}](https://ex.com/${t.length} "T ${t}")`) },
      { weight: 1, arbitrary: inlineText.map((t) => `![${t}](i.png)`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('`code`', '<b>bold</b>', '~~del~~', '\\*', '&amp;', 'x  \ny', '[ref]', '[^1]', '[t][ref]', '![a][ref]', '<https://a.b/c>', 'www.ex.com/x.', '_u_', '__s__'),
      },
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((p) => p.join(' '));
const block = fc.oneof(
  inline,
  inline.map((t) => `## ${t}`),
  inline.map((t) => `${t}\n===`),
  inline.map((t) => `- ${t}\n- ${t}\n  - nested ${t}`),
  inline.map((t) => `1. ${t}\n2. [ ] ${t}`),
  inline.map((t) => `- ${t}\n\n  ${t}\n\n  > q ${t}\n\n  \`\`\`\n  code\n  \`\`\``),
  inline.map((t) => `- ${t}  \nlazy ${t}\n- b\nlazy2`),
  inline.map((t) => `> ${t}\n> more ${t}`),
  inline.map((t) => `> ${t}\nlazy ${t}\n> x`),
  inline.map((t) => `> - ${t}\n>   ${t}\n> 1. ${t}`),
  inline.map((t) => `| h | ${t} |\n|---|:-:|\n| ${t} | c |`),
  inline.map((t) => `- | a | b |\n  |---|---|\n  | ${t} | x |`),
  inline.map((t) => `   ${t}  \n    ${t}\\\n${t}`),
  fc.constantFrom('```js\nconst a = "x";\n```', '    indented code', '<div>\n<p>Html <b>block</b></p>\n</div>', '***', '[ref]: https://ref.example "R"', '[^1]: Note text.', '<!-- c -->', '<span>x</span>'),
);
const documents = fc
  .tuple(fc.array(block, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([blocks, eol, front]) => ((front ? '---\ntitle: x\n---\n\n' : '') + blocks.join('\n\n') + '\n').replace(/\n/g, eol));

/** Repeats `unit(i)` until the document reaches `bytes`. */
function repeat(bytes: number, unit: (i: number) => string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = unit(i);
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

const units: Record<string, (i: number) => string> = {
  'list-heavy': (i) => `- item *${i}* with [a link](https://x.y/${i} "T")\n- second \`code\` {name}\n  continued line\n  1. nested **${i}**\n  2. [ ] task ${i}\n\n`,
  'blockquote-heavy': (i) => `> Quote ${i} with *emphasis*\n> and a second line\n>\n> > nested ${i} [link](/q)\n> - a list in a quote\n\n`,
  'table-heavy': (i) => `| Name ${i} | *Value* | \`code\` |\n|:---|---:|:-:|\n| row ${i} | [link](/t) | x |\n| | empty first | ![img](i.png) |\n\n`,
};
const shapes: Record<string, string> = {};
for (const [name, unit] of Object.entries(units)) shapes[name] = repeat(6000, unit);
shapes.crlf = Object.values(units)
  .map((unit) => repeat(3000, unit))
  .join('')
  .replace(/\n/g, '\r\n');

describe('markdown: marked path equals the mdast path', () => {
  for (const { name, content } of fixtures('markdown')) {
    it(`${name}: same segments and renders`, () => assertSameAsMdast(content));
  }

  for (const [name, content] of Object.entries(shapes)) {
    it(`${name} document: byte-exact, same segments as mdast, mapped without fallback`, () => {
      assertSameAsMdast(content);
      assert.deepEqual(markdownShape(pseudoRender(docOf(content, 'marked'))), markdownShape(content));
      assert.equal(fallbacks(content), 0);
    });
  }

  it('generated documents (lists, quotes, tables, lazy lines, CRLF, front matter)', () => {
    fc.assert(fc.property(documents, (source) => assertSameAsMdast(source)), propertyRuns(200));
  });
});

describe('markdown: the adapter builds what markdownDrafts describes', () => {
  // The adapter streams segments into the template's DocumentBuilder; markdownDrafts
  // collects the same calls as SegmentDraft objects.
  const same = (source: string) => {
    const built = getAdapter('markdown').extract(source);
    const drafted = new TemplateDocument('markdown', source, markdownDrafts(source));
    assert.deepEqual(built.segments, drafted.segments);
    for (const target of [LTR, RTL]) assert.equal(pseudoRender(built, target), pseudoRender(drafted, target));
    assert.equal(identityRender(built), source);
  };

  it('fixtures and large documents', () => {
    for (const { content } of fixtures('markdown')) same(content);
    for (const content of Object.values(shapes)) same(content);
  });

  it('generated documents', () => {
    fc.assert(fc.property(documents, (source) => same(source)), propertyRuns(100));
  });
});

describe('markdown: marked path fallbacks', () => {
  it('constructs marked reads differently go to mdast, block by block', () => {
    const cases = [
      'A footnote[^1] here.\n\n[^1]: The note.\n',
      '> quoted *line*\nlazy continuation\n',
      'Strike ~one~ and ~~two~~.\n',
      '<span>\ninline html block (kind 7)\n</span>\n',
      '[^n]: A footnote definition.\n',
    ];
    for (const source of cases) {
      assert.ok(fallbacks(source) > 0, `falls back: ${JSON.stringify(source)}`);
      assertSameAsMdast(source);
    }
    assert.equal(fallbacks('Plain *prose* with [a link](/x).\n\n- a\n- b\n'), 0);
    // Read by markdown-inline.ts (micromark's emphasis rules), not by marked: no fallback.
    assert.equal(fallbacks('***strong emphasis*** mix\n'), 0);
    assertSameAsMdast('***strong emphasis*** mix\n');
  });

  it('only the blocks that need it are parsed by mdast (list items one by one)', () => {
    const source = '# Title\n\n- one\n- two[^n]\n- three\n\nText.\n\n[^n]: Note.\n';
    const blocks = markedBlocks(source);
    const fallback = blocks.filter((b) => b.type === 'fallback');
    assert.equal(fallback.length, 2); // the `two[^n]` item and the footnote definition
    assert.ok(fallback.every((b) => 'start' in b && source.slice(b.start, b.end).includes('[^n]')));
    assertSameAsMdast(source);
  });

  it('a footnote definition falls back together with its lazy and indented continuation', () => {
    const cases = [
      '[^1]: Note text.\n\n    indented code\n',
      '[^1]: a\nlazy\n\nnext para\n',
      'x[^1]\n\n[^1]: a\n    b\n\n    - item\n\n  two-indented\n\nafter\n',
      '[^a]: one\n[^b]: two\n\ntext\n',
    ];
    for (const source of cases) assertSameAsMdast(source);
  });

  it('an mdast fallback still resolves references defined elsewhere in the document', () => {
    const body = repeat(5000, (i) => `Para ${i} with a [full][ref] link and a note[^n].\n\n`);
    const source = `${body}[ref]: https://ref.example\n[^n]: A footnote.\n`;
    const doc = docOf(source, 'marked');
    assert.equal(identityRender(doc), source);
    assert.ok(doc.segments.filter((s) => s.text.includes('<g1>full</g1>') && s.text.endsWith('note<x1/>.')).length > 50);
  });
});
