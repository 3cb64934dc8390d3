/**
 * `createRouter`: the core with its adapters, as the generated `createCallbackRouter` returns
 * it. Each adapter is a plain function, so `http.createServer(router.node)` and
 * `{ fetch: router.fetch }` work without binding.
 */
import { createCore } from "./core.js";
import { createFetchHandler, type FetchHandler } from "./fetch-adapter.js";
import { createNodeListener, type NodeListener } from "./node-adapter.js";
import type { CoreOptions, InboundRequest, OutboundResponse, RouterSpec } from "./types.js";

/** A callback router: one core, three ways in. */
export interface CallbackRouter {
  /** node:http listener; Express/Connect middleware when mounted before any body parser. */
  node: NodeListener;
  /** Fetch API handler: `Request` -> `Response`. */
  fetch: FetchHandler;
  /** The runtime-neutral core, for writing another adapter. */
  handle: (request: InboundRequest) => Promise<OutboundResponse>;
}

/** Builds a router from the generated spec of the routes and the user's options. */
export function createRouter(spec: RouterSpec, options: CoreOptions): CallbackRouter {
  const core = createCore(spec, options);
  return {
    node: createNodeListener(core),
    fetch: createFetchHandler(core.handle),
    handle: core.handle,
  };
}
