/**
 * A line inside a block quote or list item that opens with inline markup: its container
 * prefix (`> `, the item's indent) must come back once. Found by
 * bench/formats/real-world.ts on 17 READMEs in node_modules (a pseudo translation wrote
 * `> > [link](…)`, which nests a new block quote).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { GROUP_SIZE } from '../../src/formats/markdown/adapter.js';
import { identityRender, LTR, pseudoRender, RTL } from './helpers.js';
import { markdownShape } from './structure.js';

const CASES: Record<string, string> = {
  'quote, link opening the second line': '> Such changes are noted in the\n> [release notes](https://example.com/r).\n',
  'quote, strong opening the second line': '> The contents are unknown and\n> **could contain sensitive data**, so fill them.\n',
  'quote, code opening the second line': '> The body is\n> `undefined`, because parsing happens later.\n',
  'list item, link opening the continuation': '- Major releases are found at\n  [the releases page](https://example.com/releases).\n',
  'quote in a list item': '1. Step one:\n   > read the\n   > [guide](https://example.com/g) first.\n',
  'list item, code opening the continuation': '- Major releases are found at\n  `code` here, and\n  **bold** there.\n',
  'quote, hard break before a line opening with emphasis': '> The first line  \n> *emphasis* opens the second.\n',
  'list item, hard break before the continuation': '- The first line  \n  *emphasis* and the rest\n  of it.\n',
  'indented continuation after a hard break': 'The first line  \n   continued, indented.\n',
};

/** The container prefix of each line (`> `, indentation): a translation keeps them byte for byte. */
const prefixes = (text: string) => text.split('\n').map((line) => /^[ \t>]*/.exec(line)![0]);

// Long enough for the marked path (markdown-marked.ts); the short one goes through mdast.
const FILLER = '\n' + 'A filler paragraph that only adds length to the document.\n\n'.repeat(Math.ceil(GROUP_SIZE / 50));

describe('markdown container prefixes before inline markup', () => {
  for (const [name, source] of Object.entries(CASES)) {
    for (const [path, content] of [['short', source], ['long', source + FILLER]] as const) {
      it(`${name} (${path} document)`, () => {
        const doc = getAdapter('markdown').extract(content);
        assert.equal(identityRender(doc), content);
        for (const target of [LTR, RTL]) {
          const output = pseudoRender(doc, target);
          assert.deepEqual(markdownShape(output), markdownShape(content));
          assert.equal(output.split('\n').length, content.split('\n').length, 'same line count');
          assert.deepEqual(prefixes(output), prefixes(content), 'same line prefixes');
        }
      });
    }
  }
});
