/** A file's API format from its extension; undefined lets the API detect it from the content. */
import { extname } from 'node:path';
import type { Format } from './api.js';

const BY_EXTENSION: Readonly<Record<string, Format>> = {
  '.json': 'json',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.txt': 'plain',
};

export function formatFromExtension(path: string): Format | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}
