/**
 * OpenAI Chat Completions (`POST {base}/chat/completions`), the wire format that OpenAI,
 * vLLM, Ollama, llama.cpp server and LM Studio all speak. Not the Responses API: local
 * servers do not implement it.
 *
 * `responseFormat` picks how the answer shape is enforced, because servers differ:
 * `json_schema` (strict schema; OpenAI, vLLM, llama.cpp, recent Ollama, LM Studio),
 * `json_object` (JSON mode only) or `none` (plain text). The shape is always in the
 * system prompt as well, and the text is parsed tolerantly, so all three work.
 */
import type { OpenAIResponseFormat } from '../config.js';
import type { Tokenizer } from '../tokens.js';
import type { ModelAnswer, ModelClient, ModelRequest } from './model-client.js';
import { ANSWER_NAME, joinUserParts } from './prompt.js';
import { ProviderCallError, postJson, tokenCount } from './provider-http.js';

export interface OpenAIClientOptions {
  readonly model: string;
  /** Counts a call's tokens when a (local) server reports no usage. */
  readonly tokenizer: Tokenizer;
  readonly apiKey?: string;
  /** Default `https://api.openai.com/v1`; for local servers e.g. `http://localhost:11434/v1`. */
  readonly baseUrl?: string;
  readonly responseFormat?: OpenAIResponseFormat;
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export class OpenAIChatClient implements ModelClient {
  readonly provider = 'openai';
  readonly model: string;
  private readonly url: string;
  private readonly official: boolean;

  constructor(private readonly options: OpenAIClientOptions) {
    this.model = options.model;
    const base = (options.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, '');
    this.url = `${base}/chat/completions`;
    this.official = new URL(base).hostname === 'api.openai.com';
  }

  async complete(request: ModelRequest): Promise<ModelAnswer> {
    const body: Record<string, unknown> = {
      model: this.model,
      messages: [
        { role: 'system', content: request.system },
        // One string: OpenAI caches any identical prefix of 1,024 tokens or more on its own.
        { role: 'user', content: joinUserParts(request.user) },
      ],
    };
    // OpenAI's reasoning models reject both a temperature and `max_tokens`; the servers
    // that imitate the API know only `max_tokens`.
    if (!(this.official && isReasoningModel(this.model))) body.temperature = 0;
    body[this.official ? 'max_completion_tokens' : 'max_tokens'] = request.maxOutputTokens;
    const format = this.options.responseFormat ?? 'json_schema';
    if (format === 'json_schema') {
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: ANSWER_NAME, strict: true, schema: request.schema },
      };
    } else if (format === 'json_object') {
      body.response_format = { type: 'json_object' };
    }

    const headers: Record<string, string> = {};
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const response = await postJson(this.url, headers, body, request);
    return readChatCompletion(response, request, this.options.tokenizer);
  }
}

function isReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5)/.test(model);
}

interface ChatCompletion {
  choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown } };
}

function readChatCompletion(response: unknown, request: ModelRequest, tokenizer: Tokenizer): ModelAnswer {
  const completion = response as ChatCompletion;
  const choice = completion?.choices?.[0];
  if (!choice?.message) throw new ProviderCallError('bad-response', 'chat completion without choices[0].message');
  const content = choice.message.content;
  const text = typeof content === 'string' ? content : '';
  const cached = tokenCount(completion.usage?.prompt_tokens_details?.cached_tokens);
  return {
    text,
    truncated: choice.finish_reason === 'length',
    usage: {
      // Some local servers omit usage; an o200k estimate then stands in for their count.
      inputTokens:
        tokenCount(completion.usage?.prompt_tokens) ?? tokenizer.countTokens(request.system) + tokenizer.countTokens(joinUserParts(request.user)),
      outputTokens: tokenCount(completion.usage?.completion_tokens) ?? tokenizer.countTokens(text),
      // Part of prompt_tokens: reported for logs and benchmarks, charged like any input token.
      ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
    },
  };
}
