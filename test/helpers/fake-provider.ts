/**
 * A fake model provider on 127.0.0.1 (random port) that speaks, non-streaming, the
 * OpenAI chat-completions (`POST /v1/chat/completions`) and Anthropic messages
 * (`POST /v1/messages`) wire formats. Each test scripts the replies in order (or with a
 * function of the request) and then asserts on the request bodies it received, on how
 * many requests were in flight at once (and when each was), and on requests the client
 * gave up on. Given a speed, it answers like a model that writes its output: after a
 * time to first token, at so many output tokens a second (the reply's own usage count).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  /** The parsed JSON body. */
  readonly body: any;
}

export type FakeReply =
  /** Any status with a JSON body, optionally after a delay. */
  | { readonly status?: number; readonly json: unknown; readonly headers?: Record<string, string>; readonly delayMs?: number }
  /** Sends the headers and half a body, then destroys the socket. */
  | { readonly destroyMidResponse: true }
  /** Never answers; the client has to give up. */
  | { readonly hang: true };

export type ReplyScript = (request: RecordedRequest, index: number) => FakeReply;

export interface FakeProviderOptions {
  /** Milliseconds before the first output token (default 0). */
  readonly ttftMs?: number;
  /** Output tokens written per second and call; the reply's usage says how many (default: instant). */
  readonly tokensPerSecond?: number;
}

/** When one request was open: milliseconds on the provider's clock (performance.now). */
export interface CallSpan {
  readonly path: string;
  readonly start: number;
  /** Absent while the request is open. */
  end?: number;
}

export interface FakeProvider {
  /** `http://127.0.0.1:<port>/v1`: OPENAI_BASE_URL, and ANTHROPIC_BASE_URL (either form works). */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Replies used in order, before `fallback`. */
  reply(...replies: FakeReply[]): void;
  /** Answers every request once the queue is empty; default: a 500 that names the mistake. */
  fallback(script: ReplyScript): void;
  /** The most requests that were open at the same time. */
  readonly maxInFlight: number;
  /** Requests open now. */
  readonly inFlight: number;
  /** Every request's open interval, in arrival order. */
  readonly spans: CallSpan[];
  /** Forgets requests, spans and the in-flight peak (between tests that share a provider). */
  reset(): void;
  /** Requests whose client closed the connection before the reply was complete. */
  readonly clientAborts: number;
  /** Resolves when `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  let fallback: ReplyScript = () => ({ status: 500, json: { error: { message: 'fake provider: no scripted reply' } } });
  let inFlight = 0;
  let maxInFlight = 0;
  let clientAborts = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const hanging = new Set<ServerResponse>();
  const spans: CallSpan[] = [];

  const server = createServer(async (req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const span: CallSpan = { path: req.url ?? '', start: performance.now() };
    spans.push(span);
    let finished = false;
    res.on('close', () => {
      span.end = performance.now();
      inFlight--;
      hanging.delete(res);
      if (!finished) clientAborts++;
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const recorded: RecordedRequest = { path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined };
    requests.push(recorded);
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const known = req.method === 'POST' && (recorded.path === '/v1/chat/completions' || recorded.path === '/v1/messages');
    const reply: FakeReply = known
      ? (queue.shift() ?? fallback(recorded, requests.length - 1))
      : { status: 404, json: { error: { message: `fake provider: no route ${req.method} ${recorded.path}` } } };

    if ('hang' in reply) {
      hanging.add(res);
      return;
    }
    if ('destroyMidResponse' in reply) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"choices":[{"message":{"content":"{\\"transl');
      finished = true; // the server cut it, not the client
      setTimeout(() => res.destroy(), 5);
      return;
    }
    const delayMs = (reply.delayMs ?? 0) + writingTimeMs(reply.json, options);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (res.destroyed) return;
    const body = JSON.stringify(reply.json);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    finished = true;
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    fallback: (script) => void (fallback = script),
    get maxInFlight() {
      return maxInFlight;
    },
    get inFlight() {
      return inFlight;
    },
    spans,
    reset() {
      requests.length = 0;
      spans.length = 0;
      maxInFlight = inFlight;
    },
    get clientAborts() {
      return clientAborts;
    },
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Time to first token plus the reply's output tokens (usage) at the configured speed. */
function writingTimeMs(json: any, options: FakeProviderOptions): number {
  if (!options.ttftMs && !options.tokensPerSecond) return 0;
  const usage = json?.usage;
  const output = Number(usage?.completion_tokens ?? usage?.output_tokens ?? 0);
  const writing = options.tokensPerSecond && output > 0 ? (output / options.tokensPerSecond) * 1000 : 0;
  return (options.ttftMs ?? 0) + writing;
}

// ---------------------------------------------------------------------------------------
// Reply builders for both wire formats.

export interface FakeUsage {
  readonly input: number;
  readonly output: number;
}

/** Target code → its strings, in the order of the message's lines: `{de: ['Hallo', 'Welt']}`. */
export type Translations = Record<string, readonly unknown[]>;

/**
 * `{de: ['Hallo']}` → the answer object in one of the prompt's shapes: keyed by the code
 * (`{de: […]}`, a request of one target) or grouped (`{translations: [{lang, segments}]}`).
 * Default: keyed when there is one target. A reply built from the request itself should
 * use `keyedRequest` to pick.
 */
export function answerObject(translations: Translations, keyed = Object.keys(translations).length === 1): unknown {
  if (keyed) return { ...translations };
  return {
    translations: Object.entries(translations).map(([lang, segments]) => ({ lang, segments })),
  };
}

/**
 * Whether `request` asks for the keyed answer: its schema (OpenAI's response_format,
 * Anthropic's tool) has no `translations` property; without a schema, whether its
 * message names one target.
 */
export function keyedRequest(request: RecordedRequest): boolean {
  const schema = request.body?.response_format?.json_schema?.schema ?? request.body?.tools?.[0]?.input_schema;
  if (schema?.properties) return !('translations' in schema.properties);
  return targetCodes(userMessage(request)).length === 1;
}

/** An OpenAI chat completion whose message content is `content` (a string is sent verbatim). */
export function openaiReply(
  content: string | Translations,
  usage: FakeUsage,
  finishReason: 'stop' | 'length' = 'stop',
  keyed?: boolean,
): FakeReply {
  const text = typeof content === 'string' ? content : JSON.stringify(answerObject(content, keyed));
  return {
    json: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      model: 'fake',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    },
  };
}

