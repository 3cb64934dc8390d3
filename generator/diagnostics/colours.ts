/**
 * Colour on the command line, with no dependency: ANSI escapes around a text, when the stream
 * it goes to is a terminal. Each stream is judged on its own (`apigen check | less` keeps
 * colour in the errors on the terminal), and the environment has the last word, as most tools
 * read it: `FORCE_COLOR` (non-empty, not `0` or `false`) turns colour on even into a pipe or a
 * CI log, `FORCE_COLOR=0` turns it off, and so does `NO_COLOR` (any non-empty value,
 * no-color.org) or `TERM=dumb` unless FORCE_COLOR says otherwise.
 */
import { cliIo } from "../cli-io.ts";

export interface Colours {
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
  /** Grey: what matters less (a diagnostic's code, unchanged counts). */
  dim(text: string): string;
  bold(text: string): string;
}

const identity = (text: string) => text;

/** No colour: every text as it is. */
export const plain: Colours = {
  red: identity,
  yellow: identity,
  green: identity,
  cyan: identity,
  dim: identity,
  bold: identity,
};

/** `text` between the escape that starts a style and the one that ends it (an empty text stays empty). */
const style = (open: number, close: number) => (text: string) =>
  text === "" ? text : `\u001b[${open}m${text}\u001b[${close}m`;

export const ansi: Colours = {
  red: style(31, 39),
  yellow: style(33, 39),
  green: style(32, 39),
  cyan: style(36, 39),
  dim: style(90, 39),
  bold: style(1, 22),
};

type Env = Readonly<Record<string, string | undefined>>;

/** Whether output to a stream (a terminal or not) is coloured, by the rules above. */
export function colourOn(isTerminal: boolean, env: Env = cliIo().env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTerminal;
}

/** The colours of what goes to standard output or to standard error of the run (cli-io.ts). */
export function coloursOf(stream: "stdout" | "stderr"): Colours {
  return colourOn(cliIo()[stream].isTTY === true) ? ansi : plain;
}
