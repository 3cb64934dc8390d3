/**
 * Streamed responses: server-sent events (sse-parser.ts) and JSON lines (json-lines.ts),
 * read item by item as an AsyncIterable (the iterator: stream-reader.ts). This file is the
 * Stream itself: what each event or line becomes, the stream's error item, validation.
 * Only the endpoints that stream bring this module: they hand `openStream` to `endpoint()`,
 * and the request loop (core.ts) calls it without importing it. Web Streams and TextDecoder
 * only: Node 18+, browsers, Deno, Bun and edge runtimes alike.
 */
import { declaredHeaders } from "./decode.js";
import { ClientError, StreamParseError } from "./errors.js";
import type { ResultState } from "./api-promise.js";
import { LineSplitter } from "./json-lines.js";
import type { Operation, StreamFailure, StreamSpec } from "./operation.js";
import { SseParser, type SseMessage } from "./sse-parser.js";
import { StreamReader, type ItemSource } from "./stream-reader.js";

export { SseParser, type SseMessage } from "./sse-parser.js";

/**
 * Called by the request loop for each call of a streaming endpoint: when the call streams
 * (always, or when the body's flag is true) sets `state.open`, which makes the Stream of the
 * success, and gives the headers to send over the descriptor's (the stream's Accept when a
 * flag chose it); undefined when the call gets the endpoint's other response.
 */
export function openStream(
  op: Operation,
  body: unknown,
  state: ResultState,
  signal: AbortSignal | undefined,
  limit: number,
  fail: StreamFailure,
): Record<string, string> | undefined {
  const spec = op.streaming;
  if (!spec) return undefined;
  if (spec.flag !== undefined && (body as Record<string, unknown> | null)?.[spec.flag] !== true)
    return undefined;
  state.open = (response) => new Stream(op, spec, response, signal, limit, fail);
  return spec.flag !== undefined && spec.accept ? { accept: spec.accept } : undefined;
}

/**
 * The items of a streamed response: `for await (const item of stream)`. It can be iterated
 * once; `break` out of the loop cancels the body, which closes the connection, and the
 * call's AbortSignal stops it mid-stream with a UserAbortError. An item the spec declares as
 * the stream's error (`error`: a key of its JSON, or its event name) is not yielded: the
 * iteration throws the API's error for it, after the items before it, and lets go of the body.
 */
