/**
 * Prompt-token bench: how many tokens the model engine sends, against the tokens of the
 * text being translated, per format, next to sending each document whole; and how many
 * tokens an answer that echoes the text costs.
 *
 *   npx tsx bench/prompt-tokens/run.ts [targets, default "de"; e.g. de,fr,ja,ar,pt-BR]
 *
 * Each corpus document is extracted with its format adapter and translated by the real
 * ModelEngine through a capturing client (no network): the system and user messages
 * counted are exactly the ones that would go on the wire. Counts are o200k.
 *  - text:      Σ tokens of the segments' masked text (words + <gN>/<xN/> tokens)
 *  - lines:     tokens of the segment lines of the user message (one line per segment,
 *               its text with JSON string escapes, no id)
 *  - overhead:  (lines − text) / text — the target is at most 15%
 *  - fixed:     system prompt + answer schema (identical for every call) + the user
 *               message's header (source, targets, format, `segments (N):`)
 *  - sent:      everything counted (fixed + lines)
 *  - whole:     tokens of the raw document (what "send it whole" would cost before instructions)
 *  - leaks:     markup characters in the user message beyond the tokens (target 0)
 *  - answer:    tokens of the answer JSON when the model returns every segment unchanged
 *               for every target (an echo; a real translation differs in the text only)
 *  - envelope:  (answer − targets × text) / (segments × targets): answer tokens per
 *               segment per target beyond the text itself (quotes, commas, escapes, the
 *               per-target `{"lang":…,"segments":[…]}` spread over its segments)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineLanguage } from '../../src/engines/engine.js';
import type { ModelAnswer, ModelClient, ModelRequest } from '../../src/engines/model-client.js';
import { ModelEngine } from '../../src/engines/model-engine.js';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { SEGMENT_MARK_PATTERN } from '../../src/segments/segment.js';
import { countTokens } from '../../test/helpers/tokenizer.js';

const CORPUS = join(fileURLToPath(new URL('.', import.meta.url)), 'corpus');
const FORMAT_BY_EXTENSION: Record<string, Format> = { '.txt': 'plain', '.md': 'markdown', '.json': 'json', '.html': 'html' };
const displayNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** Records the request and answers with the source text, so the engine accepts it. */
class CapturingClient implements ModelClient {
  readonly provider = 'openai';
  readonly model = 'bench';
  readonly requests: ModelRequest[] = [];
  readonly answers: string[] = [];

  async complete(request: ModelRequest): Promise<ModelAnswer> {
    this.requests.push(request);
    // Echo every line back (tokens intact) so the engine accepts the answer in one call.
    const lines = request.user.prefix.split('\n');
    const countLine = lines.findIndex((line) => /^segments \(\d+\):$/.test(line));
    const targetsLine = request.user.rest.split('\n').find((line) => line.startsWith('targets: '))!;
    const codes = [...targetsLine.matchAll(/\(([^()]+)\)/g)].map((match) => match[1]!);
    const segments = lines.slice(countLine + 1).map((line) => {
      const escaped = line.replace(/(?<!\\)((?:\\\\)*)"/g, '$1\\"');
      return JSON.parse(`"${escaped}"`) as string;
    });
    const text = JSON.stringify({ translations: codes.map((lang) => ({ lang, segments })) });
    this.answers.push(text);
    return { text, usage: { inputTokens: 0, outputTokens: 0 }, truncated: false };
  }
}

/** Markup that should never reach the model: tags other than our tokens, markdown link/code syntax. */
function markupLeaks(user: string, format: Format): number {
  const withoutTokens = user.replace(SEGMENT_MARK_PATTERN, '');
  const patterns: RegExp[] =
    format === 'html' ? [/<\/?[a-zA-Z][^>]*>/g] : format === 'markdown' ? [/\]\(/g, /```/g, /\*\*/g, /^#{1,6} /gm] : [];
  return patterns.reduce((sum, pattern) => sum + (withoutTokens.match(pattern)?.length ?? 0), 0);
}

interface Totals {
  text: number;
  lines: number;
  fixed: number;
  whole: number;
  answer: number;
  segments: number;
  docs: number;
}

async function main(): Promise<void> {
  const codes = (process.argv[2] ?? 'de').split(',');
  const targets: EngineLanguage[] = codes.map((code) => ({ code, name: displayNames.of(code) ?? code, rtl: false }));
  const source: EngineLanguage = { code: 'en', name: 'English', rtl: false };
  const percent = (part: number, whole: number): string => `${((part / whole) * 100).toFixed(1)}%`;
  const envelope = (answer: number, text: number, segments: number): string =>
    ((answer - codes.length * text) / (segments * codes.length)).toFixed(2);

  const rows: string[][] = [];
  const totals = new Map<Format, Totals>();
  const fixedBlocks = new Set<number>();
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
    if (client.requests.length !== 1) throw new Error(`${file}: expected one call, got ${client.requests.length}`);
    const request = client.requests[0]!;
    const all = request.user.prefix.split('\n');
    const countLine = all.findIndex((line) => /^segments \(\d+\):$/.test(line));
    // The header: the lines before the segments and the ones after them (targets, plurals).
    const head = `${all.slice(0, countLine + 1).join('\n')}\n${request.user.rest}`;
    const lines = countTokens(all.slice(countLine + 1).join('\n'));
    const fixed = countTokens(request.system) + countTokens(JSON.stringify(request.schema)) + countTokens(`${head}\n`);
    fixedBlocks.add(fixed);
    const text = document.segments.reduce((sum, segment) => sum + countTokens(segment.text), 0);
    const whole = countTokens(content);
    const answer = countTokens(client.answers[0]!);
    const segments = document.segments.length;
    rows.push([
      file,
      format,
      String(segments),
      String(text),
      String(lines),
      percent(lines - text, text),
      String(fixed + lines),
      String(whole),
      String(markupLeaks(request.user.prefix, format)),
      String(answer),
      envelope(answer, text, segments),
    ]);
    const t = totals.get(format) ?? { text: 0, lines: 0, fixed: 0, whole: 0, answer: 0, segments: 0, docs: 0 };
    totals.set(format, {
      text: t.text + text,
      lines: t.lines + lines,
      fixed: t.fixed + fixed,
      whole: t.whole + whole,
      answer: t.answer + answer,
      segments: t.segments + segments,
      docs: t.docs + 1,
    });
  }

  const fixedRange = [Math.min(...fixedBlocks), Math.max(...fixedBlocks)];
  const fixedText = fixedRange[0] === fixedRange[1] ? `${fixedRange[0]}` : `${fixedRange[0]}–${fixedRange[1]}`;
  console.log(`targets: ${codes.join(', ')}; fixed block (system prompt + schema + header): ${fixedText} tokens per call\n`);
  const header = ['document', 'format', 'segments', 'text', 'lines', 'overhead', 'sent', 'whole doc', 'markup leaks', 'answer', 'envelope/seg/target'];
  console.log(markdownTable(header, rows));
  console.log();
  const summary = [...totals].map(([format, t]) => [
    format,
    String(t.docs),
    String(t.text),
    String(t.lines),
    percent(t.lines - t.text, t.text),
    String(t.lines + t.fixed),
    String(t.whole),
    String(t.answer),
    envelope(t.answer, t.text, t.segments),
  ]);
  console.log(
    markdownTable(['format', 'docs', 'text', 'lines', 'overhead', 'sent incl. fixed', 'whole docs', 'answer', 'envelope/seg/target'], summary),
  );
}

function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

await main();
