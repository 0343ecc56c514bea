/** The 400 a reader answers for content that is not its format, naming the line it stopped at. */
import { ServiceError } from '../../errors.js';

/** The 1-based line of `content` that offset `at` is on. */
export function lineAt(content: string, at: number): number {
  let line = 1;
  for (let i = content.indexOf('\n'); i !== -1 && i < at; i = content.indexOf('\n', i + 1)) line++;
  return line;
}

/** `file` completes "The content is not …", e.g. `a valid ARB file`. */
export function invalidContent(file: string, content: string, at: number, what: string): never {
  throw new ServiceError('invalid_request', `The content is not ${file}: line ${lineAt(content, at)}: ${what}.`);
}
