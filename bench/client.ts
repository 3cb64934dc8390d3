/**
 * Client runtime: per-call cost of MerchantClient (generated/src via tsx) vs a raw fetch vs
 * openapi-fetch, with a stub fetch that returns a Response at once (our own cost), and on a
 * loopback node:http server on 127.0.0.1 (20,000 sequential calls per variant, interleaved
 * rounds, warm-up first). The server is started and stopped here.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import createClient from "openapi-fetch";
import { MerchantClient } from "../generated/src/index.ts";
import { atMost, fmt, stat, type Row, type Section } from "./stats.ts";

type Variant = (baseUrl: string, f: typeof fetch) => () => Promise<unknown>;
const variants: Record<string, Variant> = {
  "raw fetch": (base, f) => async () => (await f(`${base}/v1/merchant/transactions/ABCD-EFGH-IJKL`, { method: "GET", headers: { "X-API-Key": "k" } })).json(),
  MerchantClient: (base, f) => {
    const c = new MerchantClient({ baseUrl: base, apiKey: "k", fetch: f });
    return () => c.transactions.get("ABCD-EFGH-IJKL");
  },
  "openapi-fetch": (base, f) => {
    const c = createClient<any>({ baseUrl: base, fetch: f, headers: { "X-API-Key": "k" } });
    return () => c.GET("/v1/merchant/transactions/{reference}", { params: { path: { reference: "ABCD-EFGH-IJKL" } } });
  },
};

async function perCall(call: () => Promise<unknown>, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await call();
  return ((performance.now() - start) * 1000) / n; // µs
}

async function measure(base: string, f: typeof fetch, perRound: number, rounds: number) {
  const calls = Object.fromEntries(Object.entries(variants).map(([k, v]) => [k, v(base, f)]));
  for (const call of Object.values(calls)) await perCall(call, Math.min(2000, perRound)); // warm-up
  const out: Record<string, number[]> = Object.fromEntries(Object.keys(calls).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) for (const [k, call] of Object.entries(calls)) out[k]!.push(await perCall(call, perRound));
  return out;
}

export async function runClient(): Promise<Section> {
  const rows: Row[] = [];
  const body = JSON.stringify({ reference: "ABCD-EFGH-IJKL", status: "cancelled" });
  const stub = (async () => new Response(body, { status: 200, headers: { "content-type": "application/json" } })) as typeof fetch;
  const s = await measure("http://127.0.0.1:1", stub, 20_000, 5);
  const raw = stat(s["raw fetch"]!);
  for (const [k, v] of Object.entries(s)) rows.push({ label: `stub fetch: ${k}, per call`, value: fmt(stat(v), "µs", 2) });
  // own cost per round: variant minus raw fetch of the same round
  for (const k of ["MerchantClient", "openapi-fetch"]) {
    const own = stat(s[k]!.map((v, i) => v - s["raw fetch"]![i]!));
    rows.push({ label: `stub fetch: ${k} own cost (minus raw fetch)`, value: fmt(own, "µs", 2), ...(k === "MerchantClient" ? { target: "≤ 4 µs", verdict: atMost(own.median, 4, "µs", 2) } : {}) });
  }
  void raw;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const guard = setTimeout(() => server.close(), 180_000);
  try {
    const l = await measure(base, globalThis.fetch, 4000, 5);
    for (const [k, v] of Object.entries(l)) rows.push({ label: `loopback: ${k}, per call`, value: fmt(stat(v), "µs", 1) });
    for (const k of ["MerchantClient", "openapi-fetch"]) {
      const over = stat(l[k]!.map((v, i) => (v / l["raw fetch"]![i]! - 1) * 100));
      rows.push({ label: `loopback: ${k} over raw fetch`, value: fmt(over, "%", 1), ...(k === "MerchantClient" ? { target: "≤ +3%", verdict: atMost(over.median, 3, "points", 1) } : {}) });
    }
  } finally {
    clearTimeout(guard);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  return { title: "Client runtime", rows, notes: ["Stub: 5 interleaved rounds of 20,000 calls per variant after a warm-up. Loopback: 5 interleaved rounds of 4,000 sequential calls per variant (20,000 each) after a warm-up; keep-alive global fetch."] };
}
