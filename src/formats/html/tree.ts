/**
 * htmlparser2's tree building, ported from its `Parser` (htmlparser2 12.0.0, HTML mode,
 * `decodeEntities: false`) onto its public `Tokenizer`, so that the html adapter hears
 * exactly the events `Parser` would send — the same implied opens and closes (`<p>` in
 * `<p>`, `</p>` alone, `</br>`, end of input), void elements, foreign content (`svg`,
 * `math`), the ignored nested `<form>`, and the same start/end indices, including bytes
 * no event covers — without what the adapter does not use and `Parser` builds for every
 * event: an attribute object per tag, every attribute value and text as a string.
 *
 * Positions passed to the handler are `Parser`'s `startIndex` and `endIndex + 1` at the
 * moment it would have called the matching callback, with one deliberate difference: an
 * end tag with a space or line break before its `>` ends at that `>` (see onclosetag). Keep this file in step with
 * htmlparser2's Parser.js when upgrading it (test/formats/html-tree.test.ts compares the
 * two event streams on generated markup).
 */
import { Tokenizer } from 'htmlparser2';
import type { QuoteType, TokenizerCallbacks } from 'htmlparser2';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { GREATER_THAN } = charCodes;

/** The attribute values the adapter reads (the first occurrence wins, as in `Parser`). */
export class TagAttributes {
  translate: string | undefined = undefined;
  class: string | undefined = undefined;
  type: string | undefined = undefined;
  name: string | undefined = undefined;
  property: string | undefined = undefined;

  clear(): void {
    this.translate = undefined;
    this.class = undefined;
    this.type = undefined;
    this.name = undefined;
    this.property = undefined;
  }
}

type KeptAttribute = 'translate' | 'class' | 'type' | 'name' | 'property';

function keptAttribute(name: string): KeptAttribute | null {
  switch (name) {
    case 'translate':
    case 'class':
    case 'type':
    case 'name':
    case 'property':
      return name;
    default:
      return null;
  }
}

export interface TreeHandler {
  /** A start tag. A real one spans `[start, end)`; an implied one has no bytes of its own. */
  openTag(name: string, attributes: TagAttributes, implied: boolean, start: number, end: number): void;
  /** An end tag. A real one spans `[start, end)`; implied ones (and void elements') have no bytes. */
  closeTag(name: string, implied: boolean, start: number, end: number): void;
  text(start: number, end: number): void;
  /** A comment, doctype, processing instruction or CDATA section that ends at `end`. */
  other(end: number): void;
}

const formTags = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const pTag = new Set(['p']);
const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);
/** Open elements a start tag closes first. */
const openImpliesClose = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['a', new Set(['a'])],
  ['li', new Set(['li'])],
  ['p', pTag],
  ['h1', headingTags],
  ['h2', headingTags],
  ['h3', headingTags],
  ['h4', headingTags],
  ['h5', headingTags],
  ['h6', headingTags],
  ['select', formTags],
  ['input', formTags],
  ['output', formTags],
  ['button', formTags],
  ['datalist', formTags],
  ['textarea', formTags],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ['address', pTag],
  ['article', pTag],
  ['aside', pTag],
  ['blockquote', pTag],
  ['details', pTag],
  ['div', pTag],
  ['dl', pTag],
  ['fieldset', pTag],
  ['figcaption', pTag],
  ['figure', pTag],
  ['footer', pTag],
  ['form', pTag],
  ['header', pTag],
  ['hr', pTag],
  ['main', pTag],
  ['nav', pTag],
  ['ol', pTag],
  ['pre', pTag],
  ['section', pTag],
  ['table', pTag],
  ['ul', pTag],
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
]);
const voidElements = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen',
  'link', 'meta', 'param', 'source', 'track', 'wbr',
]);
const foreignContextElements = new Set(['math', 'svg']);
/** Elements that return to HTML inside SVG or MathML (SVG-adjusted casing). */
const htmlIntegrationElements = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignObject', 'desc', 'title']);
const svgTagNameAdjustments = new Map([
  ['altglyph', 'altGlyph'],
  ['altglyphdef', 'altGlyphDef'],
  ['altglyphitem', 'altGlyphItem'],
  ['animatecolor', 'animateColor'],
  ['animatemotion', 'animateMotion'],
  ['animatetransform', 'animateTransform'],
  ['clippath', 'clipPath'],
  ['feblend', 'feBlend'],
  ['fecolormatrix', 'feColorMatrix'],
  ['fecomponenttransfer', 'feComponentTransfer'],
  ['fecomposite', 'feComposite'],
  ['feconvolvematrix', 'feConvolveMatrix'],
  ['fediffuselighting', 'feDiffuseLighting'],
  ['fedisplacementmap', 'feDisplacementMap'],
  ['fedistantlight', 'feDistantLight'],
  ['fedropshadow', 'feDropShadow'],
  ['feflood', 'feFlood'],
  ['fefunca', 'feFuncA'],
  ['fefuncb', 'feFuncB'],
  ['fefuncg', 'feFuncG'],
  ['fefuncr', 'feFuncR'],
  ['fegaussianblur', 'feGaussianBlur'],
  ['feimage', 'feImage'],
  ['femerge', 'feMerge'],
  ['femergenode', 'feMergeNode'],
  ['femorphology', 'feMorphology'],
  ['feoffset', 'feOffset'],
  ['fepointlight', 'fePointLight'],
  ['fespecularlighting', 'feSpecularLighting'],
  ['fespotlight', 'feSpotLight'],
  ['fetile', 'feTile'],
  ['feturbulence', 'feTurbulence'],
  ['foreignobject', 'foreignObject'],
  ['glyphref', 'glyphRef'],
  ['lineargradient', 'linearGradient'],
  ['radialgradient', 'radialGradient'],
  ['textpath', 'textPath'],
]);

