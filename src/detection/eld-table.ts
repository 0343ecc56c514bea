/**
 * eld's n-gram table read as data instead of run as code (docs/detection.md, "Memory").
 *
 * eld ships each table as a JavaScript module holding one object literal (medium: 2 MB of
 * text, ~105,000 n-grams). Importing it makes V8 parse and compile that literal as code;
 * the parser's working memory (~90 MB for the medium table) goes back to malloc when it
 * is done but stays in the process's RSS for good. Read here, the n-grams come one at a
 * time, so whoever builds the table keeps only what it needs and the rest dies young.
 *
 * The reader knows the one shape eld generates: `export const ngramsData = {…}` holding
 * objects, single-quoted strings (escaping only `'` and `\`), integers and booleans, with
 * keys quoted or bare (`0:`, `type:`, `$DW$:`), `ngrams` last. Anything else fails with
 * the place and what was expected, rather than loading a different table;
 * test/detection/eld-table.test.ts checks every table eld ships against its own module.
 */

/** One n-gram's scores: eld's language index → score. */
export type NgramScores = Record<string, number>;

export interface EldTableReader {
  readonly type: string;
  /** eld's language index → ISO 639-1 code. */
  readonly languages: Record<string, string>;
  /** The n-grams and their scores, read from the text as they are iterated (once). */
  ngrams(): Generator<[ngram: string, scores: NgramScores]>;
}

const DECLARATION = 'export const ngramsData = ';
const BARE_KEY = /[^\s'"{}:,]+/y;
const INTEGER = /-?\d+/y;

/** A reader over the text of one of eld's `ngrams/*.js` modules. */
export function readEldTable(moduleText: string, name = 'eld table'): EldTableReader {
  const start = moduleText.indexOf(DECLARATION);
  if (start < 0) throw new Error(`${name}: no \`${DECLARATION.trim()} {…}\` in the module`);
  const reader: LiteralReader = new LiteralReader(moduleText, start + DECLARATION.length, name);
  const header: Record<string, unknown> = {};
  reader.expect('{');
  for (;;) {
    const key = reader.key();
    reader.expect(':');
    if (key === 'ngrams') break;
    header[key] = reader.value();
    reader.expect(',');
  }
  const { type, languages } = header;
  if (typeof type !== 'string' || !isStringRecord(languages)) reader.fail('`type` and `languages` before `ngrams`');
  return {
    type,
    languages,
    *ngrams() {
      reader.expect('{');
      if (reader.skip('}')) return reader.end();
      do {
        const ngram = reader.key();
        reader.expect(':');
        const scores = reader.value();
        if (!isNumberRecord(scores)) reader.fail("an n-gram's scores");
        yield [ngram, scores];
      } while (reader.skip(','));
      reader.expect('}');
      reader.end();
    },
  };
}

class LiteralReader {
  /** Where the next backslash at or after `backslashFrom` is (-1: none): backslashes are rare, strings many. */
  #backslash = -1;
  #backslashFrom = Infinity;

  constructor(
    private readonly text: string,
    private at: number,
    private readonly name: string,
  ) {}

  fail(expected: string): never {
    throw new Error(`${this.name}: not in the shape eld generates (expected ${expected} at character ${this.at})`);
  }

  expect(character: string): void {
    if (!this.skip(character)) this.fail(`\`${character}\``);
  }

  /** Steps over `character` (and the white space before it) if it comes next. */
  skip(character: string): boolean {
    while (isSpace(this.text.charCodeAt(this.at))) this.at++;
    if (this.text[this.at] !== character) return false;
    this.at++;
    return true;
  }

  /** The literal's closing brace and its statement's end. */
  end(): void {
    this.expect('}');
    this.skip(';');
    if (this.text.slice(this.at).trim() !== '') this.fail('the end of the module');
  }

  key(): string {
    while (isSpace(this.text.charCodeAt(this.at))) this.at++;
    const start = this.at;
    let key: string | undefined;
    if (this.text[this.at] === "'") key = this.string();
    else {
      BARE_KEY.lastIndex = this.at;
      key = BARE_KEY.exec(this.text)?.[0];
      if (key === undefined) this.fail('a key');
      this.at += key.length;
    }
    if (key === '__proto__') {
      // Assigned, it would replace an object's prototype instead of adding a key.
      this.at = start;
      this.fail('a key other than `__proto__`');
    }
    return key;
  }

  value(): unknown {
    if (this.skip('{')) return this.objectRest();
    if (this.text[this.at] === "'") return this.string();
    if (this.text.startsWith('true', this.at) || this.text.startsWith('false', this.at)) {
      const value = this.text[this.at] === 't';
      this.at += value ? 4 : 5;
      return value;
    }
    INTEGER.lastIndex = this.at;
    const digits = INTEGER.exec(this.text)?.[0];
    if (digits === undefined) this.fail('a value');
    this.at += digits.length;
    return Number(digits);
  }

  /** An object whose `{` was read. */
  private objectRest(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    if (this.skip('}')) return object;
    do {
      const key = this.key();
      this.expect(':');
      object[key] = this.value();
    } while (this.skip(','));
    this.expect('}');
    return object;
  }

  /** The first backslash at or after `from`, found again only once `from` has passed the last one found. */
  private nextBackslash(from: number): number {
    if (from < this.#backslashFrom || (this.#backslash >= 0 && from > this.#backslash)) {
      this.#backslash = this.text.indexOf('\\', from);
      this.#backslashFrom = from;
    }
    return this.#backslash;
  }

  private string(): string {
    let text = '';
    let from = ++this.at;
    for (;;) {
      const quote = this.text.indexOf("'", from);
      const backslash = this.nextBackslash(from);
      if (quote < 0) this.fail("a closing `'`");
      if (backslash < 0 || quote < backslash) {
        text += this.text.slice(from, quote);
        this.at = quote + 1;
        return text;
      }
      const escaped = this.text[backslash + 1];
      this.at = backslash;
      if (escaped !== "'" && escaped !== '\\') this.fail("only `\\'` or `\\\\` as an escape");
      text += this.text.slice(from, backslash) + escaped;
      from = backslash + 2;
    }
  }
}

const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string');

const isNumberRecord = (value: unknown): value is NgramScores =>
  typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'number');
