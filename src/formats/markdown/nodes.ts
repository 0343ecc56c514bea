/**
 * The node types markdown's readers share: the inline reader (inline.ts) gives ScanNodes
 * in block-text offsets, the marked path (blocks.ts) turns them into InlineNodes in source
 * offsets inside InlineBlocks, and the adapter (adapter.ts) reads those exactly as it reads
 * mdast's nodes.
 */

/** An inline node in block-text offsets. */
export interface ScanNode {
  type: 'text' | 'emphasis' | 'strong' | 'link' | 'image' | 'linkReference' | 'imageReference' | 'inlineCode' | 'break' | 'autolink' | 'html';
  start: number;
  end: number;
  /** html: the tag's text. */
  value?: string;
  children?: ScanNode[];
  /** link/image: a non-empty title. */
  title?: boolean;
  /** linkReference/imageReference: `[text][label]`. */
  full?: boolean;
}

/**
 * The link reference definitions a document may hold: their normalised labels, or
 * `'unknown'` (then any bracket pair that is not an inline link could be a reference).
 */
export type Definitions = ReadonlySet<string> | 'unknown';

/** An inline node in source offsets (original coordinates), shared with the mdast path. */
export interface InlineNode {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly children?: InlineNode[];
  /** link/image: the node has a title in its destination part. */
  readonly title?: boolean;
  /** linkReference/imageReference: a full reference (`[text][label]`). */
  readonly full?: boolean;
  /** html: the tag's bytes. */
  readonly value?: string;
}

/** A block whose inline content may be a segment. */
export type InlineBlock =
  | { readonly type: 'paragraph' | 'heading' | 'tableCell'; readonly depth?: number; readonly children: InlineNode[] }
  | { readonly type: 'html'; readonly start: number; readonly end: number }
  /** A reference definition with a title (the title is translated). */
  | { readonly type: 'definition'; readonly start: number; readonly end: number }
  | { readonly type: 'fallback'; readonly start: number; readonly end: number };
