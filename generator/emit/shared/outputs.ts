/**
 * The outputs of a generated package that a config switches on or off (`outputs: { testing:
 * false }`), each with its default: what a package had before outputs could be switched. A
 * new output is one line here (with its key in `Outputs` of public/config.ts, which this
 * table must match, and in generator/schema/config.schema.json, which a test holds to it),
 * and its emitter names it in emitters.ts.
 */
import type { Outputs } from "../../public/config.ts";

export type OutputName = keyof Outputs;

/** Each output on or off, resolved: every key present. */
export type OutputSwitches = Readonly<Required<Outputs>>;

export const outputDefaults: OutputSwitches = {
  client: true,
  callbacks: true,
  openapi: true,
  testing: true,
  msw: false,
  tanstackQuery: false,
};

/** The outputs `switches` turns off against the defaults' all-on, for the run's fingerprint: "" when none. */
export function outputsLabel(switches: OutputSwitches): string {
  const names = Object.keys(outputDefaults) as OutputName[];
  return names
    .filter((name) => switches[name] !== outputDefaults[name])
    .map((name) => `${switches[name] ? "+" : "-"}${name}`)
    .join(",");
}
