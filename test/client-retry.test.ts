/**
 * The retry rules of the client runtime, exactly: back-off bounds, Retry-After parsing,
 * which statuses and failures are retried.
 */
import { describe, expect, it } from "vitest";
import {
  backoffMs,
  isNotProcessedStatus,
  isRetryableStatus,
  neverReachedServer,
  retryAfterMs,
  sleep,
} from "../generator/runtime/client/retry.ts";

describe("back-off", () => {
  it("is min(0.5 s * 2^n, 8 s), less a random half", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect([0, 1, 4, 9].map((n) => backoffMs(n, () => 0))).toEqual([250, 500, 4000, 4000]);
    for (let i = 0; i < 50; i++) {
      const ms = backoffMs(2);
      expect(ms).toBeGreaterThanOrEqual(1000);
      expect(ms).toBeLessThanOrEqual(2000);
    }
  });
  it("takes its base and cap from retryBackoffMs and maxRetryBackoffMs", () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 1, 4, 10))).toEqual([4, 8, 10, 10]);
    expect([0, 3].map((n) => backoffMs(n, () => 0, 4, 10))).toEqual([2, 5]);
    expect(backoffMs(1000, () => 1, 500, 8000)).toBe(8000);
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");
  it.each([
    ["3", 3000],
    ["0", 0],
    ["1.5", 1500],
    ["60", 60000],
    ["61", undefined],
    ["-1", undefined],
    ["soon", undefined],
    ["", undefined],
    ["Sat, 21 Nov 2026 12:00:30 GMT", 30000],
    ["Sat, 21 Nov 2026 12:05:00 GMT", undefined],
    ["Sat, 21 Nov 2026 11:59:00 GMT", undefined],
  ])("%j gives %j ms", (header, expected) => {
    expect(retryAfterMs(header, now)).toBe(expected);
  });
  it("absent gives nothing", () => expect(retryAfterMs(null, now)).toBeUndefined());
  it("is honoured only up to maxRetryAfterMs", () => {
    expect(retryAfterMs("0.02", now, 40)).toBe(20);
    expect(retryAfterMs("0.05", now, 40)).toBeUndefined();
    expect(retryAfterMs("1", now, 0)).toBeUndefined();
    expect(retryAfterMs("0", now, 0)).toBe(0);
  });
});

describe("what is retried", () => {
  it("408, 429 and 5xx, nothing else", () => {
    expect(
      [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504].filter((s) =>
        isRetryableStatus(s),
      ),
    ).toEqual([408, 429, 500, 502, 503, 504]);
  });
  it("adds the statuses the spec marks retry: true and drops those it marks retry: false", () => {
    const policy = { statuses: [403], never: [503] };
    expect([400, 403, 429, 500, 503].filter((s) => isRetryableStatus(s, policy))).toEqual([
      403, 429, 500,
    ]);
  });
  it("retries the statuses marked notProcessed for every method, unless also marked retry: false", () => {
    const policy = { statuses: [409], never: [503], anyMethod: [425, 429, 503] };
    expect([409, 425, 429, 500, 503].filter((s) => isRetryableStatus(s, policy))).toEqual([
      409, 425, 429, 500,
    ]);
    expect([409, 425, 429, 500, 503].filter((s) => isNotProcessedStatus(s, policy))).toEqual([
      425, 429,
    ]);
    expect(isNotProcessedStatus(429)).toBe(false);
  });
  it("knows a refused connection never reached the server, and a reset may have", () => {
    expect(
      neverReachedServer(
        new TypeError("fetch failed", {
          cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }),
        }),
      ),
    ).toBe(true);
    expect(
      neverReachedServer(
        new TypeError("fetch failed", {
          cause: Object.assign(new Error("x"), { code: "ECONNRESET" }),
        }),
      ),
    ).toBe(false);
    expect(neverReachedServer(new TypeError("fetch failed"))).toBe(false);
  });
  it("sleep rejects at once when aborted", async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error("stop")), 20);
    await expect(sleep(10_000, controller.signal)).rejects.toThrow("stop");
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("nonces", () => {
  it("are random UUID v4s, also where there is no global crypto (Node 18)", async () => {
    const { randomNonce } = await import("../generator/runtime/client/core.ts");
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(randomNonce()).toMatch(uuid);
    const saved = Object.getOwnPropertyDescriptor(globalThis, "crypto")!;
    Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });
    try {
      const nonces = new Set(Array.from({ length: 100 }, () => randomNonce()));
      expect(nonces.size).toBe(100);
      for (const n of nonces) expect(n).toMatch(uuid);
    } finally {
      Object.defineProperty(globalThis, "crypto", saved);
    }
  });
});
