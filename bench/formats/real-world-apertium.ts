/**
 * Structure under a real translation: the documents of the real-world bench
 * (real-world.ts: markdown, JSON and HTML files nobody on the team wrote) translated
 * en→es by the `apertium` engine through the service's own path (prepare, plan, engine,
 * answer checks, render), and each answer judged against its SOURCE — never against
 * Apertium's raw output:
 *  - markdown: the node tree minus text is the source's, with every URL and every code
 *    span and block as it was;
 *  - JSON: the answer parses; the same keys, types and non-string values; every string
 *    keeps the source's placeholders and URLs;
 *  - HTML: the same tags with the same attributes (translatable ones masked), and the
 *    text of every `<code>`/`<pre>` as it was.
 * A translation may put a sentence's inline elements in another order (`<a>string</a> |
 * <a>symbol</a>` came back `<a>Símbolo</a> | <a>de serie</a>`, each link on its own word):
 * "intact" is every element with the same attributes inside the same ancestors, and the
 * block elements in the source's order; the table also counts the answers whose inline
 * elements kept the source's very order.
 * Apertium reorders words and moves tags, which the pseudo engine never does: this is
 * the test the structure promise lacked. Target: 100% per format.
 *
 *   npx tsx bench/formats/real-world-apertium.ts [dir ...] [--limit N] [--show N] [--format F] [--files a,b]
 *
 * `--limit N` takes N files per format, spread evenly over the sorted list (Apertium
 * translates a few thousand words a second; the whole of node_modules takes long).
 * `--files a,b` judges only those files (paths, comma-separated; their format from the
 * extension), to check a fix on the files that failed without running the whole set.
 * Default dirs: node_modules and /usr/share/doc. Needs apertium and apertium-eng-spa.
 */
import { Tokenizer } from '../../src/tokens.js';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createApertiumEngine } from '../../src/engines/apertium/create.js';
import type { Format } from '../../src/formats/format.js';
import { findLanguage } from '../../src/languages.js';
import { prepareDocument, translatePrepared } from '../../src/translation/translate-document.js';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { htmlShape } from '../../test/formats/structure.js';

const FORMAT_BY_EXTENSION: Record<string, Format> = { '.md': 'markdown', '.markdown': 'markdown', '.json': 'json', '.html': 'html', '.htm': 'html' };
const MAX_BYTES = 1024 * 1024;

function* walk(dir: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile() && FORMAT_BY_EXTENSION[extname(entry.name).toLowerCase()]) yield path;
  }
}

