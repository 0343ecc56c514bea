/**
 * markdown-list.ts's fast path returns exactly the list token marked's own tokenizer
 * does (so everything after it, the mapping to offsets and its checks, is unchanged),
 * and takes the common shapes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Lexer } from 'marked';
import type { Token, Tokens } from 'marked';
import { ListTokenizer } from '../../src/formats/markdown/lists.js';
import { propertyRuns } from '../helpers/property-runs.js';

function lex(source: string, fast: boolean): string {
  const lexer = new Lexer(fast ? { gfm: true, tokenizer: new ListTokenizer() } : { gfm: true });
  const tokens = lexer.blockTokens(source, lexer.tokens);
  return JSON.stringify({ tokens, links: lexer.tokens.links, top: lexer.state.top });
}

/** How many lists the fast path itself returned for `source` (not marked's own list()). */
function fastLists(source: string): number {
  const parent = Object.getPrototypeOf(ListTokenizer.prototype) as { list: (src: string) => unknown };
  const original = parent.list;
  let byMarked = 0;
  parent.list = function (this: unknown, src: string) {
    const token = original.call(this, src);
    if (token) byMarked++;
    return token;
  };
  let lists = 0;
  try {
    const lexer = new Lexer({ gfm: true, tokenizer: new ListTokenizer() });
    const count = (tokens: readonly Token[]): void => {
      for (const token of tokens) {
        if (token.type !== 'list') continue;
        lists++;
        for (const item of (token as Tokens.List).items) count(item.tokens);
      }
    };
    count(lexer.blockTokens(source, lexer.tokens));
  } finally {
    parent.list = original;
  }
  return lists - byMarked;
}

const line = fc.constantFrom(
  '- a', '- b c', '- word *em* and **strong**', '- [link](u) x', '- `code` y', '- **Bold**: text', '- ![img](i.png)',
  '- é accent', '- 日本', '- a  ', '- a\t', '- 2024 was', '- 3.14 pi', '- _u_ x', '- \\* escaped', '- {name} x',
  '* star', '+ plus', '- 1. ordered', '- [ ] task', '- [x] done', '- ', '-', '-x', '- - nested', '- * x', '- ---', '- # h',
  '- > q', '- <b>x</b>', '- ```', '- ~~~', '-  two spaces', '-\ttab', '- [a]: def', '  - indented', '  cont', '    code',
  'text', 'lazy line', '# Heading', '## T 1', '> quote', '1. one', '2) two', '***', '---', '===', '| a | b |', '<div>', '',
  '', '', '\t', '   ', '1. a', '2. b *c*', '10. ten', '3) paren', '1) one', '01. zero', '1234567890. long', '123456789. nine',
  '2.x', '1.  two spaces', '1.\ttab', '1. - nested', '1. [ ] task', '2. 3. x', '1. ', '1.', '7. `code` x', '1. # h',
);
const documents = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 12 }), fc.boolean())
  .map(([lines, trailing]) => lines.join('\n') + (trailing ? '\n' : ''));

describe('markdown list fast path', () => {
  it('returns the tokens marked returns, on random list-like documents', () => {
    fc.assert(
      fc.property(documents, (source) => {
        assert.equal(lex(source, true), lex(source, false), JSON.stringify(source));
      }),
      propertyRuns(3000),
    );
  });

  it('known shapes', () => {
    const cases = [
      '- a\n- b\n\n## T\n',
      '- a\n\n- b\n',
      '- a\n\n\n- b\n\n\ntext',
      '* one *em*\n* two\n+ other list\n',
      '- a\n- b',
      '- **Bold**: text\n- `code` x\n- [link](u)\n',
      '- a  \n- b  \n\n',
      '> - quoted\n> - list\n',
      '- outer\n  - inner\n',
      '- [ ] task\n- [x] done\n',
      '1. one\n2. two\n\n10. ten\n',
      'text\n2. not a list\n',
      '3) a\n4) b\n5. other\n',
    ];
    for (const source of cases) assert.equal(lex(source, true), lex(source, false), JSON.stringify(source));
  });

  it('takes the common shapes itself', () => {
    assert.equal(fastLists('- a\n- b\n\n## T\n\n- c\n- d `x`\n'), 2);
    assert.equal(fastLists('- a\n\n- b\n'), 1);
    assert.equal(fastLists('- **Bold**: text\n- [link](u)\n'), 1);
    assert.equal(fastLists('1. one\n2. two\n\n3. three\n\n## T\n\n7) seven\n'), 2);
    // The outer item holds an indented line (marked's); its inner list is simple.
    assert.equal(fastLists('- outer\n  - inner\n'), 1);
  });
});
