/**
 * The line splitter of JSON-lines streams (`application/jsonl`, NDJSON): the JSON-lines half
 * of a streamed response (stream.ts parses each line).
 */

/** Splits JSON-lines text into lines: each ends at LF (a CR before it is JSON whitespace). */
export class LineSplitter {
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
