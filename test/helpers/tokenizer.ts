/**
 * One tokenizer for a test file's own counts (what it expects the service to report): the
 * service's parts get theirs from the composition root, and a count does not depend on
 * which Tokenizer made it.
 */
import { Tokenizer } from '../../src/tokens.js';

export const testTokenizer = new Tokenizer();

export const countTokens = (text: string): number => testTokenizer.countTokens(text);
export const countTokensYielding = (text: string): Promise<number> => testTokenizer.countTokensYielding(text);