const PLACEHOLDER = /\{\{[^{}]*\}\}|\{[A-Za-z0-9_.]+\}|%[sd]|%\([a-z_]+\)s|\$\{[^}]*\}|https?:\/\/[^\s"'<>)]+/g;

/** A JSON value with every string reduced to its placeholders and URLs. */
function jsonShape(source: string): unknown {
  return JSON.parse(source, (_key, value: unknown) => (typeof value === 'string' ? (value.match(PLACEHOLDER) ?? []).sort() : value));
}

/** The texts of every `<code>` and `<pre>`, sorted (a sentence may put its code spans in another order). */
function codeTexts(html: string): string[] {
  return [...html.matchAll(/<(code|pre)\b[^>]*>([\s\S]*?)<\/\1>/gi)].map((m) => m[2]!).sort();
}

const INLINE_HTML = new Set('a abbr b bdi bdo cite code data dfn em i kbd mark q s samp small span strong sub sup time u var img br wbr ins del'.split(' '));
const INLINE_MARKDOWN = new Set(['emphasis', 'strong', 'delete', 'link', 'linkReference', 'image', 'imageReference', 'inlineCode', 'break', 'footnoteReference', 'html']);

interface Shape {
  /** Every element with its ancestors, sorted: what must be the same whatever the order. */
  readonly paths: string[];
  /** The block elements in order: what must not move. */
  readonly blocks: string[];
  /** Every element in order: the source's very order. */
  readonly sequence: string[];
}

/** htmlShape's open and close entries as paths, blocks and sequence. */
function htmlTree(source: string): Shape {
  const paths: string[] = [];
  const blocks: string[] = [];
  const sequence: string[] = [];
  const stack: string[] = [];
  for (const entry of htmlShape(source, { ignoreDir: true })) {
    if (entry.startsWith('</')) {
      stack.pop();
      continue;
    }
    if (entry.startsWith('<!--')) continue;
    const name = /^<([^\s>]+)/.exec(entry)![1]!;
    paths.push(`${stack.join(' > ')} > ${entry}`);
    sequence.push(entry);
    if (!INLINE_HTML.has(name)) blocks.push(entry);
    stack.push(entry);
  }
  return { paths: paths.sort(), blocks, sequence };
}

interface MdNode {
  type: string;
  url?: string;
  value?: string;
  depth?: number;
  ordered?: boolean | null;
  checked?: boolean | null;
  children?: MdNode[];
}

/** The markdown node tree minus text (URLs, code, heading depth, list kinds kept) as paths, blocks and sequence. */
function markdownTree(source: string): Shape {
  const tree = fromMarkdown(source, {
    extensions: [gfm(), frontmatter(['yaml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
  }) as unknown as MdNode;
  const paths: string[] = [];
  const blocks: string[] = [];
  const sequence: string[] = [];
  const walkNode = (node: MdNode, ancestors: string): void => {
    let entry = node.type;
    if (node.type !== 'text') {
      if (node.url !== undefined) entry += ` ${node.url}`;
      if (node.type === 'code' || node.type === 'inlineCode' || node.type === 'yaml') entry += ` ${node.value}`;
      if (node.depth !== undefined) entry += ` ${node.depth}`;
      if (node.ordered !== undefined) entry += ` ordered=${node.ordered}`;
      if (node.checked !== undefined && node.checked !== null) entry += ` checked=${node.checked}`;
      if (node.type === 'html') {
        // Raw HTML in markdown is judged as the html judge judges a document: its tags and
        // attributes (translatable ones masked), not its text; its block elements in order,
        // every element inside the same ancestors, inline elements free to change order
        // (`<a>Website</a> • <a>Documentation</a>` may come back `<a>Documentación</a> • <a>Sitio web</a>`).
        const html = htmlTree(node.value ?? '');
        const at = `${ancestors} > ${entry} ${html.blocks.join('')}`;
        paths.push(at, ...html.paths.map((path) => `${at}${path}`));
        sequence.push(`${entry} ${html.sequence.join('')}`);
      } else {
        paths.push(`${ancestors} > ${entry}`);
        sequence.push(entry);
      }
      if (!INLINE_MARKDOWN.has(node.type)) blocks.push(entry);
    }
    for (const child of node.children ?? []) walkNode(child, `${ancestors} > ${entry}`);
  };
  walkNode(tree, '');
  return { paths: paths.sort(), blocks, sequence };
}

/** Undefined when intact; `reordered` when intact with inline elements in another order. */
function structureProblem(format: Format, source: string, output: string): string | 'reordered' | undefined {
  if (format === 'json') {
    let shape: unknown;
    try {
      shape = jsonShape(output);
    } catch (error) {
      return `answer is not JSON: ${(error as Error).message}`;
    }
    return isDeepStrictEqual(shape, jsonShape(source)) ? undefined : 'JSON structure, a non-string value, a placeholder or a URL changed';
  }
  const [a, b] = format === 'markdown' ? [markdownTree(source), markdownTree(output)] : [htmlTree(source), htmlTree(output)];
  if (!isDeepStrictEqual(a.blocks, b.blocks)) return `block elements changed: ${firstDifference(a.blocks, b.blocks)}`;
  if (!isDeepStrictEqual(a.paths, b.paths)) return `an element, its attributes or its ancestors changed: ${multisetDifference(a.paths, b.paths)}`;
  if (format === 'html' && !isDeepStrictEqual(codeTexts(source), codeTexts(output))) {
    return `the text of a <code> or <pre> changed: ${firstDifference(codeTexts(source), codeTexts(output))}`;
  }
  return isDeepStrictEqual(a.sequence, b.sequence) ? undefined : 'reordered';
}

function firstDifference(a: readonly string[], b: readonly string[]): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at node ${i}: source ${JSON.stringify(a[i])}, answer ${JSON.stringify(b[i])}`;
}

/** What one sorted list has that the other has not, a few of each. */
function multisetDifference(source: readonly string[], answer: readonly string[]): string {
  const left = new Map<string, number>();
  for (const item of source) left.set(item, (left.get(item) ?? 0) + 1);
  const extra: string[] = [];
  for (const item of answer) {
    const n = left.get(item) ?? 0;
    if (n > 0) left.set(item, n - 1);
    else extra.push(item);
  }
  const missing = [...left].flatMap(([item, n]) => Array<string>(n).fill(item));
  return `missing ${JSON.stringify(missing.slice(0, 3))}, extra ${JSON.stringify(extra.slice(0, 3))}`;
}

function spread<T>(items: readonly T[], limit: number): T[] {
  if (items.length <= limit) return [...items];
  return Array.from({ length: limit }, (_, i) => items[Math.floor((i * items.length) / limit)]!);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let limit = Infinity;
  let show = 20;
  let onlyFormat: string | undefined;
  const roots: string[] = [];
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--limit') limit = Number(args[++i]);
    else if (args[i] === '--show') show = Number(args[++i]);
    else if (args[i] === '--format') onlyFormat = args[++i];
    else if (args[i] === '--files') named.push(...args[++i]!.split(',').filter((file) => file !== ''));
    else roots.push(args[i]!);
  }
  const dirs = roots.length > 0 ? roots : [join(import.meta.dirname, '..', '..', 'node_modules'), '/usr/share/doc'];
  const byFormat = new Map<Format, string[]>();
  const candidates = named.length > 0 ? named : dirs.flatMap((dir) => [...walk(dir)]);
  for (const file of candidates) {
    const size = statSync(file).size;
    if (size === 0 || size > MAX_BYTES) continue;
    const format = FORMAT_BY_EXTENSION[extname(file).toLowerCase()];
    if (!format) throw new Error(`${file}: not a markdown, JSON or HTML file`);
    if (onlyFormat && format !== onlyFormat) continue;
    byFormat.set(format, [...(byFormat.get(format) ?? []), file]);
  }

  const config = loadConfig({ MODEL_STANDARD: 'apertium', ENGINE_CONCURRENCY: process.env.ENGINE_CONCURRENCY ?? '2' });
  const tokenizer = new Tokenizer();
  const engine = createApertiumEngine(config, { maxInputTokens: config.maxInputTokensPerCall, maxOutputTokens: config.maxOutputTokensPerCall }, tokenizer);
  const en = findLanguage('en')!;
  const es = findLanguage('es')!;
  const failures: string[] = [];
  console.log('| format | files | rejected as invalid | answered | structure intact | of which inline elements reordered | engine refused (translation_error) | segments | s |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [format, files] of byFormat) {
    let rejected = 0;
    let answered = 0;
    let intact = 0;
    let reordered = 0;
    let refused = 0;
    let segments = 0;
    const started = performance.now();
    for (const file of spread(files, limit)) {
      const content = readFileSync(file, 'utf8');
      const name = relative(process.cwd(), file);
      let prepared;
      try {
        prepared = await prepareDocument(content, format, { largeDocumentChars: Infinity });
      } catch {
        rejected++;
        continue;
      }
      try {
        segments += prepared.segments.length;
        const result = await translatePrepared({ prepared, targets: [{ requested: 'es', language: es }], source: en, engine, tokenizer });
        answered++;
        const problem = structureProblem(format, content, result.translations.es!);
        if (problem === 'reordered') reordered++;
        if (problem && problem !== 'reordered') failures.push(`- [${format}] ${name}: ${problem}`);
        else intact++;
      } catch (error) {
        refused++;
        failures.push(`- [${format}] ${name}: engine: ${(error as Error).message}`);
      } finally {
        prepared.release();
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const judged = answered + refused;
    const share = `${intact}/${judged} (${((100 * intact) / Math.max(1, judged)).toFixed(1)}%)`;
    console.log(`| ${format} | ${judged + rejected} | ${rejected} | ${answered} | ${share} | ${reordered} | ${refused} | ${segments} | ${seconds.toFixed(1)} |`);
  }
  console.log(failures.length === 0 ? '\nno failures' : `\n${failures.length} failures:\n${failures.slice(0, show).join('\n')}`);
  engine.close();
  if (failures.length > 0) process.exitCode = 1;
}

await main();
