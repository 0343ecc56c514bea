/**
 * Anthropic Messages (`POST {base}/v1/messages`). The answer is requested through one
 * forced tool whose `input_schema` is the answer schema: tool use works on every Claude
 * model, whereas native structured outputs exist only on recent ones. When a proxy or
 * an old model answers in text instead, the text is parsed tolerantly.
 */
import type { ModelAnswer, ModelClient, ModelRequest } from './model-client.js';
import { ANSWER_NAME } from './prompt.js';
import { ProviderCallError, postJson, tokenCount } from './provider-http.js';

export interface AnthropicClientOptions {
  readonly model: string;
  readonly apiKey?: string;
  /** Default `https://api.anthropic.com`; a trailing `/v1` is accepted too. */
  readonly baseUrl?: string;
}

const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const ANTHROPIC_VERSION = '2023-06-01';
const EPHEMERAL = { type: 'ephemeral' } as const;

export class AnthropicMessagesClient implements ModelClient {
  readonly provider = 'anthropic';
  readonly model: string;
  private readonly url: string;

  constructor(private readonly options: AnthropicClientOptions) {
    this.model = options.model;
    const base = (options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '');
    this.url = base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
  }

  async complete(request: ModelRequest): Promise<ModelAnswer> {
    const body = {
      model: this.model,
      max_tokens: request.maxOutputTokens,
      temperature: 0,
      // Breakpoints for the prompt cache: the tool and the system block are the same for
      // every call of a request, the user message's first part for every call over one
      // chunk. Anthropic ignores a breakpoint on a prefix below its minimum length.
      system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: request.user.prefix, cache_control: EPHEMERAL },
            { type: 'text', text: request.user.rest },
          ],
        },
      ],
      tools: [
        {
          name: ANSWER_NAME,
          description: 'Submit the translations of every segment into every target language.',
          input_schema: request.schema,
        },
      ],
      tool_choice: { type: 'tool', name: ANSWER_NAME },
    };
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    return readMessage(await postJson(this.url, headers, body, request));
  }
}

interface Message {
  content?: { type?: unknown; name?: unknown; input?: unknown; text?: unknown }[];
  stop_reason?: unknown;
  usage?: {
    input_tokens?: unknown;
    output_tokens?: unknown;
    cache_creation_input_tokens?: unknown;
    cache_read_input_tokens?: unknown;
  };
}

function readMessage(response: unknown): ModelAnswer {
  const message = response as Message;
  if (!Array.isArray(message?.content)) throw new ProviderCallError('bad-response', 'message without content');
  const tool = message.content.find((block) => block.type === 'tool_use' && block.name === ANSWER_NAME);
  const text = message.content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('');
  const usage = message.usage ?? {};
  const cacheWrite = tokenCount(usage.cache_creation_input_tokens) ?? 0;
  const cacheRead = tokenCount(usage.cache_read_input_tokens) ?? 0;
  return {
    text,
    truncated: message.stop_reason === 'max_tokens',
    usage: {
      // Cached prompt tokens are input tokens too; Anthropic reports them apart.
      inputTokens: (tokenCount(usage.input_tokens) ?? 0) + cacheWrite + cacheRead,
      outputTokens: tokenCount(usage.output_tokens) ?? 0,
      ...(cacheRead > 0 ? { cachedInputTokens: cacheRead } : {}),
      ...(cacheWrite > 0 ? { cacheWriteTokens: cacheWrite } : {}),
    },
    ...(tool ? { object: tool.input } : {}),
  };
}
