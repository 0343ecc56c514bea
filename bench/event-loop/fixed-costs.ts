/**
 * The main-thread steps of a large request that are not sliced (docs/event-loop.md, "What is
 * not sliced"): the body's chunks joined and decoded, JSON.parse of it, the document handed
 * to its worker (postMessage clones it), the answer stringified and encoded as UTF-8, and a
 * render's message (one target's translations, an array of strings). Each
 * figure is CPU time (process.cpuUsage: this process's threads, the idle worker's nothing),
 * the median of 7, so a loaded machine changes it less than it changes wall time.
 * Run: npx tsx bench/event-loop/fixed-costs.ts
 */
import { Worker } from 'node:worker_threads';

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const median = (step: () => unknown): number => {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const before = cpuMs();
    step();
    times.push(cpuMs() - before);
  }
  return times.sort((a, b) => a - b)[3]!;
};
const repeatTo = (unit: (i: number) => string, chars: number): string => {
  const parts: string[] = [];
  for (let i = 0, size = 0; size < chars; i++) {
    parts.push(unit(i));
    size += parts.at(-1)!.length;
  }
  return parts.join('');
};
const pseudo = (text: string) => text.replace(/[a-z]/g, (letter) => (letter + '\u0301').normalize('NFC'));

const documents: Record<string, string> = {
  'unclosed <p> text (1.3 MB)': repeatTo((i) => `<p>text ${i} `, 1_300_000),
  'title attributes (1.6 MB)': repeatTo((i) => `<a title="Open the page number ${i}">`, 1_600_000),
  'huge HTML comment (1.8 MB)': `<!-- ${repeatTo((i) => `note ${i} `, 1_800_000)} -->`,
  'quoted lines, escapes (2 MiB body)': repeatTo((i) => `"q${i}"\n`, 1_600_000),
};

const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => {})', { eval: true });
await new Promise((started) => worker.once('online', started));
const rows = [];
for (const [name, content] of Object.entries(documents)) {
  const body = Buffer.from(JSON.stringify({ content, targets: ['fr'] }));
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += 64 * 1024) chunks.push(body.subarray(at, at + 64 * 1024));
  const text = body.toString('utf8');
  const translated = pseudo(content);
  const answer = JSON.stringify({ translations: { fr: translated } });
  rows.push({
    document: name,
    'body MiB': Math.round((body.length / 2 ** 20) * 100) / 100,
    'join + decode ms': median(() => Buffer.concat(chunks).toString('utf8')).toFixed(1),
    'JSON.parse ms': median(() => JSON.parse(text)).toFixed(1),
    'postMessage ms': median(() => worker.postMessage({ content })).toFixed(1),
    'answer MB': Math.round(Buffer.byteLength(answer) / 1e5) / 10,
    'stringify ms': median(() => JSON.stringify({ translations: { fr: translated } })).toFixed(1),
    'encode ms': median(() => Buffer.from(answer)).toFixed(1),
  });
}
// A render's message: one target's translations as an array of short strings.
const renders = [100_000, 200_000].map((count) => {
  const translations = Array.from({ length: count }, (_, i) => pseudo(`text ${i} `));
  return { translations: count, 'postMessage ms': median(() => worker.postMessage({ translations })).toFixed(1) };
});
await worker.terminate();
console.table(rows);
console.table(renders);
console.log(`load average: ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim()}`);
