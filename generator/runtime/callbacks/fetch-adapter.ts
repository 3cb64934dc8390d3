/**
 * The router as a Fetch API handler (`Request` -> `Response`): the handler of
 * ../http/fetch.ts, which the stand-in shares, over the router core.
 */
export { createFetchHandler, type FetchHandler } from "../http/fetch.js";
