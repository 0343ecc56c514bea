/**
 * A fake OpenAI-compatible model for the latency bench: it answers every call validly, in
 * the shape the request's schema asks for (each line's text, tokens intact, padded with filler words to `expansion` times its
 * o200k tokens, as a translation into a wordier language would be), after a time to
 * first token, at so many output tokens a second. It counts prompt tokens with o200k and
 * imitates OpenAI's prompt cache: a prompt's prefix that an earlier call already sent is
 * reported as `cached_tokens`, in steps of 128 tokens from 1,024 on.
 *
 * Run on its own to point a service at it by hand:
 *   npx tsx bench/latency/fake-model.ts --ttft 400 --tps 80 --expansion 1.5   (prints its base URL)
 */
import { createHash } from 'node:crypto';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens } from '../../test/helpers/tokenizer.js';
import {
  answerObject,
  keyedRequest,
  openaiReply,
  startFakeProvider,
  targetCodes,
  userMessage,
  userText,
  type FakeProvider,
  type RecordedRequest,
} from '../../test/helpers/fake-provider.js';

export interface FakeModelOptions {
  readonly ttftMs: number;
  readonly tokensPerSecond: number;
  /** Output tokens per source token of each line (default 1.5). */
  readonly expansion?: number;
}

export interface ModelTotals {
  calls: number;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
}

/** One call as the fake saw it: when its request arrived (performance.now) and the output tokens it wrote. */
export interface ModelCall {
  readonly at: number;
  readonly output: number;
}

export interface FakeModel {
  readonly provider: FakeProvider;
  readonly totals: ModelTotals;
  /** Every call since the last reset, in arrival order. */
  readonly calls: ModelCall[];
  /** Zeroes the totals and the provider's record (between bench cases). */
  reset(): void;
  close(): Promise<void>;
}

const CACHE_BLOCK = 128;
const CACHE_MINIMUM = 1024;
const FILLER = ' lorem';

export async function startFakeModel(options: FakeModelOptions): Promise<FakeModel> {
  const provider = await startFakeProvider({ ttftMs: options.ttftMs, tokensPerSecond: options.tokensPerSecond });
  const expansion = options.expansion ?? 1.5;
  const fillerTokens = countTokens(FILLER.repeat(100)) / 100;
  const cachedPrefixes = new Set<string>();
  const totals: ModelTotals = { calls: 0, inputTokens: 0, cachedTokens: 0, outputTokens: 0 };
  const calls: ModelCall[] = [];

  provider.fallback((request: RecordedRequest) => {
    const at = performance.now();
    const message = userMessage(request);
    const answer = (text: string): string => {
      const padding = Math.round(((expansion - 1) * countTokens(text)) / fillerTokens);
      return text + FILLER.repeat(Math.max(0, padding));
    };
    const translations = Object.fromEntries(targetCodes(message).map((code) => [code, message.segments.map(answer)]));
    const prompt = encode(JSON.stringify(request.body.response_format ?? null) + request.body.messages[0].content + userText(request));
    const { cached, prefixes } = cacheLookup(prompt, cachedPrefixes);
    // The prefix is in the cache once the prompt has been read, at the first token.
    setTimeout(() => prefixes.forEach((prefix) => cachedPrefixes.add(prefix)), options.ttftMs).unref();
    const content = JSON.stringify(answerObject(translations, keyedRequest(request)));
    const output = countTokens(content);
    totals.calls++;
    totals.inputTokens += prompt.length;
    totals.cachedTokens += cached;
    totals.outputTokens += output;
    calls.push({ at, output });
    const reply = openaiReply(content, { input: prompt.length, output }) as { json: { usage: Record<string, unknown> } };
    reply.json.usage.prompt_tokens_details = { cached_tokens: cached };
    return reply as ReturnType<typeof openaiReply>;
  });

  return {
    provider,
    totals,
    calls,
    reset() {
      Object.assign(totals, { calls: 0, inputTokens: 0, cachedTokens: 0, outputTokens: 0 });
      calls.length = 0;
      provider.reset();
    },
    close: () => provider.close(),
  };
}

/** The longest cached prefix (whole 128-token blocks, at least 1,024 tokens) and this prompt's block prefixes. */
function cacheLookup(tokens: readonly number[], cache: ReadonlySet<string>): { cached: number; prefixes: string[] } {
  const prefixes: string[] = [];
  let hash = '';
  let cached = 0;
  for (let end = CACHE_BLOCK; end <= tokens.length; end += CACHE_BLOCK) {
    hash = createHash('sha1').update(hash).update(tokens.slice(end - CACHE_BLOCK, end).join(',')).digest('hex');
    prefixes.push(hash);
    if (end >= CACHE_MINIMUM && cache.has(hash)) cached = end;
  }
  return { cached, prefixes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, fallback: number): number => {
    const index = process.argv.indexOf(`--${name}`);
    return index >= 0 ? Number(process.argv[index + 1]) : fallback;
  };
  const model = await startFakeModel({ ttftMs: arg('ttft', 400), tokensPerSecond: arg('tps', 80), expansion: arg('expansion', 1.5) });
  console.log(`fake model at ${model.provider.baseUrl} (OPENAI_BASE_URL); Ctrl-C to stop`);
}
