import type { FastifyInstance } from 'fastify';
import { LANGUAGES } from '../../languages.js';

const BODY = JSON.stringify({ languages: LANGUAGES });

export async function languageRoutes(app: FastifyInstance): Promise<void> {
  app.get('/languages', async (_request, reply) => reply.type('application/json; charset=utf-8').send(BODY));
}
