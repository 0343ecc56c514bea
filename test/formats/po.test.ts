/**
 * gettext PO (docs/formats.md "po"): every answer passes `msgfmt -c` (GNU gettext's own
 * checker), is byte-exact under pseudo outside the msgstr strings and the header's
 * language lines, and has the target's gettext plural forms.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { ServiceError } from '../../src/errors.js';
import { byteExactProblem } from './byte-exact.js';
import { pseudoRender, unpseudo } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'po-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `msgfmt -c`'s complaint about `content`, or '' when it accepts it. */
export function msgfmtProblem(content: string): string {
  const path = join(dir, 'answer.po');
  writeFileSync(path, content);
  try {
    execFileSync('msgfmt', ['-c', '-o', '/dev/null', path], { stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

const TEMPLATE = `# Translations template for Shop.
# This file is distributed under the same license as the Shop project.
#
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: Shop 1.0\\n"
"Report-Msgid-Bugs-To: dev@example.com\\n"
"POT-Creation-Date: 2026-11-01 10:00+0000\\n"
"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"
"Language-Team: LANGUAGE <LL@li.org>\\n"
"Language: \\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=CHARSET\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"

#. Shown on the checkout page's main button.
#: shop/checkout.py:42
msgctxt "button"
msgid "Pay"
msgstr ""

#: shop/cart.py:10
#, python-format
msgid "%(name)s added %(count)d item to the cart."
msgid_plural "%(name)s added %(count)d items to the cart."
msgstr[0] ""
msgstr[1] ""

#: shop/help.c:7
#, c-format
msgid ""
"Usage: shop [OPTION]... %s\\n"
"Read %'d of %'d lines...\\n"
msgstr ""

#~ msgid "Old string"
#~ msgstr "Alte Zeichenkette"
`;

const RU = { code: 'ru', rtl: false };
const AR = { code: 'ar', rtl: true };
const JA = { code: 'ja', rtl: false };
const PT_BR = { code: 'pt-BR', rtl: false };

describe('po', () => {
  const doc = getAdapter('po').extract(TEMPLATE);

  it('translates msgid and msgid_plural, not msgctxt, comments, flags or obsolete entries', () => {
    const texts = doc.segments.map((s) => s.text);
    assert.ok(texts.includes('Pay'), texts.join(' | '));
    assert.ok(texts.some((t) => t.includes('added') && t.includes('items')), texts.join(' | '));
    assert.ok(!texts.some((t) => /button|Old string|checkout|Shop 1.0/.test(t)), texts.join(' | '));
  });

  for (const target of [RU, AR, JA, PT_BR]) {
    it(`answers a catalog msgfmt -c accepts, byte-exact outside msgstr, for ${target.code}`, () => {
      const answer = pseudoRender(doc, target);
      assert.equal(msgfmtProblem(answer), '');
      assert.equal(byteExactProblem(doc, target), undefined);
    });
  }

  it('writes the target language and its gettext plural rule into the header', () => {
    const answer = pseudoRender(doc, PT_BR);
    assert.match(answer, /^"Language: pt_BR\\n"$/m);
    assert.match(answer, /^"Plural-Forms: nplurals=2; plural=\(n != 1\);\\n"$/m);
    assert.match(answer, /charset=UTF-8/);
    assert.match(answer, /^"Project-Id-Version: Shop 1.0\\n"$/m);
  });

  it('writes Russian three msgstr forms (whole numbers), Japanese one, each with the placeholders', () => {
    const ru = pseudoRender(doc, RU);
    assert.match(ru, /"Plural-Forms: nplurals=3; plural=/);
    const forms = [...ru.matchAll(/^msgstr\[(\d)\] "(.*)"$/gm)];
    assert.deepEqual(forms.map((m) => m[1]), ['0', '1', '2']);
    for (const form of forms) assert.match(form[2]!, /%\(name\)s .*%\(count\)d/);
    const ja = pseudoRender(doc, JA);
    assert.deepEqual([...ja.matchAll(/^msgstr\[(\d)\]/gm)].map((m) => m[1]), ['0']);
  });

  it('keeps the format directives msgfmt checks, and a multi-line message multi-line', () => {
    const answer = pseudoRender(doc, RU);
    assert.match(answer, /msgstr ""\n"Üšáĝé: šĥöṗ \[ÖṖŢÍÖÑ\]\.\.\. %s\\n"\n"Ŕéáḋ %'d öḟ %'d ļíñéš\.\.\.\\n"\n/);
    assert.ok(unpseudo(answer).includes('#~ msgid "Old string"\n#~ msgstr "Alte Zeichenkette"\n'));
  });

  it('translates an entry that already has a msgstr afresh, from its msgid', () => {
    const filled = getAdapter('po').extract('msgid "Save"\nmsgstr "Speichern"\n');
    assert.equal(pseudoRender(filled, RU), 'msgid "Save"\nmsgstr "Šáṽé"\n');
  });

  it('keeps CRLF line ends and writes new lines with them', () => {
    const crlf = TEMPLATE.replace(/\n/g, '\r\n');
    const answer = pseudoRender(getAdapter('po').extract(crlf), RU);
    assert.ok(!/[^\r]\n/.test(answer), 'a bare \\n in a CRLF file');
    assert.equal(msgfmtProblem(answer), '');
  });

  for (const [name, content, line] of [
    ['a keyword gettext does not know', 'msgid "a"\nmsgstr "b"\n\nmsgfoo "c"\n', 4],
    ['an unterminated string', 'msgid "a\nmsgstr "b"\n', 1],
    ['msgstr[1] without msgstr[0]', 'msgid "a"\nmsgid_plural "b"\nmsgstr[1] "c"\n', 3],
    ['a msgid with no msgstr', 'msgid "a"\n\nmsgid "b"\nmsgstr ""\n', 1],
  ] as const) {
    it(`refuses ${name} with invalid_request naming the line`, () => {
      assert.throws(
        () => getAdapter('po').extract(content),
        (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && error.message.includes(`line ${line}`),
      );
    });
  }
});
