/**
 * `mock`: the stand-in of a spec's service on 127.0.0.1, straight from the spec folder (no
 * generated package needed): the route table of the model, with validators built from the
 * model's types (shape-check.ts) where the package would use its generated ones. Runs until
 * SIGINT or SIGTERM; prints its address, then one line per request.
 */
import { cliIo, printOut } from "../cli-io.ts";
import { readFileSync } from "node:fs";
import type { ApiModel, Endpoint } from "../ir/model.ts";
import type { TypeLookup } from "../ir/callback-routing.ts";
import { shapeOf, shapeTableOf } from "../ir/stand-in-shapes.ts";
import { listen, type RunningStandIn } from "../runtime/testing/node.ts";
import type { Shape } from "../runtime/testing/shape.ts";
import {
  createStandInFrom,
  deliveryPath,
  type DeliverOptions,
  type KeySet,
  type StandIn,
} from "../runtime/testing/stand-in.ts";
import { tableOf, type RouteValidators, type StandInTable } from "../runtime/testing/table.ts";
import { shapeValidator } from "../ir/shape-validator.ts";
import { reachOf, type DocumentReachOptions } from "../load/spec-source.ts";

export interface MockOptions extends DocumentReachOptions {
  specDir: string;
  /** For a document: the overlays applied to it first (`--overlay`, else the config's `overlays`). */
  overlays?: readonly string[];
  port: number;
  seed: number;
  keysFile?: string;
  host?: string;
  /** Where `POST /_stand-in/deliveries/<event>` sends the event, and the secret it signs with. */
  deliver?: DeliverOptions;
}

/** The keys file: `{ "<credential>": { "valid": [...], "otherEnvironment": [...] } }`, checked field by field. */
export function readKeys(file: string): Record<string, KeySet> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`--keys ${file}: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(
      `--keys ${file}: must be an object of credentials, each { valid, otherEnvironment }`,
    );
  for (const [credential, set] of Object.entries(value)) {
    for (const [field, list] of Object.entries(set as object)) {
      if (field !== "valid" && field !== "otherEnvironment")
        throw new Error(`--keys ${file}: ${credential}.${field} is not valid or otherEnvironment`);
      if (!Array.isArray(list) || !list.every((k) => typeof k === "string"))
        throw new Error(
          `--keys ${file}: ${credential}.${field} must be a list of strings (a key or token as sent; an HTTP basic credential as "user:password")`,
        );
    }
  }
  return value as Record<string, KeySet>;
}

/** The parameters of an endpoint as one object shape, as the params validator sees them. */
function paramsShape(endpoint: Endpoint, lookup: TypeLookup): Shape {
  return {
    t: "object",
    fields: endpoint.params.map((p) => ({
      name: p.name,
      shape: shapeOf(p.type, lookup),
      ...(p.required ? { required: true } : {}),
    })),
  };
}

/** The route table of a model, with validators built from its types. */
function modelTable(model: ApiModel): StandInTable {
  const types = shapeTableOf(model.types, [
    ...model.endpoints.flatMap((e) => [e.body, ...e.params.map((p) => p.type)]),
  ]);
  const lookup: TypeLookup = new Map(model.types.map((t) => [t.name, t] as const));
  const validators: RouteValidators = {};
  for (const route of model.standIn.table.routes) {
    const endpoint = model.endpoints.find((e) => e.id === route.endpoint)!;
    const body =
      route.body === "json" && endpoint.body ? shapeOf(endpoint.body, lookup) : undefined;
    validators[route.endpoint] = {
      ...(endpoint.params.length > 0
        ? { params: shapeValidator(paramsShape(endpoint, lookup), types) }
        : {}),
      ...(body ? { body: shapeValidator(body, types) } : {}),
    };
  }
  return tableOf(model.standIn.table, validators);
}

/** Starts the stand-in; resolves with it running (the command keeps it up until a signal). */
export async function startMock(
  options: MockOptions,
  log: (line: string) => void = printOut,
): Promise<{ standIn: StandIn; running: RunningStandIn }> {
  const { loadApiModel } = await import("../pipeline.ts");
  const { model } = loadApiModel({
    specDir: options.specDir,
    ...reachOf(options),
    ...(options.overlays?.length ? { overlays: options.overlays } : {}),
  });
  const keys = options.keysFile ? readKeys(options.keysFile) : {};
  const standIn = createStandInFrom(modelTable(model), {
    seed: options.seed,
    keys,
    log,
    ...(options.deliver ? { deliver: options.deliver } : {}),
  });
  const running = await listen(standIn, { port: options.port, host: options.host ?? "127.0.0.1" });
  log(`stand-in for ${model.api.title} listening on ${running.url} (seed ${options.seed})`);
  if (options.deliver)
    log(
      `deliveries: POST ${running.url}${deliveryPath}<event> sends the event, signed (${(model.standIn.table.events ?? []).map((e) => e.name).join(", ") || "the spec has none"})`,
    );
  return { standIn, running };
}

/** Runs `mock` until SIGINT or SIGTERM. */
export async function mockCommand(options: MockOptions): Promise<number> {
  const { running } = await startMock(options);
  await cliIo().untilStopped();
  await running.close();
  return 0;
}