export class Stream<Item, H = Record<string, never>>
  implements AsyncIterable<Item>, ItemSource<Item>
{
  /** The response; its body is what the iteration reads. */
  readonly response: Response;
  readonly status: number;
  /** The headers the spec declares, by their spec name, parsed by their type. */
  readonly headers: H;
  private used = false;
  private parser: SseParser | undefined;
  private lines: LineSplitter | undefined;
  /** Items read so far: the index of the next one, for error messages. */
  private index = 0;
  /** The top-level key that makes an item's JSON the stream's error (spec `error.field`). */
  private readonly errorField: string | undefined;
  /** Checks each JSON item, when the client validates responses (response-validation.ts); may throw. */
  check?: (value: unknown, index: number, event: string | undefined) => void;

  constructor(
    private readonly op: Operation,
    private readonly spec: StreamSpec,
    response: Response,
    private readonly signal: AbortSignal | undefined,
    private readonly limit: number,
    private readonly fail?: StreamFailure,
  ) {
    this.response = response;
    this.status = response.status;
    this.headers = declaredHeaders(op.responseHeaders, response.headers) as H;
    this.errorField = spec.error?.field;
  }

  /** The last event ID a server-sent event stream has set (`id:`), for resuming it. */
  get lastEventId(): string | undefined {
    return this.parser?.lastEventId || undefined;
  }

  /** The reconnection time a server-sent event stream asked for (`retry:`), in ms. */
  get retry(): number | undefined {
    return this.parser?.retry;
  }

  [Symbol.asyncIterator](): AsyncIterator<Item> {
    if (this.used)
      throw new ClientError(`${this.op.id}: a stream can be iterated only once`, this.op.id);
    this.used = true;
    if (this.spec.format === "sse") this.parser = new SseParser(this.limit);
    return new StreamReader(this, this.op, this.response.body?.getReader(), this.signal);
  }

  /**
   * For the stream's iterator (StreamReader): the items of one decoded piece of the body appended to `out`, in order; the last
   * piece (`done`) also ends the parse. Returns "end" at the terminator. An item that cannot
   * be read throws after the items before it are in `out`.
   */
  read(text: string, done: boolean, out: Item[]): "end" | undefined {
    const { spec, parser } = this;
    const texts: string[] = [];
    const events: SseMessage[] = [];
    try {
      if (parser) parser.feed(text, events);
      else {
        this.lines ??= new LineSplitter(this.limit);
        this.lines.feed(text, texts);
        if (done) this.lines.end(texts);
      }
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      const what = error.message === "data" ? "data field" : "line";
      throw new StreamParseError(
        this.op.id,
        `${parser ? "event" : "line"} ${this.index} has a ${what} over the ${this.limit}-character limit`,
        this.index,
      );
    }
    for (const message of events) {
      if (spec.terminator !== undefined && message.data === spec.terminator) return "end";
      out.push(this.event(message, this.index++));
    }
    for (const line of texts)
      if (line.trim()) out.push(this.item(line, this.index++, undefined) as Item);
    if (done && spec.terminator !== undefined)
      throw new StreamParseError(
        this.op.id,
        `the stream ended after ${this.index} event${this.index === 1 ? "" : "s"} without its terminator ${JSON.stringify(spec.terminator)}`,
        this.index,
      );
    return undefined;
  }

  /** The item of one server-sent event: its data alone, or, with named events, the event. */
  private event(message: SseMessage, index: number): Item {
    const { events, open, error } = this.spec;
    if (error?.event !== undefined && message.event === error.event)
      throw this.failure(message.data, tryJson(message.data), index);
    if (!events) return this.item(message.data, index, message.event) as Item;
    const { event, id } = message;
    const read = Object.prototype.hasOwnProperty.call(events, event) ? events[event] : undefined;
    let data: unknown;
    if (read) data = read === "text" ? message.data : this.item(message.data, index, event);
    else {
      // An event this version does not know: its data as JSON where it is JSON, else as
      // text; the stream's error item if it has its key, whatever the event's name.
      data = tryJson(message.data);
      if (this.errorField !== undefined && isErrorItem(data, this.errorField))
        throw this.failure(message.data, data, index);
      if (!open)
        throw new StreamParseError(
          this.op.id,
          `event ${index} (${JSON.stringify(event)}) is not an event the spec lists`,
          index,
          event,
        );
    }
    return (id ? { event, data, id } : { event, data }) as Item;
  }

  /**
   * One payload: the text parsed as JSON, or kept as text for a `string` payload. JSON with
   * the key of the stream's error item is that error, thrown.
   */
  private item(text: string, index: number, event: string | undefined): unknown {
    if (this.spec.text && !this.spec.events) return text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const what =
        this.spec.format === "sse"
          ? `event ${index} (${JSON.stringify(event)}) has data`
          : `line ${index} is text`;
      throw new StreamParseError(this.op.id, `${what} that is not JSON`, index, event);
    }
    if (this.errorField !== undefined && isErrorItem(value, this.errorField))
      throw this.failure(text, value, index);
    if (this.check) this.check(value, index, event);
    return value;
  }

  /**
   * The API's error of the error item `index` (its data `text`, parsed as `value`): thrown
   * with the status its data carries where the spec says it does, else the response's.
   */
  private failure(text: string, value: unknown, index: number): Error {
    const path = this.spec.error?.status;
    const carried = path ? valueAt(value, path) : undefined;
    const status =
      typeof carried === "number" && Number.isInteger(carried) && carried >= 100 && carried <= 599
        ? carried
        : this.status;
    if (this.fail) return this.fail(status, text, this.response.headers, index);
    return new ClientError(`${this.op.id}: stream item ${index} is the API's error`, this.op.id);
  }
}

/** Whether an item's JSON is the stream's error: an object with the key, not null. */
function isErrorItem(value: unknown, field: string): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.prototype.hasOwnProperty.call(value, field) &&
    (value as Record<string, unknown>)[field] != null
  );
}

/** The value at a dot path of a JSON value (own keys only), or undefined. */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const name of path) {
    if (typeof current !== "object" || current === null) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, name)) return undefined;
    current = (current as Record<string, unknown>)[name];
  }
  return current;
}

/** The text parsed as JSON, or the text itself when it is not JSON. */
function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
