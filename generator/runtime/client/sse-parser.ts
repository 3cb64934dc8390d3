/**
 * The parser of `text/event-stream` text, exactly as the HTML standard's "event stream
 * interpretation" says: the SSE half of a streamed response (stream.ts reads its events).
 * Strings only: it runs wherever the client does.
 */

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
