/** Fixture documents grown past the worker-pool threshold, each still a valid document of its format. */
import type { Format } from '../../src/formats/format.js';
import { LARGE_DOCUMENT_CHARS } from '../../src/translation/translate-document.js';
import { findLanguage } from '../../src/languages.js';
import type { RequestedTarget } from '../../src/translation/translate-options.js';

/** `content` repeated (markdown, plain, html fragments) or nested (json) until it passes the threshold. */
export function pastThreshold(format: Format, content: string, chars = LARGE_DOCUMENT_CHARS + 1): string {
  const copies = Math.ceil(chars / content.length) + 1;
  if (format === 'json') return `{\n"copies": [\n${Array.from({ length: copies }, () => content.trim()).join(',\n')}\n]\n}\n`;
  const separator = format === 'html' ? '\n' : '\n\n';
  return Array.from({ length: copies }, () => content).join(separator);
}

export function targets(...codes: string[]): RequestedTarget[] {
  return codes.map((code) => ({ requested: code, language: findLanguage(code)! }));
}
