/**
 * A fake model provider on 127.0.0.1 (random port) that speaks, non-streaming, the
 * OpenAI chat-completions (`POST /v1/chat/completions`) and Anthropic messages
 * (`POST /v1/messages`) wire formats. Each test scripts the replies in order (or with a
 * function of the request) and then asserts on the request bodies it received, on how
 * many requests were in flight at once, and on requests the client gave up on.
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
  /** Requests whose client closed the connection before the reply was complete. */
  readonly clientAborts: number;
  /** Resolves when `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  let fallback: ReplyScript = () => ({ status: 500, json: { error: { message: 'fake provider: no scripted reply' } } });
  let inFlight = 0;
  let maxInFlight = 0;
  let clientAborts = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let finished = false;
    res.on('close', () => {
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
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
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

// ---------------------------------------------------------------------------------------
// Reply builders for both wire formats.

export interface FakeUsage {
  readonly input: number;
  readonly output: number;
}

/** Target code → its strings, in the order of the message's lines: `{de: ['Hallo', 'Welt']}`. */
export type Translations = Record<string, readonly unknown[]>;

/** `{de: ['Hallo']}` → the answer object of the prompt's schema. */
export function answerObject(translations: Translations): unknown {
  return {
    translations: Object.entries(translations).map(([lang, segments]) => ({ lang, segments })),
  };
}

/** An OpenAI chat completion whose message content is `content` (a string is sent verbatim). */
export function openaiReply(
  content: string | Translations,
  usage: FakeUsage,
  finishReason: 'stop' | 'length' = 'stop',
): FakeReply {
  const text = typeof content === 'string' ? content : JSON.stringify(answerObject(content));
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
): FakeReply {
  const block =
    typeof content === 'string'
      ? { type: 'text', text: content }
      : { type: 'tool_use', id: 'toolu_fake', name: 'submit_translations', input: answerObject(content) };
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
  /** The segment lines, unescaped, in order (line 1 first). */
  segments: string[];
  fix?: { lang?: string; line?: number; problem: string; previous?: string }[];
}

/**
 * Reads the user message the engine sent (OpenAI or Anthropic body): header lines, then
 * `segments (N):` and exactly N lines of escaped text; anything else throws.
 */
export function userMessage(request: RecordedRequest): UserMessage {
  const messages: { role: string; content: string }[] = request.body.messages;
  const user = messages.find((message) => message.role === 'user');
  if (!user) throw new Error('request has no user message');
  const lines = user.content.split('\n');
  const message: UserMessage = { targets: [], format: '', segments: [] };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const count = /^segments \((\d+)\):$/.exec(line);
    if (count) {
      const body = lines.slice(index + 1);
      if (body.length !== Number(count[1])) {
        throw new Error(`the message announces ${count[1]} segment lines and has ${body.length}`);
      }
      message.segments = body.map(unescapeLine);
      return message;
    }
    const [key, ...rest] = line.split(': ');
    const value = rest.join(': ');
    if (key === 'source') message.source = value;
    else if (key === 'targets') message.targets = value.split(/(?<=\)), /);
    else if (key === 'format') message.format = value;
    else if (key === 'plurals') message.plurals = value;
    else if (key === 'fix') message.fix = JSON.parse(value);
    else throw new Error(`unexpected header line in the user message: ${line}`);
  }
  throw new Error('the user message has no "segments (N):" line');
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
 * it was asked for with `[code] text`, tokens kept, and reports `usage` per call.
 */
export function echoTranslator(usage: FakeUsage): ReplyScript {
  return (request) => {
    const message = userMessage(request);
    const translations: Translations = Object.fromEntries(
      targetCodes(message).map((code) => [code, message.segments.map((text) => `[${code}] ${text}`)]),
    );
    return request.path === '/v1/messages' ? anthropicReply(translations, usage) : openaiReply(translations, usage);
  };
}
