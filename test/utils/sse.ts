import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** What an event stream carried: each `data:` parsed as JSON, and the comments (heartbeats). */
export interface ReadStream {
  events: any[];
  comments: string[];
}

/**
 * Reads a `text/event-stream` body with eventsource-parser until it ends, or until `stopAfter`
 * says so (then the request is aborted through `abort`, as a client that leaves would).
 */
export async function readEventStream(
  response: Response,
  options: { stopAfter?: (events: any[]) => boolean; abort?: AbortController } = {},
): Promise<ReadStream> {
  const read: ReadStream = { events: [], comments: [] };
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => read.events.push(JSON.parse(message.data)),
    onComment: (comment) => read.comments.push(comment),
  });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (options.stopAfter?.(read.events)) {
        options.abort?.abort();
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  } catch (error) {
    if (!options.abort?.signal.aborted) throw error;
  }
  return read;
}
