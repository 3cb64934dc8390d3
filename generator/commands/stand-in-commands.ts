/**
 * The two stand-in modes of the command line, behind one small entry so cli.ts only hands
 * the parsed options on: `mock` (mock-command.ts) and `trigger` (trigger-command.ts).
 */
import { printErr } from "../cli-io.ts";
import { DiagnosticsError } from "../diagnostics/diagnostic.ts";
import type { MockMode, TriggerMode } from "./stand-in-options.ts";
import type { DocumentReachOptions } from "../load/spec-source.ts";

/**
 * What the stand-in modes read: a spec folder or an OpenAPI document, with (for a document)
 * the folder its `$ref`s may reach and the overlays applied to it first, as every build has them.
 */
export interface StandInSource extends DocumentReachOptions {
  specDir: string;
  overlays?: readonly string[];
}

/** Runs `mock` or `trigger`; its exit status. A bad keys or body file is a message and 2, never a stack. */
export async function standInCommand(
  source: StandInSource,
  mode: MockMode | TriggerMode,
): Promise<number> {
  try {
    return await run(source, mode);
  } catch (error) {
    if (error instanceof DiagnosticsError) throw error;
    printErr((error as Error).message);
    return 2;
  }
}

async function run(source: StandInSource, mode: MockMode | TriggerMode): Promise<number> {
  switch (mode.kind) {
    case "mock": {
      const { mockCommand } = await import("./mock-command.ts");
      return mockCommand({
        ...source,
        port: mode.port,
        seed: mode.seed,
        ...(mode.keysFile !== undefined ? { keysFile: mode.keysFile } : {}),
        ...(mode.deliver ? { deliver: mode.deliver } : {}),
      });
    }
    case "trigger": {
      const { triggerCommand } = await import("./trigger-command.ts");
      const { kind: _kind, ...rest } = mode;
      return triggerCommand({ ...source, ...rest });
    }
    default: {
      const unhandled: never = mode;
      throw new Error(`unhandled stand-in mode ${JSON.stringify(unhandled)}`);
    }
  }
}
