/** Fixture documents grown past the worker-pool threshold, each still a valid document of its format. */
import type { Format } from '../../src/formats/format.js';
import { LARGE_DOCUMENT_CHARS } from '../../src/translation/translate-document.js';
import { findLanguage } from '../../src/languages.js';
import type { RequestedTarget } from '../../src/translation/translate-options.js';

/** `content` repeated (markdown, plain, html fragments) or nested (json) until it passes the threshold. */
export function pastThreshold(format: Format, content: string, chars = LARGE_DOCUMENT_CHARS + 1): string {
  const copies = Math.ceil(chars / content.length) + 1;
  // A locale file grows by entries of its own kind, each with its own key (a repeated file
  // would repeat its header and keys, which is not one file any more).
  const entries = (entry: (n: number) => string) => Array.from({ length: Math.ceil(chars / entry(0).length) + 1 }, (_, n) => entry(n)).join('');
  if (format === 'po') return content + entries((n) => `\nmsgid "Line number ${n} of the grown file."\nmsgstr ""\n`);
  if (format === 'properties') return content + entries((n) => `line.${n} = Line number ${n} of the grown file.\n`);
  if (format === 'yaml') return content + entries((n) => `  line_${n}: Line number ${n} of the grown file.\n`);
  if (format === 'xliff') {
    const units = entries((n) => `      <trans-unit id="line${n}">\n        <source>Line number ${n} of the grown file.</source>\n      </trans-unit>\n`);
    return content.replace('    </body>', `${units}    </body>`);
  }
  if (format === 'android') {
    return content.replace('</resources>', `${entries((n) => `    <string name="line_${n}">Line number ${n} of the grown file.</string>\n`)}</resources>`);
  }
  if (format === 'arb') return content.replace(/\n}\n?$/, `${entries((n) => `,\n  "line${n}": "Line number ${n} of the grown file."`)}\n}\n`);
  if (format === 'strings') return content + entries((n) => `\n"line.${n}" = "Line number ${n} of the grown file.";\n`);
  if (format === 'stringsdict') {
    const rules = entries(
      (n) =>
        `\t<key>line${n}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>Line ${n} holds %#@files@.</string>\n\t\t<key>files</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d file</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%d files</string>\n\t\t</dict>\n\t</dict>\n`,
    );
    return content.replace(/<\/dict>\n<\/plist>/, `${rules}</dict>\n</plist>`);
  }
  if (format === 'xcstrings') return content.replace('"strings" : {\n', `"strings" : {\n${entries((n) => `    "Line number ${n} of the grown file." : {\n\n    },\n`)}`);
  if (format === 'json') return `{\n"copies": [\n${Array.from({ length: copies }, () => content.trim()).join(',\n')}\n]\n}\n`;
  const separator = format === 'html' ? '\n' : '\n\n';
  return Array.from({ length: copies }, () => content).join(separator);
}

export function targets(...codes: string[]): RequestedTarget[] {
  return codes.map((code) => ({ requested: code, language: findLanguage(code)! }));
}
