import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { markdownDrafts } from '../../src/formats/markdown/adapter.js';
import { TemplateDocument } from '../../src/formats/core/document.js';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
const docOf = (s: string, parser: 'mdast' | 'marked') => new TemplateDocument('markdown', s, markdownDrafts(s, { parser }));
const pseudo = (d: TemplateDocument) => d.render(new Map(d.segments.map((x) => [x.id, pseudoTranslate(x.text, false)])), { code: 'fr', rtl: false });
const ident = (d: TemplateDocument) => d.render(new Map(d.segments.map((x) => [x.id, x.text])), { code: 'fr', rtl: false });
let fails = 0;
export function compare(name: string, s: string, quiet = false): boolean {
  const a = docOf(s, 'mdast');
  const b = docOf(s, 'marked');
  const ok = JSON.stringify(a.segments) === JSON.stringify(b.segments) && pseudo(a) === pseudo(b) && ident(b) === s;
  if (!ok && !quiet) {
    fails++;
    console.log('=== DIFF', name, JSON.stringify(s.slice(0, 300)));
    const n = Math.max(a.segments.length, b.segments.length);
    let shown = 0;
    for (let i = 0; i < n && shown < 3; i++) {
      const x = JSON.stringify(a.segments[i]); const y = JSON.stringify(b.segments[i]);
      if (x !== y) { console.log('  mdast ', x, '\n  marked', y); shown++; }
    }
    if (ident(b) !== s) console.log('  IDENTITY BROKEN');
  }
  return ok;
}
const dir = '/work/main/test/fixtures/formats/markdown';
for (const f of readdirSync(dir)) compare(f, readFileSync(dir + '/' + f, 'utf8'));
// property docs (same generator as the round-trip test)
const word = fc.constantFrom('Hello', 'world', 'café', 'naïve', 'Save', 'the', 'a', '42', "don't", '日本語', 'Привет', 'x_y', 'foo-bar');
const placeholder = fc.constantFrom('{name}', '{n, number}', '{{x}}', '{{{raw}}}', '%s', '%1$s', '%{x}', '${x}', '$t(key)', 'https://ex.com/a?b=1', 'me@ex.com', '<g1>', '<x2/>', '{c, plural, one {# item} other {# items}}');
const inlineText = fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: placeholder }), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
const punct = fc.constantFrom('.', ',', '!', '?', ':', ';', '(', ')', '"', "'", '&', '<', '>', '*', '_', '`', '#', '|', '\\', '[', ']', '-', '+');
const space = fc.constantFrom(' ', '  ', '\t', '\n', '\n\n', '\r\n', '\n   ', '\n\n\n');
const piece = fc.oneof({ weight: 5, arbitrary: word }, { weight: 1, arbitrary: placeholder }, { weight: 2, arbitrary: punct }, { weight: 3, arbitrary: space });
const inline = fc.array(fc.oneof(
  { weight: 4, arbitrary: inlineText },
  { weight: 1, arbitrary: inlineText.map((t) => `*${t}*`) },
  { weight: 1, arbitrary: inlineText.map((t) => `**${t}**`) },
  { weight: 1, arbitrary: inlineText.map((t) => `[${t}](https://ex.com/${t.length} "T ${t}")`) },
  { weight: 1, arbitrary: inlineText.map((t) => `![${t}](i.png)`) },
  { weight: 1, arbitrary: fc.constantFrom('`code`', '<b>bold</b>', '~~del~~', '\\*', '&amp;', 'x  \ny', '[ref]', '[^1]', '[t][ref]', '![a][ref]', '<https://a.b/c>', 'www.ex.com/x.', '_u_', '__s__') },
), { minLength: 1, maxLength: 5 }).map((p) => p.join(' '));
const block = fc.oneof(
  inline, inline.map((t) => `## ${t}`), inline.map((t) => `- ${t}\n- ${t}\n  - nested ${t}`), inline.map((t) => `1. ${t}\n2. [ ] ${t}`),
  inline.map((t) => `> ${t}\n> more ${t}`), inline.map((t) => `| h | ${t} |\n|---|:-:|\n| ${t} | c |`),
  inline.map((t) => `- ${t}\n\n  ${t}\n\n  > q ${t}\n\n  \`\`\`\n  code\n  \`\`\``), inline.map((t) => `${t}\n===`), inline.map((t) => `> - ${t}\n>   ${t}\n> 1. ${t}`),
  inline.map((t) => `- ${t}  \nlazy ${t}\n- b\nlazy2`), inline.map((t) => `> ${t}\nlazy ${t}\n> x`), inline.map((t) => `   ${t}  \n    ${t}\\\n${t}`),
  inline.map((t) => `- | a | b |\n  |---|---|\n  | ${t} | x |`),
  fc.constantFrom('```js\nconst a = "x";\n```', '    indented code', '<div>\n<p>Html <b>block</b></p>\n</div>', '***', '[ref]: https://ref.example "R"', '[^1]: Note text.', '<!-- c -->', '<span>x</span>'),
);
const eol = fc.constantFrom('\n', '\r\n');
const doc = fc.tuple(fc.array(block, { minLength: 1, maxLength: 8 }), eol, fc.boolean()).map(([blocks, nl, front]) => ((front ? '---\ntitle: x\n---\n\n' : '') + blocks.join('\n\n') + '\n').replace(/\n/g, nl));
const N = Number(process.env.N ?? 300);
const samples = fc.sample(doc, { numRuns: N, seed: Number(process.env.SEED ?? 1) });
let bad = 0;
for (const [i, s] of samples.entries()) if (!compare(`prop${i}`, s, bad >= 8)) bad++;
const textOf = fc.array(piece, { maxLength: 60 }).map((p) => p.join(''));
let bad2 = 0;
for (const [i, s] of fc.sample(textOf, { numRuns: N, seed: 2 }).entries()) if (!compare(`text${i}`, s, bad2 >= 5)) bad2++;
console.log('fixtures+props: prop diffs', bad, '/', N, 'text diffs', bad2, '/', N);
