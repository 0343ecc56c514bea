/**
 * Prompt-token bench: how many tokens the model engine sends, against the tokens of the
 * text being translated, per format, next to sending each document whole.
 *
 *   npx tsx bench/prompt-tokens/run.ts [targets, default "de"; e.g. de,fr,ja,ar,pt-BR]
 *
 * Each corpus document is extracted with its format adapter and translated by the real
 * ModelEngine through a capturing client (no network): the system and user messages
 * counted are exactly the ones that would go on the wire. Counts are o200k.
 *  - text:      Σ tokens of the segments' masked text (words + <gN>/<xN/> tokens)
 *  - lines:     tokens of the segment lines of the user message (`<n> <text>` per segment)
 *  - overhead:  (lines − text) / text — the target is at most 15%
 *  - fixed:     system prompt + answer schema (identical for every call) + the user
 *               message's header (source, targets, format: depends only on the targets)
 *  - sent:      everything counted (fixed + lines)
 *  - whole:     tokens of the raw document (what "send it whole" would cost before instructions)
 *  - leaks:     markup characters in the user message beyond the tokens (target 0)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineLanguage } from '../../src/engines/engine.js';
import type { ModelAnswer, ModelClient, ModelRequest } from '../../src/engines/model-client.js';
import { ModelEngine } from '../../src/engines/model-engine.js';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { TOKEN_PATTERN } from '../../src/formats/segment.js';
import { countTokens } from '../../src/tokens.js';

const CORPUS = join(fileURLToPath(new URL('.', import.meta.url)), 'corpus');
const FORMAT_BY_EXTENSION: Record<string, Format> = { '.txt': 'plain', '.md': 'markdown', '.json': 'json', '.html': 'html' };
const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** Records the request and answers with the source text, so the engine accepts it. */
class CapturingClient implements ModelClient {
  readonly provider = 'openai';
  readonly model = 'bench';
  readonly requests: ModelRequest[] = [];

  async complete(request: ModelRequest): Promise<ModelAnswer> {
    this.requests.push(request);
    // Echo every segment back (tokens intact) so the engine accepts the answer in one call.
    const [header = '', body = ''] = request.user.split('\nsegments:\n');
    const targetsLine = header.split('\n').find((line) => line.startsWith('targets: '))!;
    const codes = [...targetsLine.matchAll(/\(([^()]+)\)/g)].map((match) => match[1]!);
    const segments = body.split('\n').map((line) => {
      const space = line.indexOf(' ');
      const escaped = line.slice(space + 1).replace(/(?<!\\)((?:\\\\)*)"/g, '$1\\"');
      return { id: line.slice(0, space), text: JSON.parse(`"${escaped}"`) as string };
    });
    const translations = codes.map((lang) => ({ lang, segments }));
    return { text: JSON.stringify({ translations }), usage: { inputTokens: 0, outputTokens: 0 }, truncated: false };
  }
}

/** Markup that should never reach the model: tags other than our tokens, markdown link/code syntax. */
function markupLeaks(user: string, format: Format): number {
  const withoutTokens = user.replace(TOKEN_PATTERN, '');
  const patterns: RegExp[] =
    format === 'html' ? [/<\/?[a-zA-Z][^>]*>/g] : format === 'markdown' ? [/\]\(/g, /```/g, /\*\*/g, /^#{1,6} /gm] : [];
  return patterns.reduce((sum, pattern) => sum + (withoutTokens.match(pattern)?.length ?? 0), 0);
}

async function main(): Promise<void> {
  const codes = (process.argv[2] ?? 'de').split(',');
  const targets: EngineLanguage[] = codes.map((code) => ({ code, name: displayNames.of(code) ?? code, rtl: false }));
  const source: EngineLanguage = { code: 'en', name: 'English', rtl: false };

  const rows: string[][] = [];
  const totals = new Map<Format, { text: number; user: number; whole: number; docs: number }>();
  let fixed = 0;
  for (const file of readdirSync(CORPUS).sort()) {
    const format = FORMAT_BY_EXTENSION[extname(file)];
    if (!format) continue;
    const content = readFileSync(join(CORPUS, file), 'utf8');
    const document = getAdapter(format).extract(content);
    const client = new CapturingClient();
    const engine = new ModelEngine({
      client,
      budget: { maxInputTokens: 1_000_000, maxOutputTokens: 16_384 },
      timeoutMs: 1000,
      concurrency: 1,
    });
    await engine.translate({
      segments: document.segments.map(({ id, text, ctx, singleLine }) => ({
        id,
        text,
        ...(ctx ? { ctx } : {}),
        ...(singleLine ? { singleLine } : {}),
      })),
      targets,
      source,
      format,
    });
    const request = client.requests[0]!;
    const [head = '', lines = ''] = request.user.split('\nsegments:\n');
    fixed = countTokens(request.system) + countTokens(JSON.stringify(request.schema)) + countTokens(`${head}\nsegments:\n`);
    const text = document.segments.reduce((sum, segment) => sum + countTokens(segment.text), 0);
    const user = countTokens(lines);
    const whole = countTokens(content);
    const leaks = markupLeaks(request.user, format);
    rows.push([
      file,
      format,
      String(document.segments.length),
      String(text),
      String(user),
      `${(((user - text) / text) * 100).toFixed(1)}%`,
      String(fixed + user),
      String(whole),
      String(leaks),
    ]);
    const total = totals.get(format) ?? { text: 0, user: 0, whole: 0, docs: 0 };
    totals.set(format, { text: total.text + text, user: total.user + user, whole: total.whole + whole, docs: total.docs + 1 });
  }

  const header = ['document', 'format', 'segments', 'text', 'lines', 'overhead', 'sent', 'whole doc', 'markup leaks'];
  console.log(`targets: ${codes.join(', ')}; fixed block (system prompt + schema + header): ${fixed} tokens per call\n`);
  console.log(markdownTable(header, rows));
  console.log();
  const summary = [...totals].map(([format, t]) => [
    format,
    String(t.docs),
    String(t.text),
    String(t.user),
    `${(((t.user - t.text) / t.text) * 100).toFixed(1)}%`,
    String(t.user + fixed * t.docs),
    String(t.whole),
  ]);
  console.log(markdownTable(['format', 'docs', 'text', 'lines', 'overhead', 'sent incl. fixed', 'whole docs'], summary));
}

function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

await main();
