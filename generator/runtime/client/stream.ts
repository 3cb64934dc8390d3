/**
 * Streamed responses: server-sent events (parsed exactly as the HTML standard's "event
 * stream interpretation" says) and JSON lines, read item by item as an AsyncIterable.
 * Only the endpoints that stream bring this module: they hand `openStream` to `endpoint()`,
 * and the request loop (core.ts) calls it without importing it. Web Streams and TextDecoder
 * only: Node 18+, browsers, Deno, Bun and edge runtimes alike.
 */
import { declaredHeaders } from "./decode.js";
import { ClientError, ConnectionError, StreamParseError, UserAbortError } from "./errors.js";
import type { ResultState } from "./api-promise.js";
import type { Operation, StreamFailure, StreamSpec } from "./operation.js";

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

/** One event as the SSE parser dispatches it. */
export interface SseMessage {
  /** The event type; `message` when the event names none. */
  event: string;
  data: string;
  /** The last event ID string at the dispatch; empty when none was set. */
  id: string;
}

const LF = 10;
const CR = 13;

/**
 * An incremental parser of `text/event-stream` text: feed it decoded text in pieces of any
 * size and it appends each dispatched event to `out`. Lines end at CRLF, LF or CR (a CR
 * ending one piece and an LF starting the next are one line end); a leading BOM is dropped.
 */
export class SseParser {
  /** The last event ID string (`id:` without NUL). */
  lastEventId = "";
  /** The reconnection time the stream asked for (`retry:` with digits only), in ms. */
  retry: number | undefined;
  /** Length of the line being read (without the partial text), against the size limit. */
  private partial = "";
  private skipLF = false;
  private started = false;
  private data = "";
  private hasData = false;
  private type = "";
  private idBuffer = "";

  constructor(
    /** Longest line or event data, in characters; longer is an error thrown by `feed`. */
    private readonly limit: number = Infinity,
  ) {}

  /** Parses a piece of the stream's text, appending the events it completes to `out`. */
  feed(text: string, out: SseMessage[]): void {
    let pos = this.started && !this.skipLF ? 0 : this.start(text);
    const n = text.length;
    // Next CR and LF at or after `pos`; -1 once there is none left in this piece.
    let cr = text.indexOf("\r", pos);
    let lf = text.indexOf("\n", pos);
    while (pos < n) {
      if (cr !== -1 && cr < pos) cr = text.indexOf("\r", pos);
      if (lf !== -1 && lf < pos) lf = text.indexOf("\n", pos);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) {
        this.partial += text.slice(pos);
        if (this.partial.length > this.limit) throw new RangeError("line");
        return;
      }
      if (this.partial) {
        const line = this.partial + text.slice(pos, end);
        this.partial = "";
        this.line(line, 0, line.length, out);
      } else this.line(text, pos, end, out);
      pos = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (pos === n) this.skipLF = true;
        else if (text.charCodeAt(pos) === LF) pos++;
      }
    }
  }

  /**
   * Where a piece is read from: past a leading BOM in the stream's first one, and past the
   * LF of a CRLF that the piece before ended inside. Kept out of `feed`: stores that happen
   * once a stream, inside the function whose loop reads every line, made V8 throw away its
   * optimized code at each new stream (bench/streams.ts).
   */
  private start(text: string): number {
    let pos = 0;
    if (!this.started && text.length) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) pos = 1;
    }
    if (this.skipLF && pos < text.length) {
      this.skipLF = false;
      if (text.charCodeAt(pos) === LF) pos++;
    }
    return pos;
  }

  /**
   * One line of the stream, `text` from `start` to `end` (read in place: this runs once per
   * line): a blank line dispatches, a comment is skipped, else a field.
   */
  private line(text: string, start: number, end: number, out: SseMessage[]): void {
    if (start === end) return this.dispatch(out);
    let colon = text.indexOf(":", start);
    if (colon === start) return;
    if (colon === -1 || colon > end) colon = end;
    let from = colon + 1;
    if (from < end && text.charCodeAt(from) === 32) from++;
    const value = from < end ? text.slice(from, end) : "";
    // The field name compared in place, without a string of its own.
    const length = colon - start;
    const first = text.charCodeAt(start);
    if (length === 4 && first === 100 && text.startsWith("ata", start + 1)) {
      this.data = this.hasData ? `${this.data}\n${value}` : value;
      this.hasData = true;
      if (this.data.length > this.limit) throw new RangeError("data");
    } else if (length === 5 && first === 101 && text.startsWith("vent", start + 1))
      this.type = value;
    else if (length === 2 && text.startsWith("id", start)) {
      if (!value.includes("\0")) this.idBuffer = value;
    } else if (length === 5 && text.startsWith("retry", start)) {
      if (/^[0-9]+$/.test(value)) this.retry = Number(value);
    } // other fields are ignored
  }

  /** A blank line: the event read so far, when it has data; the buffers start afresh. */
  private dispatch(out: SseMessage[]): void {
    this.lastEventId = this.idBuffer;
    if (this.hasData)
      out.push({ event: this.type || "message", data: this.data, id: this.lastEventId });
    this.data = "";
    this.hasData = false;
    this.type = "";
  }
}

