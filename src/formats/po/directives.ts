/**
 * The format directives gettext's `msgfmt -c` checks in an entry marked `#, c-format`,
 * `#, python-format`, `#, php-format`, `#, python-brace-format` or `#, qt-format`, by
 * its rules (GNU gettext manual, "Format Strings"): each must come back unchanged, so
 * each is kept as a mark. The general placeholder scanner would miss some (`%'d`, `%r`,
 * `%(speed)sx`, `%C`, `{code_point:X}`) and read others in plain words.
 */

const DIRECTIVES: Readonly<Record<string, RegExp>> = {
  'c-format': /%(?:\d+\$)?[-+ #0'I]*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d+|\*(?:\d+\$)?))?(?:hh|h|ll|l|L|q|j|z|Z|t)?[diouxXeEfFgGaAcsCSpnm%]|%<PRI[diouxX](?:8|16|32|64|LEAST\d+|FAST\d+|MAX|PTR)>/g,
  'python-format': /%(?:\([^)]*\))?[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[hlL]?[diouxXeEfFgGcrsab%]/g,
  'php-format': /%(?:\d+\$)?(?:[-+ 0]|'.)*\d*(?:\.\d+)?[bcdeEfFgGosuxX%]/g,
  'python-brace-format': /\{\{|\}\}|\{[A-Za-z0-9_]*(?:\.[A-Za-z_]\w*|\[[^\]{}]*\])*(?:![rsa])?(?::[^{}]*(?:\{[^{}]*\}[^{}]*)*)?\}/g,
  'qt-format': /%L?\d{1,2}/g,
  'qt-plural-format': /%L?\d{1,2}|%n/g,
  'kde-format': /%\d{1,2}/g,
  'scheme-format': /~[0-9,'#@:vV]*[A-Za-z%&|~^*?<>()[\]{};]/g,
  'lisp-format': /~[0-9,'#@:vV]*[A-Za-z%&|~^*?<>()[\]{};\n]/g,
  'java-format': /\{[^{}]*\}/g,
  'java-printf-format': /%(?:\d+\$|<)?[-#+ 0,(]*\d*(?:\.\d+)?[bBhHsScCdoxXeEfgGaAtT%n]/g,
  'csharp-format': /\{\{|\}\}|\{\d+(?:,-?\d+)?(?::[^{}]*)?\}/g,
  'perl-brace-format': /\{\w+\}/g,
  'sh-format': /\$(?:\{\w+\}|\w+)/g,
  'ycp-format': /%\d|%%/g,
  'smalltalk-format': /%\d+|%%/g,
  'object-pascal-format': /%(?:\d+:)?-?\d*(?:\.\d+)?[dDeEfFgGmMnNpPsSuUxX%]/g,
  'javascript-format': /%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?[sdifjoOcxX%]/g,
  'boost-format': /%(?:\d+%|[-+ #0]*\d*(?:\.\d+)?[a-zA-Z%]|\|[^|]*\|)/g,
  'lua-format': /%[-+ #0]*\d*(?:\.\d+)?[diouxXeEfgGcsq%]/g,
};

/**
 * Any other format gettext names (`perl-format`, `tcl-format`, `awk-format`,
 * `librep-format`, `elisp-format`, `gcc-internal-format`, …): printf directives and braces,
 * a superset of what each checks. A mark too many costs nothing; one too few breaks msgfmt.
 */
const OTHER_FORMAT = /%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[a-zA-Z%]|\{\w*\}|~[0-9,'#@:]*[A-Za-z%&|~^*?<>()[\]{};]/g;

/** The flags of an entry that name a checked format, as the keys above. */
export function checkedFormats(flags: readonly string[]): string[] {
  return flags.filter((flag) => flag.endsWith('-format') && !flag.startsWith('no-'));
}

/** The directives of `text` for the entry's format flags, as sorted, disjoint `[start, end]` pairs. */
export function directiveSpans(text: string, formats: readonly string[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const format of formats) {
    const pattern = DIRECTIVES[format] ?? OTHER_FORMAT;
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) spans.push([match.index, match.index + match[0].length]);
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const disjoint: [number, number][] = [];
  for (const span of spans) {
    const last = disjoint[disjoint.length - 1];
    if (last && span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
    else disjoint.push(span);
  }
  return disjoint;
}
