/**
 * Level 1 of answer checking (docs/engine-notes.md b5): turn what the model wrote into a JSON
 * value without spending another call. Models that ignore "JSON only" wrap the answer in
 * code fences or put a sentence before it; a reply cut at the output limit ends
 * mid-string. Fences are stripped, the text is sliced from the first `{`, and when
 * `JSON.parse` fails, `jsonrepair` closes truncated JSON and fixes trailing commas.
 */
import { jsonrepair } from 'jsonrepair';

const FENCED = /```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)(?:```|$)/;

/** The JSON value in `text`, or undefined when nothing usable is there. */
export function parseAnswerText(text: string): unknown {
  let body = text.trim();
  const fenced = FENCED.exec(body);
  if (fenced?.[1] !== undefined && fenced[1].includes('{')) body = fenced[1];
  const start = body.indexOf('{');
  if (start < 0) return undefined;
  body = body.slice(start);
  const end = body.lastIndexOf('}');
  const candidates = end >= 0 ? [body.slice(0, end + 1), body] : [body];
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next candidate, then repair
    }
  }
  try {
    return JSON.parse(jsonrepair(body));
  } catch {
    return undefined;
  }
}