/** Splits JSON-lines text into lines: each ends at LF (a CR before it is JSON whitespace). */
class LineSplitter {
  private partial = "";
  constructor(private readonly limit: number) {}

  /** The complete lines of `text` appended to `out`; the rest kept for the next piece. */
  feed(text: string, out: string[]): void {
    let pos = 0;
    for (let lf = text.indexOf("\n"); lf !== -1; lf = text.indexOf("\n", pos)) {
      const line = this.partial + text.slice(pos, lf);
      if (line.length > this.limit) throw new RangeError("line");
      out.push(line);
      this.partial = "";
      pos = lf + 1;
    }
    this.partial += text.slice(pos);
    if (this.partial.length > this.limit) throw new RangeError("line");
  }

  /** The last line, when the stream ended without a newline after it. */
  end(out: string[]): void {
    if (this.partial) out.push(this.partial);
    this.partial = "";
  }
}

/**
 * The items of a streamed response: `for await (const item of stream)`. It can be iterated
 * once; `break` out of the loop cancels the body, which closes the connection, and the
 * call's AbortSignal stops it mid-stream with a UserAbortError. An item the spec declares as
 * the stream's error (`error`: a key of its JSON, or its event name) is not yielded: the
 * iteration throws the API's error for it, after the items before it, and lets go of the body.
 */
export class Stream<Item, H = Record<string, never>> implements AsyncIterable<Item> {
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

/**
 * The iterator of a Stream: reads a piece of the body when its queue of items is empty, and
 * otherwise answers from the queue, with a resolved promise and no more. (An async
 * generator's `yield` costs about a fifth more per item: with events of a few hundred bytes
 * that was 0.83x of a hand-written parser's throughput.) `return()` (a `break`) and the
 * call's signal cancel the body, which closes the connection.
 */
class StreamReader<Item> implements AsyncIterator<Item> {
  private queue: Item[] = [];
  private at = 0;
  /** The error to throw once the queue before it is given out. */
  private failure: { error: unknown } | undefined;
  private finished = false;
  private readonly decoder = new TextDecoder();
  private readonly cancel = () => void this.reader?.cancel().catch(() => {});

  constructor(
    private readonly stream: Stream<Item, unknown>,
    private readonly op: Operation,
    private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {
    signal?.addEventListener("abort", this.cancel);
  }

  next(): Promise<IteratorResult<Item>> {
    if (this.signal?.aborted && !this.finished) return this.fail(aborted(this.op, this.signal));
    if (this.at < this.queue.length)
      return Promise.resolve({ done: false, value: this.queue[this.at++]! });
    if (this.failure) return this.fail(this.failure.error);
    if (this.finished) return Promise.resolve({ done: true, value: undefined });
    return this.pull().then(
      () => this.next(),
      (error: unknown) => this.fail(error),
    );
  }

  return(): Promise<IteratorResult<Item>> {
    this.finish();
    return Promise.resolve({ done: true, value: undefined });
  }

  /** Reads pieces of the body until one completes an item, the stream ends, or it fails. */
  private async pull(): Promise<void> {
    const { op, signal } = this;
    this.queue = [];
    this.at = 0;
    while (!this.queue.length && !this.finished && !this.failure) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = this.reader ? await this.reader.read() : { done: true, value: undefined };
      } catch (error) {
        if (signal?.aborted) throw aborted(op, signal);
        const detail = error instanceof Error ? error.message : String(error);
        throw new ConnectionError(`${op.id}'s response broke off: ${detail}`, op.id, {
          cause: error,
        });
      }
      if (read.done && signal?.aborted) throw aborted(op, signal);
      const text = read.done
        ? this.decoder.decode()
        : this.decoder.decode(read.value, { stream: true });
      try {
        if (this.stream.read(text, read.done, this.queue) === "end" || read.done) this.finish();
      } catch (error) {
        this.failure = { error };
      }
    }
  }

  /** Ends the iteration with `error`, letting go of the body. */
  private fail(error: unknown): Promise<IteratorResult<Item>> {
    this.failure = undefined;
    this.queue = [];
    this.finish();
    return Promise.reject(error);
  }

  /** Lets go of the body and the signal; later calls of `next()` say done. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.signal?.removeEventListener("abort", this.cancel);
    this.cancel();
  }
}

/** The text parsed as JSON, or the text itself when it is not JSON. */
function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The error of a stream the caller's signal aborted. */
function aborted(op: Operation, signal: AbortSignal): UserAbortError {
  return new UserAbortError(`${op.id} was aborted mid-stream`, op.id, { cause: signal.reason });
}