const NONE = 0;
const SVG = 1;
const MATHML = 2;
type ForeignContext = typeof NONE | typeof SVG | typeof MATHML;

/** An attribute object for the implied `<br>` of a stray `</br>` (always empty). */
const NO_ATTRIBUTES = new TagAttributes();

/**
 * One parse of one string. The open-element and foreign-context stacks are arrays whose
 * last item is the innermost (`Parser` keeps them innermost-first).
 */
export class HtmlTree implements TokenizerCallbacks {
  #source = '';
  /** `Parser.startIndex`: where the next event starts, or the current attribute's name. */
  #startIndex = 0;
  /** `Parser.endIndex`: the last index of the current event. */
  #endIndex = 0;
  #openTagStart = 0;
  #tagname = '';
  /** `Parser.attribs !== null`: between a start tag's name and its end, unless the tag is ignored. */
  #collecting = false;
  readonly #attributes = new TagAttributes();
  #kept: KeptAttribute | null = null;
  #attribvalue = '';
  readonly #stack: string[] = [];
  readonly #foreignContext: ForeignContext[] = [NONE];
  readonly #tokenizer: Tokenizer;

  constructor(private readonly handler: TreeHandler) {
    this.#tokenizer = new Tokenizer({ decodeEntities: false }, this);
  }

  /** `new Parser(handler, options).end(source)`. */
  parse(source: string): void {
    this.#source = source;
    this.#tokenizer.write(source);
    this.#tokenizer.end();
  }

