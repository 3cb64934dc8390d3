/** How a path is shown in messages: relative to the working folder, with `/` separators. */
import { relative, sep } from "node:path";

/** `file` relative to the working folder, `/`-separated on every platform. */
export function displayPath(file: string): string {
  return relative(process.cwd(), file).split(sep).join("/");
}
