/**
 * Server-Sent Events off a fetch answer (the WHATWG event-stream format: `event:` and
 * `data:` lines, blocks ended by a blank line, `:` comments), as they arrive. Only what
 * translate-service sends is needed: one `data:` line of JSON per event.
 */

export interface RawEvent {
  readonly event: string;
  readonly data: string;
}

/** Yields each complete event of `body`; a stream cut mid-event ends without it. */
export async function* readServerEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<RawEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length > 0) yield { event, data: data.join('\n') };
      }
    }
  } finally {
    // Leaving the loop early (break, an error) closes the connection: the service cancels the rest.
    await reader.cancel().catch(() => {});
  }
}
