/**
 * markdown-inline.ts reads inline content exactly as mdast does, or declines (null).
 * Random inline text is parsed by both; whenever the reader answers, its nodes (types,
 * offsets, nesting, link titles) must equal mdast's. Then the same through the whole
 * marked path: documents whose blocks it reads must equal the mdast path.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Nodes } from 'mdast';
import { scanInline } from '../../src/formats/markdown/inline.js';
import type { ScanNode } from '../../src/formats/markdown/nodes.js';
import { markdownDrafts, mdastTree } from '../../src/formats/markdown/adapter.js';
import { markedBlocks } from '../helpers/markdown-blocks.js';
import { TemplateDocument } from '../../src/formats/core/document.js';
import { identityRender, LTR, pseudoRender, RTL } from './helpers.js';
import { propertyRuns } from '../helpers/property-runs.js';

interface Shape {
  type: string;
  start: number;
  end: number;
  children?: Shape[];
  title?: boolean;
  full?: boolean;
  value?: string;
}

/** mdast's phrasing nodes as shapes, or null when it holds a node the reader never makes. */
function mdastShapes(nodes: readonly Nodes[], source: string): Shape[] | null {
  const out: Shape[] = [];
  for (const node of nodes) {
    if (!node.position) return null;
    const shape: Shape = { type: node.type, start: node.position.start.offset!, end: node.position.end.offset! };
    if (node.type === 'link' && source[shape.start] !== '[') {
      // A literal autolink (an atom in segments).
      out.push({ ...shape, type: 'autolink' });
      continue;
    }
    switch (node.type) {
      case 'text':
      case 'inlineCode':
      case 'break':
        break;
      case 'html':
        shape.value = htmlValue(node.value);
        break;
      case 'emphasis':
      case 'strong':
      case 'link': {
        const children = mdastShapes(node.children, source);
        if (!children) return null;
        shape.children = children;
        if (node.type === 'link') shape.title = Boolean(node.title);
        break;
      }
      case 'image':
        shape.children = [];
        shape.title = Boolean(node.title);
        break;
      case 'linkReference': {
        const children = mdastShapes(node.children, source);
        if (!children) return null;
        shape.children = children;
        shape.full = node.referenceType === 'full';
        break;
      }
      case 'imageReference':
        shape.children = [];
        shape.full = node.referenceType === 'full';
        break;
      default:
        return null;
    }
    out.push(shape);
  }
  return out;
}

/**
 * An inline html node's value with each line's leading blanks dropped: micromark turns a
 * tab that starts a continuation line into spaces (`<b  \n\t>` is `<b  \n >` in mdast),
 * the reader keeps the source's bytes. The adapter reads only the tag name and `\s`-separated
 * attributes from the value, and renders the source by offsets, so the two are equivalent.
 */
function htmlValue(value: string): string {
  return value.replace(/\n[ \t]*/g, '\n');
}

/** The reader's nodes as shapes, edge whitespace trimmed as the marked path does. */
function scanShapes(nodes: ScanNode[], text: string): Shape[] {
  const space = (c: number) => c === 32 || c === 9 || c === 10;
  const shape = (n: ScanNode): Shape => ({
    type: n.type,
    start: n.start,
    end: n.end,
    ...(n.children && n.type !== 'autolink' ? { children: n.children.map(shape) } : {}),
    ...(n.type === 'html' ? { value: htmlValue(n.value!) } : {}),
    ...(n.type === 'linkReference' || n.type === 'imageReference' ? { full: Boolean(n.full) } : {}),
    ...(n.type === 'link' || n.type === 'image' ? { title: Boolean(n.title) } : {}),
  });
  const out = nodes.map(shape);
  while (out[0]?.type === 'text') {
    while (out[0].start < out[0].end && space(text.charCodeAt(out[0].start))) out[0].start++;
    if (out[0].start < out[0].end) break;
    out.shift();
  }
  while (out.at(-1)?.type === 'text') {
    const last = out.at(-1)!;
    while (last.end > last.start && space(text.charCodeAt(last.end - 1))) last.end--;
    if (last.end > last.start) break;
    out.pop();
  }
  return out;
}

