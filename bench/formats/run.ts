/**
 * Extract + identity render of a generated ~2 MiB document per format, against the bare
 * parse time of the fastest parser library for the format on the same input (the
 * ratio's denominator, marked *): htmlparser2 (parse5 shown), jsonc-parser `visit`
 * (JSON.parse shown, but it gives no offsets, so no template can be built on it), and
 * for markdown whichever of marked's lexer, commonmark.js and markdown-it is fastest in
 * this run. Plain text has no parser library: its reference is a paragraph split plus
 * one placeholder regex pass, the least any masking must do.
 * Run: npx tsx bench/formats/run.ts [format ...]   (by hand; never part of npm test)
 */
import { Parser } from 'htmlparser2';
import { visit } from 'jsonc-parser';
import { marked } from 'marked';
import { Parser as CommonmarkParser } from 'commonmark';
import MarkdownIt from 'markdown-it';
import { parse as parse5 } from 'parse5';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfm } from 'micromark-extension-gfm';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { getAdapter } from '../../src/formats/index.js';
import type { Format } from '../../src/formats/format.js';
import { pathToFileURL } from 'node:url';
import { build, time } from './measure.js';

const prose = (i: number) =>
  `Paragraph ${i} explains how the service keeps your *documents* intact, with a [link](https://example.com/p/${i}) and \`code\`.\nIt wraps onto a second line with **strong** words and a {name} placeholder.\n\n`;

interface Case {
  readonly name: string;
  readonly format: Format;
  readonly content: string;
  readonly parsers: Record<string, (s: string) => unknown>;
  /** The ratio's denominator: one parser by name, or the fastest of `parsers` in this run. */
  readonly baseline: string | 'fastest';
}

/** One pass of a placeholder-sized regex: the least any plain-text masking must do. */
const PLACEHOLDER_PASS = /\{[^{}]*\}|%[sd]|https?:\/\/\S+/g;

const commonmark = new CommonmarkParser();
const markdownIt = new MarkdownIt();
const MARKDOWN_PARSERS: Record<string, (s: string) => unknown> = {
  'marked lexer': (s) => marked.lexer(s),
  'commonmark.js': (s) => commonmark.parse(s),
  'markdown-it': (s) => markdownIt.parse(s, {}),
};

export const cases: Case[] = [
  {
    name: 'plain',
    format: 'plain',
    content: build((i) => `Dear customer ${i}, thank you for your order.\nIt ships on %s from {warehouse}.\n\n`),
    parsers: {
      'split on blank lines': (s) => s.split(/\n[ \t]*\n/),
      'split + one placeholder regex pass': (s) => [s.split(/\n[ \t]*\n/), s.match(PLACEHOLDER_PASS)],
    },
    baseline: 'split + one placeholder regex pass',
  },
  {
    name: 'markdown (prose)',
    format: 'markdown',
    content: build((i) => (i % 10 === 0 ? `## Section ${i}\n\n` : prose(i))),
    parsers: MARKDOWN_PARSERS,
    baseline: 'fastest',
  },
  {
    name: 'markdown (list-heavy)',
    format: 'markdown',
    content: build((i) => `## T ${i}\n\n- item *${i}* with [a link](https://x.y/${i})\n- second item \`code\`\n\n`),
    parsers: MARKDOWN_PARSERS,
    baseline: 'fastest',
  },
  {
    name: 'json',
    format: 'json',
    content: build(
      (i) => `${i === 0 ? '' : ',\n'}  "key_${i}": {"title": "Welcome back, {name}!", "count": "You have {n, plural, one {# item} other {# items}}", "id": "item_${i}", "n": ${i}}`,
      '{\n',
      '\n}\n',
    ),
    parsers: { 'JSON.parse': (s) => JSON.parse(s), 'jsonc-parser visit': (s) => visit(s, {}) },
    baseline: 'jsonc-parser visit',
  },
  {
    name: 'html',
    format: 'html',
    content: build(
      (i) => `<section><h2>Title ${i}</h2><p>Click <a href="/x/${i}" title="Go there">here</a> now &amp; <b>save</b> <img src="i.png" alt="A cat">.</p><pre>code ${i}</pre></section>\n`,
      '<!DOCTYPE html><html lang="en"><body>\n',
      '</body></html>\n',
    ),
    parsers: { htmlparser2: (s) => new Parser({}).end(s), parse5: (s) => parse5(s, { sourceCodeLocationInfo: true }) },
    baseline: 'htmlparser2',
  },
];

// Measured only when run, not when compare.ts imports the documents.
if (import.meta.url === pathToFileURL(process.argv[1]!).href) main();

function main(): void {
  const only = process.argv.slice(2);
  console.log('| document | size | extract + render | segments | bare parses (baseline *) | ratio to baseline | peak RSS |');
  console.log('|---|---:|---:|---:|---|---:|---:|');
  for (const c of cases) {
    if (only.length > 0 && !only.some((o) => c.name.startsWith(o))) continue;
    const adapter = getAdapter(c.format);
    let segments = 0;
    const runs = 10;
    const total = time(() => {
      const doc = adapter.extract(c.content);
      segments = doc.segments.length;
      // The identity engine's answer as the service hands it to render: aligned by index.
      const out = doc.render(doc.segments.map((s) => s.text), { code: 'en', rtl: false });
      if (out !== c.content) throw new Error(`${c.name}: identity render differs`);
    }, runs);
    const parses = Object.entries(c.parsers).map(([name, parse]) => [name, time(() => parse(c.content), runs)] as const);
    if (c.format === 'markdown') {
      // The parser the adapter really uses, for reference (whole input at once is quadratic on lists).
      const sample = c.content.slice(0, 64 * 1024);
      const mdast = time(() => fromMarkdown(sample, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }), 1);
      parses.push([`mdast (64 KiB slice, ×${(c.content.length / sample.length).toFixed(0)} extrapolated)`, (mdast * c.content.length) / sample.length]);
    }
    const candidates = c.baseline === 'fastest' ? parses.filter(([name]) => name in c.parsers) : parses.filter(([name]) => name === c.baseline);
    const baseline = candidates.reduce((best, entry) => (entry[1] < best[1] ? entry : best));
    const rss = process.resourceUsage().maxRSS / 1024; // peak so far, in MiB
    console.log(
      `| ${c.name} | ${(c.content.length / 1024 / 1024).toFixed(2)} MiB | ${total.toFixed(0)} ms | ${segments} | ${parses.map(([n, t]) => `${n === baseline[0] ? '*' : ''}${n} ${t.toFixed(0)} ms`).join('; ')} | ${(total / baseline[1]).toFixed(1)}× | ${rss.toFixed(0)} MiB |`,
    );
  }
}
