import type { FastifyInstance } from 'fastify';
import { LANGUAGES } from '../../languages.js';
import { LanguagesAnswer } from '../schemas/account.js';
import { publicRoute } from '../schemas/route.js';

const answer: LanguagesAnswer = { languages: LANGUAGES.map(({ code, name, rtl }) => ({ code, name, rtl })) };
/** The list never changes while the process runs: written once. */
const BODY = JSON.stringify(answer);

const schema = publicRoute({ tag: 'account', summary: 'The languages you can translate into and from', answers: { 200: LanguagesAnswer }, errors: [] });

export async function languageRoutes(app: FastifyInstance): Promise<void> {
  app.get('/languages', { schema }, async (_request, reply) => reply.type('application/json; charset=utf-8').send(BODY));
}
