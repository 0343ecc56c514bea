/** The inline blocks a markdown source is mapped into, lexed and mapped by a MarkedMapper of its own. */
import { MarkedMapper } from '../../src/formats/markdown/blocks.js';
import type { InlineBlock } from '../../src/formats/markdown/nodes.js';

export function markedBlocks(source: string): InlineBlock[] {
  const mapper = new MarkedMapper(source, 0);
  mapper.lex();
  const blocks: InlineBlock[] = [];
  mapper.map((block) => blocks.push(block));
  return blocks;
}
