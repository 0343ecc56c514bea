/** Structure fingerprints used to show that a render kept everything but the words. */
import { Parser } from 'htmlparser2';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';

interface MdNode {
  type: string;
  url?: string;
  value?: string;
  depth?: number;
  ordered?: boolean | null;
  checked?: boolean | null;
  children?: MdNode[];
}

/** Node types in document order (text excluded) with URLs, code and heading depth. */
export function markdownShape(source: string): string[] {
  const tree = fromMarkdown(source, {
    extensions: [gfm(), frontmatter(['yaml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
  }) as unknown as MdNode;
  const out: string[] = [];
  const walk = (node: MdNode) => {
    if (node.type !== 'text') {
      let entry = node.type;
      if (node.url !== undefined) entry += ` ${node.url}`;
      if (node.type === 'code' || node.type === 'inlineCode' || node.type === 'yaml') entry += ` ${node.value}`;
      if (node.depth !== undefined) entry += ` ${node.depth}`;
      if (node.ordered !== undefined) entry += ` ordered=${node.ordered}`;
      if (node.checked !== undefined && node.checked !== null) entry += ` checked=${node.checked}`;
      out.push(entry);
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
  return out;
}

const TRANSLATED_ATTRIBUTES = new Set(['alt', 'title', 'placeholder', 'aria-label', 'aria-description', 'label', 'value', 'content']);

/** Tags with their attributes (translated attribute values and html lang/dir masked). */
export function htmlShape(source: string, options: { ignoreDir?: boolean } = {}): string[] {
  const out: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const attrs = Object.entries(attribs)
          .filter(([key]) => !(options.ignoreDir && key === 'dir'))
          .map(([key, value]) => {
            if (TRANSLATED_ATTRIBUTES.has(key)) return `${key}=*`;
            if (name === 'html' && key === 'lang') return `${key}=*`;
            return `${key}=${value}`;
          });
        out.push(`<${name} ${attrs.join(' ')}>`);
      },
      onclosetag(name) {
        out.push(`</${name}>`);
      },
      oncomment(data) {
        out.push(`<!--${data}-->`);
      },
    },
    { decodeEntities: true },
  );
  parser.end(source);
  return out;
}
