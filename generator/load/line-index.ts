/**
 * Line and column (1-based) of character offsets in a spec file's text. The `yaml` package's
 * own LineCounter is not used: it learns where lines start from the lexer's tokens, misses
 * the line breaks inside a multi-line plain scalar, and so put every problem after one on the
 * wrong line (found by the loader fuzz test).
 */
import type { SourceLocation } from "../ir/model.ts";

export class LineIndex {
  /** Offset at which each line starts. */
  private readonly starts: number[] = [0];

  constructor(
    readonly file: string,
    text: string,
  ) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1))
      this.starts.push(i + 1);
  }

  /** The location of `offset` (clamped to the text). */
  at(offset: number): SourceLocation {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { file: this.file, line: low + 1, col: Math.max(0, offset - this.starts[low]!) + 1 };
  }
}
