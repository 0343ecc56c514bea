/**
 * The framework's own ceiling for bench/http/run.ts: a bare Fastify server that parses the
 * same POST /v1/translate body and answers the same shape (translations + usage), with
 * no database, no auth lookup, no tokenizer and no engine. Logging off, as the service's
 * request path logs nothing per request at LOG_LEVEL=warn.
 *
 *   PORT=0 node --import tsx bench/http/bare-server.ts   # prints {"port": N} when listening
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });

app.post('/v1/translate', async (request, reply) => {
  const body = request.body as { content?: unknown; targets?: unknown; model?: unknown };
  if (typeof request.headers.authorization !== 'string') return reply.code(401).send({ error: 'invalid_api_key', message: 'no key' });
  if (typeof body?.content !== 'string' || !Array.isArray(body.targets)) {
    return reply.code(400).send({ error: 'invalid_request', message: 'content and targets are required' });
  }
  const translations: Record<string, string> = {};
  for (const target of body.targets) translations[String(target)] = body.content;
  const inputTokens = body.content.length >> 2;
  return {
    translations,
    usage: { input_tokens: inputTokens, output_tokens: inputTokens, total_tokens: 2 * inputTokens, model: body.model ?? 'standard' },
  };
});

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
