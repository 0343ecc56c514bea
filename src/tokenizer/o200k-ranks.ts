/**
 * o200k's byte-pair ranks read as data instead of run as code (docs/decisions/0047).
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

const RANK = /^(0|[1-9]\d{0,8})$/;

/** The ranks of `.tiktoken` text; a line in any other shape fails with its number. */
export function parseTiktokenRanks(text: string, name = 'tiktoken ranks'): RankedToken[] {
  const ranks: RankedToken[] = [];
  // Every line's bytes are decoded into this one buffer: a token is short, and a buffer
  // per line showed in the time of reading 200,000 of them.
  const scratch = Buffer.allocUnsafe(1024);
  let lineNumber = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNumber++;
    if (end > start) {
      const space = text.indexOf(' ', start);
      const token = space > start && space < end ? text.slice(start, space) : '';
      const rank = token ? text.slice(space + 1, end) : '';
      // Base64 decodes to exactly 3 bytes per 4 characters, less its padding; a character
      // that is not base64 is skipped by the decoder and leaves fewer.
      const length = token.length % 4 === 0 && token.length <= 1364 ? scratch.write(token, 0, 'base64') : -1;
      const padding = token.endsWith('==') ? 2 : token.endsWith('=') ? 1 : 0;
      if (!token || length !== (token.length / 4) * 3 - padding || !RANK.test(rank)) {
        throw new Error(`${name}, line ${lineNumber}: expected "<base64 bytes> <rank>", found ${JSON.stringify(text.slice(start, Math.min(end, start + 80)))}`);
      }
      const index = Number(rank);
      if (ranks[index] !== undefined) throw new Error(`${name}, line ${lineNumber}: rank ${index} given twice`);
      ranks[index] = asText(scratch, length) ?? [...scratch.subarray(0, length)];
    }
    start = end + 1;
  }
  return ranks;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The bytes as text when decoding and encoding again gives the same bytes: valid UTF-8 not
 * starting with a byte-order mark (gpt-tokenizer's decoder drops a leading one, so such a
 * token does not come back whole and stays bytes). Buffer's decoding is the fast way; it
 * turns what is not UTF-8 into U+FFFD, so only text holding one needs the strict decoder.
 */
function asText(bytes: Buffer, length: number): string | undefined {
  const text = bytes.toString('utf8', 0, length);
  if (text.charCodeAt(0) === 0xfeff) return undefined;
  if (!text.includes('\uFFFD')) return text;
  try {
    return utf8.decode(bytes.subarray(0, length));
  } catch {
    return undefined;
  }
}