/** Definitions appended to the documents of `compare(source, true)`. */
const DEFINITIONS = '\n\n[ref]: https://r.example "R"\n[x  Y]: /v\n';
const LABELS = new Set(['REF', 'X Y']);

/**
 * Compares on `source` when mdast reads it as one paragraph (with `definitions`, the
 * document also defines `ref` and `x y`); returns whether the reader answered.
 */
function compare(source: string, definitions = false): boolean {
  const tree = mdastTree(definitions ? source + DEFINITIONS : source);
  const paragraph = tree.children[0];
  if (tree.children.length !== (definitions ? 3 : 1) || paragraph?.type !== 'paragraph' || paragraph.position?.start.offset !== 0) return false;
  if (definitions && !tree.children.slice(1).every((node) => node.type === 'definition')) return false;
  const text = source.slice(0, paragraph.position.end.offset);
  if (definitions && text.length !== source.trimEnd().length) return false;
  const nodes = scanInline(text, 0, definitions ? LABELS : false);
  if (!nodes) return false;
  assert.deepEqual(scanShapes(nodes, text), mdastShapes(paragraph.children, source), JSON.stringify(text));
  return true;
}

const piece = fc.constantFrom(
  'a', 'b', 'word', ' ', ' ', '  ', '\t', '\n', '\n  ', '  \n', '*', '*', '**', '***', '_', '_', '__', '___', 'x_y',
  '[', '[', ']', ']', '![', '(', ')', '](u)', '](u "t")', "](u 't')", '](u (t))', '](<a b>)', '](u\n"t")',
  '](u"t")', '](a(b)c)', '](\\))', '[]', '`', '``', '\\', '\\*', '\\[', '\\`', '&amp;', '&#42;', '"', "'", '.',
  ',', '!', '#', '-', ':', '/', 'é', '日', '\u00a0', '—', '>', '{name}',
  'a@b.co', 'x.y+z@e-x.com.', 'npm@1.2.3', '@', ' me@ex.com ', '_u@v.io_', '/p@q.de', '\\@', '&#64;', 'mailto:',
  'www.x.com', 'https://a.b/c', 'http://x.y.', 'Www.a_b.c', '(www.x.com)', 'https://a.b/c?d=(e)', 'www.a.b&amp;', 'xhttps://a.b',
  '<b>', '</b>', '<br/>', '<a href="x">', "<a b='c' d=e>", '<!-- c -->', '<!-->', '<https://a.b>', '<me@ex.com>', '<?x?>',
  '<!X y>', '<![CDATA[x]]>', '<', '< b>', '<b', '<a\nb="c">', '</a >', '<x:y>',
);
const inline = fc.array(piece, { minLength: 1, maxLength: 24 }).map((p) => p.join(''));

