/**
 * The generated README says which statuses the client retries for this API: the runtime's
 * defaults with the spec's `errors.statuses.N.retry` applied (retry.ts's `isRetryableStatus`).
 */
import { describe, expect, it } from "vitest";
import { retriedStatuses } from "../generator/emit/package-files.ts";
import { isRetryableStatus } from "../generator/runtime/client/retry.ts";

describe("the README's retried statuses", () => {
  it("are the defaults when the spec marks none", () => {
    expect(retriedStatuses({ statuses: [], never: [], anyMethod: [] })).toBe("408, 429, 5xx");
  });

  it("add the statuses marked retry: true (Stripe's 409, GitHub's 403) and drop those marked false", () => {
    expect(retriedStatuses({ statuses: [409, 429], never: [], anyMethod: [] })).toBe(
      "408, 409, 429, 5xx",
    );
    const retry = { statuses: [403], never: [408, 503], anyMethod: [] };
    expect(retriedStatuses(retry)).toBe("403, 429, 5xx (but 503)");
    // What the runtime does with the same policy.
    const retried = [400, 403, 408, 409, 429, 500, 503].filter((s) => isRetryableStatus(s, retry));
    expect(retried).toEqual([403, 429, 500]);
  });
});
