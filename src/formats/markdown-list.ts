/**
 * marked's block Tokenizer with a fast path for the commonest list: bullet items of one
 * line each (`- text`), separated by nothing or by empty lines. marked's own list
 * tokenizer builds regexes and splits lines for every item, and was most of the block
 * lexer's time on list-heavy documents. For a list of that shape the fast path returns
 * the very token marked's would (same raws, texts, looseness and item tokens; checked
 * against it in test/formats/markdown-list.test.ts); for anything else (nested or
 * indented content, lazy lines, tasks, tabs, ordered lists …) it defers to marked.
 */
import { Tokenizer } from 'marked';
import type { Token, Tokens } from 'marked';

/** `1.`/`1)` followed by a space, tab or the end: an ordered list item. */
const ORDERED = /^\d{1,9}[.)](?:[ \t]|$)/;
/** marked's `listIsTask`. */
const TASK = /^\[[ xX]\][ \t]+\S/;
const WHITESPACE = /\s/;

export class ListTokenizer extends Tokenizer {
  override list(src: string): Tokens.List | undefined {
    return this.#simpleList(src) ?? super.list(src);
  }

  /** The token marked makes of a simple list at the start of `src`, or undefined. */
  #simpleList(src: string): Tokens.List | undefined {
    const bullet = src.charCodeAt(0);
    if (bullet !== 45 && bullet !== 42 && bullet !== 43) return undefined;
    const lexer = this.lexer;
    const items: Tokens.ListItem[] = [];
    let loose = false;
    let endsWithBlankLine = false;
    let pos = 0;
    let end = 0;
    for (;;) {
      // An item line: the bullet, one space, content that starts with a non-space.
      if (src.charCodeAt(pos) !== bullet || src.charCodeAt(pos + 1) !== 32) return undefined;
      const contentStart = pos + 2;
      let lineEnd = src.indexOf('\n', contentStart);
      if (lineEnd === -1) lineEnd = src.length;
      const content = src.slice(contentStart, lineEnd);
      const tokens = this.#content(content);
      if (!tokens) return undefined;
      // Empty lines after it (a line of spaces or tabs is not simple).
      let next = lineEnd < src.length ? lineEnd + 1 : lineEnd;
      let blank = 0;
      while (src.charCodeAt(next) === 10) {
        blank++;
        next++;
      }
      const c = src.charCodeAt(next);
      if (c === 32 || c === 9) return undefined;
      let last = next >= src.length;
      if (!last && src.charCodeAt(next) === bullet) {
        // Another item of this list (after empty lines, a loose one), unless it is not simple.
        if (src.charCodeAt(next + 1) !== 32) return undefined;
      } else if (!last) {
        // Anything else at column 0 ends the list after an empty line; right after an item
        // it would be a lazy line or an interruption.
        if (blank === 0) return undefined;
        last = true;
      }
      const raw = src.slice(pos, next);
      if (!loose) {
        if (endsWithBlankLine) loose = true;
        else if (blank > 0) endsWithBlankLine = true;
      }
      if (last) {
        items.push({ type: 'list_item', raw: raw.trimEnd(), task: false, loose: false, text: content.trimEnd(), tokens: this.#lastTokens(content, tokens) });
        end = next;
        break;
      }
      // As marked's blockTokens(text) makes them: an empty line joins the text token, more are a space token.
      if (blank === 1) tokens[0]!.raw += '\n';
      else if (blank > 1) {
        tokens.push({ type: 'space', raw: '\n'.repeat(blank) });
        loose = true;
      }
      items.push({ type: 'list_item', raw, task: false, loose: false, text: blank > 0 ? content + '\n'.repeat(blank) : content, tokens });
      pos = next;
    }
    if (loose) {
      for (const item of items) {
        item.loose = true;
        for (const token of item.tokens) if (token.type === 'text') token.type = 'paragraph';
      }
    }
    // marked's list() leaves the lexer at top level after lexing its items.
    lexer.state.top = true;
    return { type: 'list', raw: src.slice(0, end).trimEnd(), ordered: false, start: '', loose, items };
  }

  /** The block tokens of one item's content line (one text token), or undefined if it is anything else. */
  #content(content: string): Token[] | undefined {
    const c = content.charCodeAt(0);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c > 127 && !WHITESPACE.test(content[0]!))) {
      // No block construct starts with a letter.
      return [{ type: 'text', raw: content, text: content, tokens: [] } as Tokens.Text];
    }
    if (Number.isNaN(c) || c === 32 || c === 9 || ORDERED.test(content) || TASK.test(content)) return undefined;
    // Anything else is classified by marked itself (as its list() does, not at top level).
    const lexer = this.lexer;
    lexer.state.top = false;
    const tokens = lexer.blockTokens(content, []);
    if (tokens.length !== 1 || tokens[0]!.type !== 'text' || tokens[0]!.raw !== content) return undefined;
    return tokens;
  }

  /** The last item's tokens: its text is trimmed at the end (as marked trims the last item). */
  #lastTokens(content: string, tokens: Token[]): Token[] {
    const trimmed = content.trimEnd();
    if (trimmed === content) return tokens;
    const token = tokens[0] as Tokens.Text;
    token.raw = trimmed;
    token.text = trimmed;
    return tokens;
  }
}