describe('markdown inline reader', () => {
  it('reads random inline text exactly as mdast, or declines', () => {
    let answered = 0;
    fc.assert(
      fc.property(inline, (source) => {
        if (compare(source)) answered++;
      }),
      propertyRuns(3000),
    );
    assert.ok(answered > 1200, `answered ${answered} of 3000`);
  });

  it('reads reference links and images exactly as mdast, given the definition labels', () => {
    const references = fc.constantFrom('[ref]', '[t][ref]', '[Ref][]', '[ REF ]', '[x][]', '[x y]', '[a][x  y]', '![ref]', '![i][ref]', '[ref][', '[ref][x]', '[t][]', '[[ref]]', '[a [ref] b](u)', '[ref](u)');
    const withReferences = fc.array(fc.oneof({ weight: 3, arbitrary: piece }, { weight: 1, arbitrary: references }), { minLength: 1, maxLength: 24 }).map((p) => p.join(''));
    let answered = 0;
    fc.assert(
      fc.property(withReferences, (source) => {
        if (compare(source, true)) answered++;
      }),
      propertyRuns(2000),
    );
    assert.ok(answered > 600, `answered ${answered} of 2000`);
    for (const source of ['See [ref], [t][ref], [Ref][] and ![i][ref]; not [nope] or [ref][nope].', '[a [ref] b](u) and [[ref]]']) {
      assert.ok(compare(source, true), source);
    }
  });

  it('known cases: emphasis, links, code spans, breaks, line prefixes', () => {
    const cases = [
      '***strong emphasis*** mix',
      '___a___ and *a **b** c* and **a *b* c**',
      '*a **b*** and ***a* b**',
      'foo*bar* and foo_bar_ and _foo_bar',
      '[a *b* `c`](/u "T") and ![alt *x*](i.png \'t\')',
      '[a [b](c) d](e) and [![img](i)](l)',
      '[not a link] and [a](<b c>) and [a](b(c)d)',
      '`code ] [` and ``a ` b`` and `unclosed',
      'line one  \n   line two\nline *three*  \n**four**',
      '*a*\n  b and [x\n](u) and [\n y](u)',
      '\\*not\\* and \\[not\\](x) and &#42;not&#42;',
      'a [link](u\n  "multi\n  line") b',
      'mail me@ex.com, x.y+z@e-x.com. and _u@v.com',
      // an e-mail whose local part holds `_` at the start of an indented line: the text
      // before it ends at the line break (the indentation is no one's), as in mdast
      'a\n  x_ya@b.coa and\n\tu_v@w.io',
      'bump npm@5.2.0. and deps: mime-db@1.52.0',
      // e-mails micromark leaves as text (mdast-util-gfm-autolink-literal's later pass, which
      // made links without offsets of them, is not part of the reading).
      '_x u@v.io_ and *me@ex.com* and [a me@ex.com](u)',
      'me\\@ex.com and me&#64;ex.com and \\_x@y.com and \\\\_x@y.com',
      'visit www.ex.com/a_b. or (https://ex.com/x?y=(1)), not xhttps://a.b or awww.x.com',
      'see https://a.b](u). and *https://x.y/z* and _www.x.com_',
      'html <b>x</b>, <a href="u" title=\'t\'>y</a>, <br/>, <!-- c --> and <!-->, <?p?>, <!D x>, <![CDATA[ ]]]>',
      'auto <https://a.b> and <me@ex.com>, not < b> or <a@b> or <x y="z>',
      '<a\nhref="x">multi-line tag</a>',
    ];
    for (const source of cases) assert.ok(compare(source), `answered: ${JSON.stringify(source)}`);
  });

  it('declines what it does not implement', () => {
    const declined = [
      'strike ~~x~~',
      'note[^1]',
      'hard\\\nbreak',
      '[ ] looks like a task',
      // micromark tries an e-mail before a www. autolink here: not modelled.
      'write www.x@y.com',
    ];
    for (const source of declined) assert.equal(scanInline(source, 0, false), null, JSON.stringify(source));
    // When the document's definition labels are not known, a bracket pair that is not an
    // inline link may be a reference.
    assert.equal(scanInline('a [ref] b', 0, true), null);
    assert.ok(scanInline('a [ref] b', 0, false));
    assert.ok(scanInline('a [text](u) b', 0, true));
    assert.deepEqual(scanInline('a [ref] b', 0, new Set(['REF']))?.map((n) => n.type), ['text', 'linkReference', 'text']);
    // Literal autolinks are nodes (atoms), except inside code spans and link destinations.
    assert.deepEqual(
      scanInline('a me@ex.com b', 0, false)?.map((n) => n.type),
      ['text', 'autolink', 'text'],
    );
    assert.deepEqual(
      scanInline('`me@ex.com` and [x](https://ex.com/a@b)', 0, false)?.map((n) => n.type),
      ['inlineCode', 'text', 'link'],
    );
  });
});

