/**
 * o200k's byte-pair ranks read as data instead of run as code (docs/benchmarks.md, "Memory").
 *
 * gpt-tokenizer ships its ranks twice: as a JavaScript module holding two array literals of
 * 200,000 entries, and as OpenAI's own `.tiktoken` file (one line per token: its bytes in
 * base64, a space, its rank), which the package exports as data. Importing the module
 * keeps its 2.4 MB of source (4 MB as a string) and the literals' boilerplates (1.5 MB) in
 * the heap for the life of the process, beside the tables the tokenizer builds from them.
 * Read here, only the ranks remain.
 *
 * The ranks come out as the module holds them: a token whose bytes are UTF-8 that encodes
 * back to the same bytes is a string, any other is its bytes as numbers (the rule of
 * gpt-tokenizer's own generator). test/tokenizer/o200k-ranks.test.ts compares every rank
 * with the module's.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One rank's token: its text, or its bytes when they are not text on their own. */
export type RankedToken = string | number[];

export const O200K_RANKS_FILE = fileURLToPath(import.meta.resolve('gpt-tokenizer/data/o200k_base.tiktoken'));

/** The ranks of the `.tiktoken` file at `path`: index = rank. */
export function readO200kRanks(path = O200K_RANKS_FILE): RankedToken[] {
  return parseTiktokenRanks(readFileSync(path, 'latin1'), path);
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const RANK = /^(0|[1-9]\d{0,8})$/;

/** The ranks of `.tiktoken` text; a line in any other shape fails with its number. */
export function parseTiktokenRanks(text: string, name = 'tiktoken ranks'): RankedToken[] {
  const ranks: RankedToken[] = [];
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let lineNumber = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNumber++;
    const line = text.slice(start, end);
    start = end + 1;
    if (line === '') continue;
    const space = line.indexOf(' ');
    const token = line.slice(0, space);
    const rank = line.slice(space + 1);
    if (space < 0 || !BASE64.test(token) || !RANK.test(rank)) {
      throw new Error(`${name}, line ${lineNumber}: expected "<base64 bytes> <rank>", found ${JSON.stringify(line.slice(0, 80))}`);
    }
    const index = Number(rank);
    if (ranks[index] !== undefined) throw new Error(`${name}, line ${lineNumber}: rank ${index} given twice`);
    const bytes = Buffer.from(token, 'base64');
    ranks[index] = asText(bytes, utf8) ?? [...bytes];
  }
  return ranks;
}

/** The bytes as text, when decoding and encoding again gives the same bytes (a leading BOM does not: the decoder drops it). */
function asText(bytes: Buffer, utf8: TextDecoder): string | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  return Buffer.byteLength(text, 'utf8') === bytes.length ? text : undefined;
}
