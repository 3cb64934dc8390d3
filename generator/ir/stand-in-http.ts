/**
 * What of a stand-in's answer HTTP decides rather than the spec: the media type of a range
 * (a response carries a type, never `image/*`) and the headers the server writes itself.
 */
import { serverWrittenHeaders } from "./http-headers.ts";
import type { EndpointResponse } from "./model.ts";

/** A type of each range the stand-in answers a range with (`image/*` with `image/png`). */
const rangeSamples: Readonly<Record<string, string>> = {
  "image/*": "image/png",
  "audio/*": "audio/mpeg",
  "video/*": "video/mp4",
  "text/*": "text/plain",
  "*/*": "application/octet-stream",
};

/**
 * The Content-Type the stand-in sends: the spec's media type, or for a range (`image/*`) one
 * type it covers, since a response carries a type, never a range.
 */
export function answeredMediaType(contentType: string): string {
  const bare = contentType.split(";")[0]!.trim().toLowerCase();
  if (!bare.endsWith("/*")) return contentType;
  return rangeSamples[bare] ?? `${bare.slice(0, -2)}/octet-stream`;
}

/** The declared response headers the stand-in makes values for: not those HTTP writes (http-headers.ts). */
export function madeUpHeaders(r: EndpointResponse): EndpointResponse["headers"] {
  return r.headers.filter((h) => !serverWrittenHeaders.has(h.name.toLowerCase()));
}
