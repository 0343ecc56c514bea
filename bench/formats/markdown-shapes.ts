/**
 * Markdown documents of ~2 MiB made of one construct each (nested lists, task lists,
 * tables, quotes, …): extract + identity render against the bare parse of marked's lexer
 * and commonmark.js on the same input. `run.ts` measures the two documents the targets
 * name (prose-heavy and list-heavy); this shows the constructs that take other paths
 * (marked's own list tokenizer, mdast fallbacks), where even the parsers take longer.
 * Run: npx tsx bench/formats/markdown-shapes.ts [shape ...]   (by hand; never part of npm test)
 */
import { Parser as CommonmarkParser } from 'commonmark';
import { marked } from 'marked';
import { getAdapter } from '../../src/formats/index.js';
import { build, time as bestOf } from './measure.js';

/** Best of 5 after 2 warm-ups (fewer than run.ts: these documents are slow to parse). */
const time = (fn: () => unknown): number => bestOf(fn, 5, 2);

const SHAPES: Record<string, string> = {
  'nested lists': build((i) => `## T ${i}\n\n- item *${i}* with [a link](https://x.y/${i})\n  - nested item \`code\` here\n    - deeper **bold** item\n- back to top\n\n`),
  'ordered list': build((i) => `${i + 1}. Step ${i} does *this* and [that](https://x.y/${i})\n`),
  'loose task lists': build((i) => `- [ ] Task ${i} with *emphasis*\n- [x] Done ${i} with \`code\`\n\n  Loose paragraph under it.\n\n`),
  tables: build((i) => (i % 50 === 0 ? `\n| Name | Value | Note |\n|---|---|---|\n` : `| Row ${i} | *${i}* | a [link](https://x.y/${i}) |\n`)),
  quotes: build((i) => `> Quote ${i} with *emphasis* and a [link](https://x.y/${i}).\n> Second line of it.\n\n`),
  headings: build((i) => `# Heading ${i}\n\nShort paragraph ${i}.\n\n`),
  'fenced code': build((i) => `Text ${i}:\n\n\`\`\`js\nconst x = ${i};\n\`\`\`\n\n`),
};

const adapter = getAdapter('markdown');
const commonmark = new CommonmarkParser();
const only = process.argv.slice(2);
console.log('| document (~2 MiB) | extract + render | segments | marked lexer | commonmark.js | ratio to the faster |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [name, content] of Object.entries(SHAPES)) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o))) continue;
  let segments = 0;
  const ours = time(() => {
    const doc = adapter.extract(content);
    segments = doc.segments.length;
    if (doc.render(doc.segments.map((s) => s.text), { code: 'en', rtl: false }) !== content) throw new Error(`${name}: identity render differs`);
  });
  const markedTime = time(() => marked.lexer(content));
  const commonmarkTime = time(() => commonmark.parse(content));
  const ratio = ours / Math.min(markedTime, commonmarkTime);
  console.log(`| ${name} | ${ours.toFixed(0)} ms | ${segments} | ${markedTime.toFixed(0)} ms | ${commonmarkTime.toFixed(0)} ms | ${ratio.toFixed(1)}× |`);
}