describe('markdown inline reader on hostile input', () => {
  // One 256 KiB paragraph each; quadratic work here once took 2-18 s (the budget makes
  // the reader decline instead, and marked's inline lexer reads the block).
  const repeat = (unit: (i: number) => string) => {
    const parts: string[] = [];
    for (let i = 0, size = 0; size < 256 * 1024; i++) size += parts[parts.push(unit(i)) - 1]!.length;
    return parts.join('');
  };
  const cases: Record<string, string> = {
    'unmatched closers': repeat((i) => `a${i}_ *b `),
    'many pairs': repeat((i) => `*a${i}* `),
    'open brackets, then links': repeat((i) => (i % 2 ? '[' : '![')) + repeat((i) => `[a${i}](u) `),
    'backtick runs of many lengths': repeat((i) => '`'.repeat(1 + (i % 50)) + ' x '),
  };
  for (const [name, source] of Object.entries(cases)) {
    it(`stays linear: ${name}`, () => {
      const before = process.cpuUsage();
      scanInline(source, 0, false);
      const used = process.cpuUsage(before);
      assert.ok(used.user + used.system < 2_000_000, `${name}: ${((used.user + used.system) / 1000).toFixed(0)} ms`);
    });
  }
});

describe('markdown inline reader in the marked path', () => {
  const docOf = (source: string, parser: 'mdast' | 'marked') => new TemplateDocument('markdown', source, markdownDrafts(source, { parser }));
  const fallbacks = (source: string) => markedBlocks(source).filter((b) => b.type === 'fallback').length;

  it('blocks with emphasis runs of three, nested links and breaks need no fallback and equal mdast', () => {
    const source = [
      '# A ***title*** with `code`',
      '***strong emphasis*** mix and ___other___ one.',
      '- item [a *b* `c`](/u "T")  \n  second line with ![img](i.png)',
      '> quoted [a [b](c) d](e)\n> and **bold**',
      // (A cell that starts `[x]` looks like a task box to the reader and goes to mdast.)
      '| h | *c* |\n|---|---|\n| [link](y) | ***z*** |',
      '1. [ ] task with *emphasis*\n2. [x] done',
      'Text with [not a link] and a{name} placeholder.',
    ].join('\n\n');
    assert.equal(fallbacks(source), 0);
    const reference = docOf(source, 'mdast');
    const fast = docOf(source, 'marked');
    assert.equal(identityRender(fast), source);
    assert.deepEqual(fast.segments, reference.segments);
    for (const target of [LTR, RTL]) assert.equal(pseudoRender(fast, target), pseudoRender(reference, target));
  });

  it('reference links are read against the definitions the document holds', () => {
    const body = '# Use\n\nSee [the guide][guide], [Guide][] and [guide]; not [other] or [guide][other].\n\n- [x] task [guide]\n- item ![logo][img]\n\n```\n[code]: not a definition\nconst o = { [key]: 1 };\n```\n\n[guide]: https://g.example "G"\n[img]: i.png\n';
    assert.equal(fallbacks(body), 0);
    // A definition in a block quote is not one of marked's top-level ones: labels unknown,
    // every bracket block goes the slow way, with the same result.
    for (const source of [body, `${body}\n> [quoted]: https://q.example\n\nAnd [quoted].\n`]) {
      const reference = docOf(source, 'mdast');
      const fast = docOf(source, 'marked');
      assert.equal(identityRender(fast), source);
      assert.deepEqual(fast.segments, reference.segments);
      for (const target of [LTR, RTL]) assert.equal(pseudoRender(fast, target), pseudoRender(reference, target));
    }
  });

  it('a block the reader declines is read by mdast, same result', () => {
    const source = 'Mail <me@ex.com>, see www.ex.com and https://ex.com.\n\n[ref] and [t][ref]\n\n[ref]: https://r.example\n';
    const reference = docOf(source, 'mdast');
    const fast = docOf(source, 'marked');
    assert.equal(identityRender(fast), source);
    assert.deepEqual(fast.segments, reference.segments);
  });
});
