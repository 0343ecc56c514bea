/**
 * Form-encoded bodies (`application/x-www-form-urlencoded`) for the compat APIs: DeepL's
 * clients send them, and so does Weblate to LibreTranslate. Registered inside a compat
 * plugin, the parser serves that prefix only; `/v1` stays JSON only. A repeated field
 * (`text=a&text=b`) arrives as an array, a single one as a string.
 */
import formBody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';

export async function acceptFormBodies(app: FastifyInstance): Promise<void> {
  await app.register(formBody);
}

export type FormOrJson = Record<string, unknown>;

/** The body as an object of fields, or undefined when there is none (a GET, an empty POST). */
export function fieldsOf(body: unknown): FormOrJson | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return body as FormOrJson;
}