  #slice(start: number, end: number): string {
    return start === end ? '' : this.#source.slice(start, end);
  }

  ontext(start: number, endIndex: number): void {
    this.#endIndex = endIndex - 1;
    this.handler.text(this.#startIndex, endIndex);
    this.#startIndex = endIndex;
  }

  ontextentity(_codepoint: number, endIndex: number): void {
    this.#endIndex = endIndex - 1;
    this.handler.text(this.#startIndex, endIndex);
    this.#startIndex = endIndex;
  }

  isInForeignContext(): boolean {
    return this.#foreignContext[this.#foreignContext.length - 1] !== NONE;
  }

  #readTagName(start: number, endIndex: number): string {
    const name = this.#slice(start, endIndex).toLowerCase();
    const context = this.#foreignContext;
    if (context[context.length - 1] === SVG) return svgTagNameAdjustments.get(name) ?? name;
    // An end tag of an SVG element inside an HTML integration point (`</foreignObject>`).
    if (context.length > 1) {
      const adjusted = svgTagNameAdjustments.get(name);
      if (adjusted !== undefined && this.#stack.includes(adjusted)) return adjusted;
    }
    if (!this.isInForeignContext()) return name === 'image' ? 'img' : name;
    return name;
  }

  onopentagname(start: number, endIndex: number): void {
    this.#endIndex = endIndex;
    this.#emitOpenTag(this.#readTagName(start, endIndex));
  }

  #emitOpenTag(name: string): void {
    this.#openTagStart = this.#startIndex;
    this.#tagname = name;
    // A second <form> inside a form is ignored altogether.
    if (name === 'form' && this.#stack.includes('form')) {
      this.#tagname = '';
      return;
    }
    const impliesClose = openImpliesClose.get(name);
    if (impliesClose) {
      while (this.#stack.length > 0 && impliesClose.has(this.#stack[this.#stack.length - 1]!)) this.#popElement(true);
    }
    if (!voidElements.has(name)) {
      this.#stack.push(name);
      if (name === 'svg') this.#foreignContext.push(SVG);
      else if (name === 'math') this.#foreignContext.push(MATHML);
      else if (htmlIntegrationElements.has(name)) this.#foreignContext.push(NONE);
    }
    this.#collecting = true;
    this.#attributes.clear();
  }

  #endOpenTag(implied: boolean): void {
    this.#startIndex = this.#openTagStart;
    if (this.#collecting) {
      this.handler.openTag(this.#tagname, this.#attributes, implied, this.#startIndex, this.#endIndex + 1);
      this.#collecting = false;
    }
    if (voidElements.has(this.#tagname)) this.handler.closeTag(this.#tagname, true, this.#startIndex, this.#endIndex + 1);
    this.#tagname = '';
  }

  onopentagend(endIndex: number): void {
    this.#endIndex = endIndex;
    this.#endOpenTag(false);
    this.#startIndex = endIndex + 1;
  }

  onclosetag(start: number, endIndex: number): void {
    // Deliberately unlike `Parser`: its end index for `</b\n>` stops at the name, so the
    // `>` the tokenizer skips looked like text to the adapter and was escaped as `&gt;`
    // (DocBook pages put a line break there). The tag ends at its `>`.
    const gt = this.#source.charCodeAt(endIndex) === GREATER_THAN ? endIndex : this.#source.indexOf('>', endIndex);
    const tagEnd = gt === -1 ? this.#source.length - 1 : gt;
    this.#endIndex = tagEnd;
    const name = this.#readTagName(start, endIndex);
    if (!voidElements.has(name)) {
      const at = this.#stack.lastIndexOf(name);
      if (at !== -1) {
        for (let above = this.#stack.length - 1 - at; above > 0; above--) this.#popElement(true);
        this.#popElement(false);
      } else if (name === 'p') {
        // `</p>` without an open p: an empty p, opened implicitly.
        this.#emitOpenTag('p');
        this.#closeCurrentTag(true);
      }
    } else if (name === 'br') {
      // `</br>` is a `<br>`.
      this.handler.openTag('br', NO_ATTRIBUTES, true, this.#startIndex, this.#endIndex + 1);
      this.handler.closeTag('br', false, this.#startIndex, this.#endIndex + 1);
    }
    this.#startIndex = tagEnd + 1;
  }

  onselfclosingtag(endIndex: number): void {
    this.#endIndex = endIndex;
    // HTML ignores `/>` except in SVG and MathML.
    if (this.isInForeignContext()) {
      this.#closeCurrentTag(false);
      this.#startIndex = endIndex + 1;
    } else {
      this.onopentagend(endIndex);
    }
  }

  #popElement(implied: boolean): void {
    const element = this.#stack.pop()!;
    if (foreignContextElements.has(element) || htmlIntegrationElements.has(element)) this.#foreignContext.pop();
    this.handler.closeTag(element, implied, this.#startIndex, this.#endIndex + 1);
  }

  #closeCurrentTag(isOpenImplied: boolean): void {
    const name = this.#tagname;
    this.#endOpenTag(isOpenImplied);
    if (this.#stack[this.#stack.length - 1] === name) this.#popElement(!isOpenImplied);
  }

  onattribname(start: number, endIndex: number): void {
    this.#startIndex = start;
    this.#kept = keptAttribute(this.#slice(start, endIndex).toLowerCase());
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.#kept !== null) this.#attribvalue += this.#slice(start, endIndex);
  }

  onattribentity(codepoint: number): void {
    if (this.#kept !== null) this.#attribvalue += String.fromCodePoint(codepoint);
  }

  onattribend(_quote: QuoteType, endIndex: number): void {
    this.#endIndex = endIndex;
    const kept = this.#kept;
    if (this.#collecting && kept !== null && this.#attributes[kept] === undefined) this.#attributes[kept] = this.#attribvalue;
    this.#attribvalue = '';
  }

  ondeclaration(_start: number, endIndex: number): void {
    this.#other(endIndex);
  }

  onprocessinginstruction(_start: number, endIndex: number): void {
    this.#other(endIndex);
  }

  oncomment(_start: number, endIndex: number): void {
    this.#other(endIndex);
  }

  /** A declaration, processing instruction or comment, which ends at `endIndex`: markup, never text. */
  #other(endIndex: number): void {
    this.#endIndex = endIndex;
    this.handler.other(endIndex + 1);
    this.#startIndex = endIndex + 1;
  }

  oncdata(_start: number, endIndex: number): void {
    this.#endIndex = endIndex;
    // CDATA is text in SVG and MathML and a comment in HTML.
    if (this.isInForeignContext()) this.handler.text(this.#startIndex, endIndex + 1);
    else this.handler.other(endIndex + 1);
    this.#startIndex = endIndex + 1;
  }

  onend(): void {
    this.#endIndex = this.#startIndex;
    // Parser.onend reports every element still open as closed (and keeps its stack).
    for (let index = this.#stack.length - 1; index >= 0; index--) {
      this.handler.closeTag(this.#stack[index]!, true, this.#startIndex, this.#endIndex + 1);
    }
  }
}