/** An Anthropic message that answers through the forced tool (or in text, given a string). */
export function anthropicReply(
  content: string | Translations,
  usage: FakeUsage,
  stopReason: 'tool_use' | 'end_turn' | 'max_tokens' = 'tool_use',
  keyed?: boolean,
): FakeReply {
  const block =
    typeof content === 'string'
      ? { type: 'text', text: content }
      : { type: 'tool_use', id: 'toolu_fake', name: 'submit_translations', input: answerObject(content, keyed) };
  return {
    json: {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model: 'fake',
      content: [block],
      stop_reason: stopReason,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    },
  };
}

export function errorReply(status: number, headers?: Record<string, string>): FakeReply {
  return { status, json: { error: { type: 'fake_error', message: `fake provider error ${status}` } }, ...(headers ? { headers } : {}) };
}

export interface UserMessage {
  source?: string;
  targets: string[];
  format: string;
  plurals?: string;
  /** The `branches:` line: which pairs of which lines are plural branches. */
  branches?: string;
  /** The segment lines, unescaped, in order (line 1 first). */
  segments: string[];
  fix?: { lang?: string; line?: number; problem: string; previous?: string }[];
  /** Source term → target code → required translation (the `glossary:` line). */
  glossary?: Record<string, Record<string, string>>;
  /** `formal` or `informal` (the `formality:` line). */
  formality?: string;
  /** The `context:` line, unescaped. */
  context?: string;
  /** The `notes:` line: segment number → what its locale file says about it. */
  notes?: Record<string, string>;
}

/** The user message's text: OpenAI's string, or Anthropic's text blocks joined by line breaks. */
export function userText(request: RecordedRequest): string {
  const messages: { role: string; content: string | { type: string; text: string }[] }[] = request.body.messages;
  const user = messages.find((message) => message.role === 'user');
  if (!user) throw new Error('request has no user message');
  return typeof user.content === 'string' ? user.content : user.content.map((block) => block.text).join('\n');
}

/**
 * Reads the user message the engine sent (OpenAI or Anthropic body): header lines, then
 * `segments (N):` and exactly N lines of escaped text, then header lines again (targets,
 * plurals, fix); anything else throws.
 */
export function userMessage(request: RecordedRequest): UserMessage {
  const lines = userText(request).split('\n');
  const message: UserMessage = { targets: [], format: '', segments: [] };
  let segmentsRead = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const count = /^segments \((\d+)\):$/.exec(line);
    if (count && !segmentsRead) {
      const body = lines.slice(index + 1, index + 1 + Number(count[1]));
      if (body.length !== Number(count[1])) {
        throw new Error(`the message announces ${count[1]} segment lines and has ${body.length}`);
      }
      message.segments = body.map(unescapeLine);
      segmentsRead = true;
      index += body.length;
      continue;
    }
    const [key, ...rest] = line.split(': ');
    const value = rest.join(': ');
    if (key === 'source') message.source = value;
    else if (key === 'targets') message.targets = value.split(/(?<=\)), /);
    else if (key === 'format') message.format = value;
    else if (key === 'plurals') message.plurals = value;
    else if (key === 'branches') message.branches = value;
    else if (key === 'fix') message.fix = JSON.parse(value);
    else if (key === 'glossary') message.glossary = JSON.parse(value);
    else if (key === 'formality') message.formality = value;
    else if (key === 'context') message.context = unescapeLine(value);
    else if (key === 'notes') message.notes = JSON.parse(value);
    else throw new Error(`unexpected header line in the user message: ${line}`);
  }
  if (!segmentsRead) throw new Error('the user message has no "segments (N):" line');
  if (message.targets.length === 0) throw new Error('the user message has no "targets:" line');
  return message;
}

/** A segment line back to its text: JSON string escapes, quotes left bare. */
function unescapeLine(line: string): string {
  return JSON.parse(`"${line.replace(/(?<!\\)((?:\\\\)*)"/g, '$1\\"')}"`);
}

/** The target codes of a user message: `German (de)` → `de`. */
export function targetCodes(message: UserMessage): string[] {
  return message.targets.map((target) => /\(([^()]+)\)$/.exec(target)?.[1] ?? target);
}

/**
 * A well-behaved translator for both wire formats: answers every line for every target
 * it was asked for with `[code] text`, tokens kept, in the shape its schema asks for, and
 * reports `usage` per call.
 */
export function echoTranslator(usage: FakeUsage): ReplyScript {
  return (request) => {
    const message = userMessage(request);
    const translations: Translations = Object.fromEntries(
      targetCodes(message).map((code) => [code, message.segments.map((text) => `[${code}] ${text}`)]),
    );
    const keyed = keyedRequest(request);
    return request.path === '/v1/messages' ? anthropicReply(translations, usage, 'tool_use', keyed) : openaiReply(translations, usage, 'stop', keyed);
  };
}
