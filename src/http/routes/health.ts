import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HealthAnswer } from '../schemas/account.js';
import { publicRoute } from '../schemas/route.js';

const schema = publicRoute({ tag: 'service', summary: 'Is the service up', answers: { 200: HealthAnswer }, errors: [] });

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/health', { schema }, async () => ({ status: 'ok' as const, timestamp: new Date().toISOString() }));
}
