/**
 * The two stand-in modes of the command line, behind one small entry so cli.ts only hands
 * the parsed options on: `mock` (mock-command.ts) and `trigger` (trigger-command.ts).
 */
import { DiagnosticsError } from "../diagnostics/diagnostic.ts";
import type { CliOptions } from "./options.ts";

/** Runs `mock` or `trigger`; its exit status. A bad keys or body file is a message and 2, never a stack. */
export async function standInCommand(options: CliOptions): Promise<number> {
  try {
    return await run(options);
  } catch (error) {
    if (error instanceof DiagnosticsError) throw error;
    console.error((error as Error).message);
    return 2;
  }
}

async function run(options: CliOptions): Promise<number> {
  const { mode, specDir } = options;
  if (mode.kind === "mock") {
    const { mockCommand } = await import("./mock-command.ts");
    return mockCommand({
      specDir,
      port: mode.port,
      seed: mode.seed,
      ...(mode.keysFile !== undefined ? { keysFile: mode.keysFile } : {}),
    });
  }
  if (mode.kind === "trigger") {
    const { triggerCommand } = await import("./trigger-command.ts");
    const { kind: _kind, ...rest } = mode;
    return triggerCommand({ specDir, ...rest });
  }
  throw new Error(`${mode.kind} is not a stand-in mode`);
}
