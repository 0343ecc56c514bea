import { getAdapter } from './src/formats/index.js';
const cases: [string, any, string][] = [
  ['deep yaml flow', 'yaml', 'a: ' + '['.repeat(200000)],
  ['deep yaml block', 'yaml', Array.from({ length: 3000 }, (_, i) => ' '.repeat(i) + 'k:').join('\n') + ' v\n'],
  ['2MiB po entry', 'po', 'msgid "' + 'word '.repeat(400000) + '"\nmsgstr ""\n'],
  ['2MiB properties', 'properties', 'k=' + 'word '.repeat(400000) + '\n'],
  ['many continuations', 'properties', 'k=' + 'word \\\n'.repeat(200000) + '\n'],
  ['2MiB yaml', 'yaml', 'k: ' + 'word '.repeat(400000) + '\n'],
  ['deep xml', 'xliff', '<xliff version="1.2">' + '<g>'.repeat(100000)],
  ['many units', 'xliff', '<xliff version="1.2"><file><body>' + '<trans-unit id="a"><source>Hello</source></trans-unit>'.repeat(40000) + '</body></file></xliff>'],
  ['many po', 'po', 'msgid "Hello"\nmsgstr ""\n\n'.repeat(80000)],
];
for (const [name, format, content] of cases) {
  const t = performance.now();
  try { const d = getAdapter(format).extract(content); d.render(d.segments.map((s) => s.text), { code: 'ru', rtl: false }); console.log(name, 'ok', d.segments.length, (performance.now() - t).toFixed(0), 'ms'); }
  catch (e: any) { console.log(name, e.code ?? e.constructor.name, e.message.slice(0, 120), (performance.now() - t).toFixed(0), 'ms'); }
}
