/**
 * The playground at `/`: a static page (public/playground/, shipped in the repository)
 * that calls this service's own /v1 API from the browser. Read once at start; no build
 * step, no CDN — the Content-Security-Policy allows nothing from another origin.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/** From src/http/routes/ and from dist/http/routes/ alike. */
const FOLDER = new URL('../../../public/playground/', import.meta.url);

const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ASSETS = [
  { path: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { path: '/playground.js', file: 'playground.js', type: 'text/javascript; charset=utf-8' },
  { path: '/playground.css', file: 'playground.css', type: 'text/css; charset=utf-8' },
] as const;

export async function playgroundRoutes(app: FastifyInstance): Promise<void> {
  for (const asset of ASSETS) {
    const body = readFileSync(new URL(asset.file, FOLDER));
    app.get(asset.path, { schema: { hide: true } }, async (_request, reply) =>
      reply.type(asset.type).header('content-security-policy', CSP).header('cache-control', 'no-cache').send(body),
    );
  }
}
