/**
 * YAML (docs/formats.md "yaml"): every answer parses (the `yaml` package, YAML 1.2) to
 * the source's structure with the strings translated, is byte-exact under pseudo
 * outside the translated scalars and the root language key, and gives Rails plural
 * hashes the target's categories.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { ServiceError } from '../../src/errors.js';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { pseudoRender, unpseudo } from './helpers.js';
import { toolkitRubyYaml } from './yaml-judges.js';

const RAILS = `# Storefront strings
en:
  checkout:
    pay_button: Pay # the main button
    title: "Your \\"cart\\""
    note: 'It''s safe'
    long: This sentence is long and
      runs over two lines.
    body: |
      First line.
      Second line.
    folded: >-
      Folded text
      on two lines.
    symbol: :year
    url: https://example.com
    yes_word: OK
  cart:
    items:
      one: "%{count} item"
      other: "%{count} items"
    zero_items:
      zero: No items
      one: One item
      other: "%{count} items"
  defaults: &defaults
    save: Save
  copy:
    <<: *defaults
  list: [Red, Green, Blue]
`;

// Plural hashes whose forms are folded over two lines, as Rails locale files write long
// messages (plain, single quoted, and one with a blank line, which YAML reads as a line feed).
const FOLDED_FORMS = `en:
  activerecord:
    errors:
      template:
        header:
          one: One problem kept this %{model} from being stored, so it was
            not written
          other: '%{count} problems kept this %{model} from being stored, so it
            was not written'
        body: 'Please look at these fields:'
        notice:
          one: Your note was saved
          other: Your %{count} notes were saved and
            sent to the team.

            Thank you
`;
const FOLDED_CZECH_SHAPE = `cs:
  errors:
    template:
      header:
        one: Záznam %{model} nebyl uložen, protože v něm zůstala jedna chyba, kterou
          je třeba opravit
        few: Záznam %{model} nebyl uložen, protože v něm zůstaly %{count} chyby, které
          je třeba opravit
        other: Záznam %{model} nebyl uložen, protože v něm zůstalo %{count} chyb, které
          je třeba opravit
`;
const CANONICAL = ['zero', 'one', 'two', 'few', 'many', 'other'];

const strip = (value: unknown): unknown =>
  typeof value === 'string'
    ? unpseudo(value)
    : Array.isArray(value)
      ? value.map(strip)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v)]))
        : value;

const DE = { code: 'de', rtl: false };
const RU = { code: 'ru', rtl: false };
const JA = { code: 'ja', rtl: false };
const PL = { code: 'pl', rtl: false };
const AR = { code: 'ar', rtl: true };

describe('yaml', () => {
  const doc = getAdapter('yaml').extract(RAILS);

  it('translates string values, not keys, comments, symbols or URLs', () => {
    const texts = doc.segments.map((s) => s.text).join(' | ');
    assert.match(texts, /Pay/);
    assert.doesNotMatch(texts, /pay_button|checkout|main button|:year|example\.com/);
  });

  it('answers YAML that reads back as the source with the strings translated and the root key the target', () => {
    const answer = pseudoRender(doc, DE);
    const source = parse(RAILS) as { en: unknown };
    const read = parse(answer) as { de: unknown };
    assert.deepEqual(strip(read.de), source.en);
    assert.equal((read.de as { checkout: { pay_button: string } }).checkout.pay_button, 'Ṗáý');
  });

  it('gives the target code to a root key of a language the API does not list, and names it as the source (decision 0102)', () => {
    const catalan = getAdapter('yaml').extract('ca:\n  checkout:\n    pay: Paga ara\n');
    assert.equal(catalan.sourceLanguage, 'ca');
    assert.deepEqual(parse(pseudoRender(catalan, DE)), { de: { checkout: { pay: 'Ṗáĝá áŕá' } } });
    assert.equal(getAdapter('yaml').extract('pt_BR:\n  pay: Pagar\n').sourceLanguage, 'pt_BR');
    assert.equal(doc.sourceLanguage, 'en');
  });

  it('keeps a single root key that is a word, not a language (app:, admin:)', () => {
    for (const root of ['app', 'admin', 'messages']) {
      const file = getAdapter('yaml').extract(`${root}:\n  pay: Pay now\n`);
      assert.equal(file.sourceLanguage, undefined);
      assert.deepEqual(Object.keys(parse(pseudoRender(file, DE)) as object), [root]);
    }
  });

  it('is byte-exact outside the translated scalars (styles, comments, anchors, multi-line layout)', () => {
    assert.equal(byteExactProblem(doc, DE), undefined);
    assert.match(pseudoRender(doc, DE), /^    long: Ţĥíš šéñţéñçé íš ļöñĝ áñḋ\n      ŕüñš öṽéŕ ţŵö ļíñéš\.$/m);
  });

  it('quotes a translation that plain style would read as another type or as syntax', () => {
    const answer = getAdapter('yaml').extract('a: Fine\nb: Other\n').render(['yes', 'key: value # not a comment'], DE);
    assert.equal(answer, 'a: "yes"\nb: "key: value # not a comment"\n');
    assert.deepEqual(parse(answer), { a: 'yes', b: 'key: value # not a comment' });
  });

  it('keeps plain a translation whose colon or hash sits beside a no-break space, which YAML does not count as white space', () => {
    // French typography puts U+202F / U+00A0 around `:`; only a space or tab after `:` (or before `#`) is syntax.
    const source = 'fr:\n  invalid: La validation a échoué\u202f:\u202f%{errors}\n  tag: Étiquette\u00a0#1\n';
    const french = getAdapter('yaml').extract(source);
    assert.equal(byteExactProblem(french, DE), undefined);
    const answer = french.render(['Échec\u202f:\u202f<x1/>', 'N°\u00a0#2'], DE);
    assert.equal(answer, 'de:\n  invalid: Échec\u202f:\u202f%{errors}\n  tag: N°\u00a0#2\n');
    assert.deepEqual(parse(answer), { de: { invalid: 'Échec\u202f:\u202f%{errors}', tag: 'N°\u00a0#2' } });
    // A real space after the colon is syntax: that translation is quoted.
    assert.equal(french.render(['Échec\u202f: <x1/>', 'N°'], DE), 'de:\n  invalid: "Échec\u202f: %{errors}"\n  tag: N°\n');
  });

  it('keeps the layout of a multi-line plain scalar whose later line starts with an indicator character (% - ? & * ! |)', () => {
    // An indicator only matters at a scalar's first character; a continuation line may start with one.
    const source = 'en:\n  errors:\n    dependent: Cannot delete the record because a dependent\n      %{record} exists\n    list: First part\n      - second part\n';
    const doc = getAdapter('yaml').extract(source);
    assert.equal(byteExactProblem(doc, AR), undefined);
    const answer = pseudoRender(doc, AR);
    assert.match(answer, /\n {4}dependent: [^"\n]+\n {6}%\{record\} [^"\n]+\n {4}list: [^"\n]+\n {6}- [^"\n]+\n$/);
    assert.deepEqual(strip(parse(answer)), { ar: parse(source).en });
    // A continuation line that would start a comment still makes the scalar quoted.
    const hashed = getAdapter('yaml').extract('a: First part\n  second part\n').render(['First part<x1/>#second part'], DE);
    assert.deepEqual(parse(hashed), { a: 'First part #second part' });
  });

  it('gives a plural hash exactly the target categories, keeping zero, inserting before other', () => {
    const ru = parse(pseudoRender(doc, RU)) as { ru: { cart: { items: Record<string, string>; zero_items: Record<string, string> } } };
    assert.deepEqual(Object.keys(ru.ru.cart.items), ['one', 'few', 'many', 'other']);
    assert.deepEqual(Object.keys(ru.ru.cart.zero_items), ['zero', 'one', 'few', 'many', 'other']);
    const ja = parse(pseudoRender(doc, JA)) as { ja: { cart: { items: Record<string, string>; zero_items: Record<string, string> } } };
    assert.deepEqual(Object.keys(ja.ja.cart.items), ['other']);
    assert.deepEqual(Object.keys(ja.ja.cart.zero_items), ['zero', 'other']);
    const ar = parse(pseudoRender(doc, AR)) as { ar: { cart: { items: Record<string, string> } } };
    // (§5: a kept category keeps its place; the missing ones go just before other, in canonical order.)
    assert.deepEqual(Object.keys(ar.ar.cart.items), ['one', 'zero', 'two', 'few', 'many', 'other']);
    assert.match(pseudoRender(doc, RU), /\n {6}one: "%\{count\} íţéṁ"\n {6}few: "%\{count\} íţéṁš"\n {6}many: "%\{count\} íţéṁš"\n {6}other: "%\{count\} íţéṁš"\n/);
  });

  it('gives a plural hash whose forms are folded over lines exactly the target categories, read alike by the yaml package and translate-toolkit', () => {
    const folded = getAdapter('yaml').extract(FOLDED_FORMS);
    const source = (parse(FOLDED_FORMS) as { en: { activerecord: { errors: { template: Record<string, Record<string, string>> } } } }).en.activerecord.errors.template;
    for (const target of [AR, RU, PL, JA, DE]) {
      const answer = pseudoRender(folded, target);
      const read = (strip(parse(answer)) as Record<string, typeof source>)[target.code]!;
      const hashes = (read as unknown as { activerecord: { errors: { template: Record<string, Record<string, string>> } } }).activerecord.errors.template;
      // (translate-toolkit once per set of categories: it takes a second to start.)
      const toolkit = target === PL || target === DE ? undefined : toolkitRubyYaml(answer);
      for (const name of ['header', 'notice']) {
        const hash = hashes[name]!;
        const wanted = new Intl.PluralRules(target.code).resolvedOptions().pluralCategories;
        assert.deepEqual(Object.keys(hash).sort(), [...wanted].sort(), `${target.code} ${name}`);
        // A kept form reads as its source; a new one as the source's other.
        for (const [category, text] of Object.entries(hash)) assert.equal(text, source[name]![category] ?? source[name]!.other, `${target.code} ${name} ${category}`);
        if (!toolkit) continue;
        const forms = toolkit[`activerecord->errors->template->${name}`]!.map(unpseudo);
        assert.deepEqual(forms, CANONICAL.filter((category) => category in hash).map((category) => hash[category]), `${target.code} ${name} (translate-toolkit)`);
      }
    }
  });

  it('keeps the line breaks of folded plural forms byte for byte and writes a new form on one line (decision 0112)', () => {
    const folded = getAdapter('yaml').extract(FOLDED_FORMS);
    assert.equal(byteExactProblem(folded, DE), undefined);
    assert.equal(byteExactProblem(folded, AR), undefined);
    const german = pseudoRender(folded, DE);
    assert.match(german, /\n {10}one: [^'"\n]+ ŵáš\n {12}ñöţ ŵŕíţţéñ\n {10}other: '%\{count\} [^'\n]+ íţ\n {12}ŵáš ñöţ ŵŕíţţéñ'\n/);
    assert.match(german, /\n {10}other: Ýöüŕ %\{count\} ñöţéš ŵéŕé šáṽéḋ áñḋ\n {12}šéñţ ţö ţĥé ţéáṁ\.\n\n {12}Ţĥáñķ ýöü\n$/);
    const russian = pseudoRender(folded, RU);
    assert.match(russian, /\n {10}many: '%\{count\} [^'\n]+ ŵáš ñöţ ŵŕíţţéñ'\n {10}other: '/);
    assert.match(russian, /\n {10}many: "Ýöüŕ %\{count\} [^"\n]+ ţéáṁ\.\\nŢĥáñķ ýöü"\n {10}other: Ýöüŕ/);
    // Czech's one, few and other into Slovak (which also counts many) and Japanese (only other).
    const czech = getAdapter('yaml').extract(FOLDED_CZECH_SHAPE);
    assert.equal(byteExactProblem(czech, { code: 'sk', rtl: false }), undefined);
    assert.deepEqual(Object.keys((parse(pseudoRender(czech, { code: 'sk', rtl: false })) as { sk: { errors: { template: { header: object } } } }).sk.errors.template.header), ['one', 'few', 'many', 'other']);
    assert.match(pseudoRender(czech, JA), /^ja:\n  errors:\n    template:\n      header:\n        other: [^\n]+ķţéŕé\n          ĵé ţřéḃá öṗŕáṽíţ\n$/);
  });

  it('leaves out of every target the earlier of a plural category written twice, which Ruby never reads (decision 0113)', () => {
    const source = 'en:\n  minutes:\n    one: "%{count} minute"\n    other: "%{count} minutes"\n    one: a minute\n';
    assert.throws(() => parse(source), /unique/);
    const twice = getAdapter('yaml').extract(source);
    assert.equal(byteExactProblem(twice, RU), undefined);
    for (const target of [RU, JA, DE]) {
      const answer = pseudoRender(twice, target);
      const read = strip(parse(answer)) as Record<string, { minutes: Record<string, string> }>;
      assert.deepEqual(Object.keys(read[target.code]!.minutes).sort(), [...new Intl.PluralRules(target.code).resolvedOptions().pluralCategories].sort(), target.code);
      if (target !== JA) assert.equal(read[target.code]!.minutes.one, 'a minute');
    }
    assert.equal(pseudoRender(twice, DE), 'de:\n  minutes:\n    other: "%{count} ṁíñüţéš"\n    one: á ṁíñüţé\n');
  });

  it('refuses YAML that does not parse with invalid_request naming the line', () => {
    assert.throws(
      () => getAdapter('yaml').extract('en:\n  a: "open\n  b: x\n  c: [1, 2\n'),
      (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && /line \d+/.test(error.message),
    );
  });

  it('reads aliases without expanding them (a billion laughs costs nothing)', () => {
    const laughs = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    const started = performance.now();
    const laughing = getAdapter('yaml').extract(laughs.join('\n') + '\n');
    assert.ok(performance.now() - started < 2000);
    assert.equal(laughing.segments.length, 9);
  });
});
