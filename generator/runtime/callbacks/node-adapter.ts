/**
 * The router as a node:http request listener and Express (or Connect) middleware: the
 * listener of ../http/node.ts, which the stand-in shares, over the router core.
 */
export {
  createNodeListener,
  type NodeListener,
  type NodeRequestLike,
  type NodeResponseLike,
} from "../http/node.js";
