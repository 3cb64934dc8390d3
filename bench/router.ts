/**
 * Router runtime: signed callbacks per second through the generated `router.node`
 * (generated/src/callbacks.ts) against a hand-written node:http handler that does the same
 * HMAC-SHA256 check over the raw body and JSON.parse, then calls the same handlers.
 *
 * Three processes, so the load generator never competes with the server on the same event
 * loop (on 2 cores it gets one, the servers the other):
 * - the bench (runRouter) only coordinates over IPC;
 * - a server child (`--serve`) runs both servers on 127.0.0.1, port 0, and reports its own
 *   CPU time, so the cost per request is known even if the load generator were the bottleneck;
 * - a load child (`--load`): a lean keep-alive HTTP/1.1 client (see `load`), fixed concurrency,
 *   a bounded request count and a time cap per round; it cycles through the three body-carrying callbacks
 *   (product.info GET with a body, order.shipping POST, cart.update POST), pre-signed.
 * A warm-up round per server, then interleaved rounds (the order alternates every round).
 * BENCH_ROUTER_{REQUESTS,ROUNDS,WARMUP,CONCURRENCY,CAP_MS} change the load; `tsx bench/router.ts` runs it alone.
 */
import { fork, type ChildProcess } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { join } from "node:path";
import { freshDir, root } from "./proc.ts";
import { atLeast, fmt, stat, type Row, type Section } from "./stats.ts";

const secret = "bench-signing-secret";
const header = "x-service-hmac-sha256";
const concurrency = Number(process.env.BENCH_ROUTER_CONCURRENCY ?? 16);
// 10,000 a round (50,000 a server in all): each round lasts seconds, long enough for a steady rate, and the 10-minute budget holds
const perRound = Number(process.env.BENCH_ROUTER_REQUESTS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUTER_ROUNDS ?? 5);
const warmup = Number(process.env.BENCH_ROUTER_WARMUP ?? 3_000);
const capMs = Number(process.env.BENCH_ROUTER_CAP_MS ?? 20_000);

/** The requests the service would send: bodies as in test/callbacks-helpers.ts. */
const requests = [
  {
    method: "GET",
    path: "/product_get",
    body: JSON.stringify({ event: "product.info", data: { productID: "p-1", sku: "SKU-1" } }),
  },
  {
    method: "POST",
    path: "/order_shipping",
    body: JSON.stringify({
      event: "order.shipping",
      data: {
        shipping_address: { country_code: "US", postal_code: "94103" },
        cart: { items: [{ sku: "SKU-1", quantity: 2 }], total_amount: 2500 },
        request_source: "checkout",
      },
    }),
  },
  {
    method: "POST",
    path: "/cart_update",
    body: JSON.stringify({
      event: "cart.update",
      data: {
        order_reference: "ord-1",
        add_items: [{ product_id: "p-1", price: 1250, currency: "USD", quantity: 1 }],
      },
    }),
  },
];

// ---------------------------------------------------------------- server child

/** Fixed answers, shared by both servers so they do the same work after the checks. */
const handlers = {
  "product.info": async (_input: unknown) => ({
    status: "success" as const,
    data: {
      Current: { Name: "Mug", Prices: [{ UnitPriceInCents: 1250, Currency: "USD" }] },
      Variants: [],
      Parent: { Name: "Mugs" },
    },
  }),
  "order.shipping": async (_input: unknown) => ({
    status: "success" as const,
    data: {
      shipping_options: [{ service: "ground", cost: 500, reference: "ship-1" }],
      is_store_location: false,
    },
  }),
  "cart.update": async (_input: unknown) => ({
    status: "failure" as const,
    errors: [{ code: 6001, data: [{ reason: "out of stock" }] }],
  }),
  "account.login": async (_input: unknown) => ({ status: "success" as const }),
};

/**
 * What one would write by hand on node:http: route by path, read the raw body (1 MiB limit,
 * as the router), HMAC-SHA256 with node:crypto, constant-time compare, JSON.parse, handler,
 * the answer with `event` first and the router's headers. No schema validation: the issue's
 * baseline is "the same HMAC check and JSON.parse".
 */
function handWritten(): http.RequestListener {
  const events: Record<string, keyof typeof handlers> = {
    "/product_get": "product.info",
    "/order_shipping": "order.shipping",
    "/cart_update": "cart.update",
  };
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  };
  const fail = (res: http.ServerResponse, status: number, event: string, message: string) =>
    res.writeHead(status, headers).end(
      JSON.stringify({
        event,
        status: "failure",
        error: { code: status === 422 ? 27 : status, message },
      }),
    );
  return (req, res) => {
    const event = events[req.url ?? ""];
    if (!event)
      return void res
        .writeHead(404, headers)
        .end('{"error":{"code":404,"message":"no callback at this path"}}');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= 1 << 20) chunks.push(c);
    });
    req.on("end", async () => {
      if (size > 1 << 20) return fail(res, 413, event, "body too large");
      const body = Buffer.concat(chunks, size);
      const given = Buffer.from(String(req.headers[header] ?? ""), "base64");
      const expected = createHmac("sha256", secret).update(body).digest();
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return fail(res, 422, event, "signature does not match");
      let input: unknown;
      try {
        input = JSON.parse(body.toString("utf8"));
      } catch {
        return fail(res, 400, event, "body is not valid JSON");
      }
      const result = await handlers[event](input);
      res.writeHead(200, headers).end(JSON.stringify({ event, ...result }));
    });
  };
}

async function serve(): Promise<void> {
  const { createCallbackRouter } = await import("../generated/src/callbacks.ts");
  const router = createCallbackRouter({ signingSecrets: [secret], handlers });
  // the same router with its documented `signature.compute` option on node:crypto: shows what Web Crypto costs
  const compute = (key: string, content: { body: Uint8Array }) =>
    createHmac("sha256", key).update(content.body).digest();
  const nodeCrypto = createCallbackRouter({
    signingSecrets: [secret],
    handlers,
    signature: { compute },
  });
  const servers = {
    router: http.createServer(router.node),
    hand: http.createServer(handWritten()),
    "router+node:crypto": http.createServer(nodeCrypto.node),
  };
  const ports: Record<string, number> = {};
  for (const [name, s] of Object.entries(servers)) {
    s.keepAliveTimeout = 60_000; // rounds reuse connections; never let the server drop them mid-round
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    ports[name] = (s.address() as AddressInfo).port;
  }
  process.on("message", (m: { cmd: string }) => {
    if (m.cmd === "cpu") process.send!({ cpu: process.cpuUsage() });
    if (m.cmd === "stop")
      for (const s of Object.values(servers)) (s.closeAllConnections(), s.close());
  });
  process.send!({ ports });
}

// ---------------------------------------------------------------- load child

interface LoadResult {
  done: number;
  ms: number;
  bad: number;
  /** The load generator's own CPU over the round, as a share of one core: near 1 means it, not the server, set the pace. */
  busy: number;
  /** First answer of each request kind, to check both servers answer the same. */
  samples: string[];
  firstBad?: string;
}

/**
 * Where an answer whose body starts at `at` ends: by Content-Length, or through the chunks of
 * chunked encoding (Node uses it after `writeHead` without a length); `undefined` until all of
 * it has arrived. The body is only put together when asked for (the samples).
 */
function frame(
  buf: Buffer,
  at: number,
  head: string,
): { end: number; body: () => Buffer } | "no-length" | undefined {
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) {
    const end = at + Number(length[1]);
    return buf.length < end ? undefined : { end, body: () => buf.subarray(at, end) };
  }
  if (!/\r\ntransfer-encoding: *chunked/i.test(head)) return "no-length";
  const parts: [number, number][] = [];
  for (let pos = at; ; ) {
    const lineEnd = buf.indexOf("\r\n", pos);
    if (lineEnd < 0) return undefined;
    const size = parseInt(buf.subarray(pos, lineEnd).toString("latin1"), 16);
    if (size === 0) {
      const end = lineEnd + 4; // "0\r\n" then the empty line (no trailers)
      return buf.length < end
        ? undefined
        : { end, body: () => Buffer.concat(parts.map(([a, b]) => buf.subarray(a, b))) };
    }
    const dataEnd = lineEnd + 2 + size;
    if (buf.length < dataEnd + 2) return undefined;
    parts.push([lineEnd + 2, dataEnd]);
    pos = dataEnd + 2;
  }
}

/**
 * A minimal keep-alive HTTP/1.1 client on net sockets: `concurrency` connections, one request
 * in flight on each, the request bytes built and signed once. node:http's client costs about
 * as much CPU per request as a server does, so on 2 cores it would set the pace itself and
 * hide the difference between the two servers; this one costs a fraction of that.
 */
async function load(port: number, count: number): Promise<LoadResult> {
  const wire = requests.map((r) => {
    const body = Buffer.from(r.body);
    const sig = createHmac("sha256", secret).update(body).digest("base64");
    const head = `${r.method} ${r.path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n${header}: ${sig}\r\n\r\n`;
    return Buffer.concat([Buffer.from(head), body]);
  });
  const samples: string[] = [];
  let next = 0,
    done = 0,
    bad = 0,
    firstBad: string | undefined;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const deadline = start + capMs;
  const connection = () =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.setNoDelay(true);
      let buf: Buffer = Buffer.alloc(0);
      let current = -1;
      const send = () => {
        if (next >= count || performance.now() >= deadline) return void socket.end(resolve);
        current = next++;
        socket.write(wire[current % wire.length]!);
      };
      socket.on("connect", send);
      socket.on("error", reject);
      socket.on("data", (chunk: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        const headEnd = buf.indexOf("\r\n\r\n");
        if (headEnd < 0) return;
        const head = buf.subarray(0, headEnd).toString("latin1");
        const framed = frame(buf, headEnd + 4, head);
        if (framed === "no-length")
          return void (socket.destroy(),
          reject(
            new Error(
              `an answer with neither Content-Length nor chunked encoding: ${head.slice(0, 300)}`,
            ),
          ));
        if (framed === undefined) return; // not all of it yet
        const { end, body } = framed;
        const status = Number(head.slice(9, 12));
        if (current < wire.length || (status !== 200 && firstBad === undefined)) {
          const text = `${status} ${body().toString("utf8")}`;
          if (current < wire.length) samples[current] = text;
          if (status !== 200) firstBad = `${requests[current % wire.length]!.path}: ${text}`;
        }
        if (status !== 200) bad++;
        done++;
        buf = buf.subarray(end); // one request in flight: nothing should follow, but keep whatever does
        send();
      });
    });
  await Promise.all(Array.from({ length: concurrency }, connection));
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return {
    done,
    ms,
    bad,
    busy: (cpu.user + cpu.system) / 1000 / ms,
    samples,
    ...(firstBad ? { firstBad } : {}),
  };
}

// ---------------------------------------------------------------- coordinator

/**
 * The children run this file bundled by esbuild into plain JavaScript, not under tsx: tsx
 * compiles with keepNames, which wraps every closure the router creates per request in a
 * `__name()` call (Object.defineProperty) that a built package does not have. Both servers
 * go through the same bundle, so neither pays anything the other does not.
 */
async function bundleSelf(): Promise<string> {
  const outfile = join(freshDir("router"), "router.mjs");
  const { build } = await import("esbuild"); // not at the top: the bundle leaves packages out and never needs esbuild
  await build({
    entryPoints: [import.meta.filename],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "error",
  });
  return outfile;
}

/** BENCH_ROUTER_CPU_PROF=<dir> writes a V8 CPU profile of the server child there (for finding where the router spends its time). */
function child(script: string, mode: string): ChildProcess {
  const prof =
    mode === "--serve" && process.env.BENCH_ROUTER_CPU_PROF
      ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_ROUTER_CPU_PROF]
      : [];
  return fork(script, [mode], {
    cwd: root,
    execArgv: prof,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

function ask<T>(
  c: ChildProcess,
  message: object,
  key: string,
  timeoutMs = capMs + 30_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => (clearTimeout(timer), c.off("message", on), c.off("exit", exit));
    const timer = setTimeout(
      () => (
        done(),
        reject(new Error(`no ${key} from the ${c.spawnargs.at(-1)} child in ${timeoutMs} ms`))
      ),
      timeoutMs,
    );
    const exit = (code: number | null) => (
      done(),
      reject(new Error(`the ${c.spawnargs.at(-1)} child exited (${code}) before sending ${key}`))
    );
    const on = (m: Record<string, unknown>) => {
      if (!(key in m)) return;
      done();
      if (typeof m.error === "string") reject(new Error(m.error));
      else resolve(m[key] as T);
    };
    c.on("message", on);
    c.once("exit", exit);
    if (Object.keys(message).length) c.send(message);
  });
}

type Variant = "router" | "hand" | "router+node:crypto";
interface RoundResult {
  rps: number;
  cpuUs: number;
  /** Share of one core each process used over the round. */
  serverBusy: number;
  loadBusy: number;
  capped: boolean;
  samples: string[];
}

/** BENCH_ROUTER_NODE_CRYPTO=1 adds a third server: the router with `signature.compute` on node:crypto (diagnosis, not a target). */
export async function runRouter(): Promise<Section> {
  const variants: Variant[] = [
    "router",
    "hand",
    ...(process.env.BENCH_ROUTER_NODE_CRYPTO === "1" ? (["router+node:crypto"] as const) : []),
  ];
  const script = await bundleSelf();
  const server = child(script, "--serve");
  const loader = child(script, "--load");
  try {
    const ports = await ask<Record<Variant, number>>(server, {}, "ports", 60_000);
    const cpu = () => ask<NodeJS.CpuUsage>(server, { cmd: "cpu" }, "cpu");
    const round = async (name: Variant, count: number): Promise<RoundResult> => {
      const before = await cpu();
      const r = await ask<LoadResult>(loader, { cmd: "load", port: ports[name], count }, "result");
      const after = await cpu();
      if (r.bad)
        throw new Error(`${name}: ${r.bad} of ${r.done} answers were not 200, e.g. ${r.firstBad}`);
      const serverUs = after.user + after.system - before.user - before.system;
      return {
        rps: (r.done * 1000) / r.ms,
        cpuUs: serverUs / r.done,
        serverBusy: serverUs / 1000 / r.ms,
        loadBusy: r.busy,
        capped: r.done < count,
        samples: r.samples,
      };
    };
    const warm = new Map<Variant, RoundResult>();
    for (const name of variants) warm.set(name, await round(name, warmup));
    // same answer bytes from every server: otherwise the comparison would not be like for like
    const ref = warm.get("hand")!.samples;
    const differs = variants.flatMap((v) =>
      warm
        .get(v)!
        .samples.map((s, i) =>
          s === ref[i]
            ? []
            : [
                `${v} ${requests[i]!.path}: ${s.slice(0, 120)} / hand-written ${ref[i]?.slice(0, 120)}`,
              ],
        )
        .flat(),
    );
    const out = new Map<Variant, RoundResult[]>(variants.map((v) => [v, []]));
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 ? [...variants].reverse() : variants; // alternate, so drift in machine load hits both alike
      for (const name of order) out.get(name)!.push(await round(name, perRound));
    }
    const all = (v: Variant) => out.get(v)!;
    const perRoundRatio = (v: Variant) => stat(all(v).map((r, i) => r.rps / all("hand")[i]!.rps)); // same pair of rounds: same machine state
    const ratio = perRoundRatio("router");
    const rows: Row[] = [
      {
        label: "router.node, signed callbacks per second",
        value: fmt(stat(all("router").map((r) => r.rps)), "req/s"),
      },
      {
        label: "hand-written node:http handler, per second",
        value: fmt(stat(all("hand").map((r) => r.rps)), "req/s"),
      },
      {
        label: "router.node / hand-written throughput",
        value: fmt(ratio, "x", 2),
        target: "≥ 0.9x",
        verdict: atLeast(ratio.median, 0.9, "x"),
      },
      {
        label: "server CPU per request: router.node",
        value: fmt(stat(all("router").map((r) => r.cpuUs)), "µs"),
      },
      {
        label: "server CPU per request: hand-written",
        value: fmt(stat(all("hand").map((r) => r.cpuUs)), "µs"),
      },
      {
        label: "cross-check: hand-written / router.node CPU per request",
        value: fmt(stat(all("router").map((r, i) => all("hand")[i]!.cpuUs / r.cpuUs)), "x", 2),
      },
    ];
    if (variants.includes("router+node:crypto")) {
      rows.push({
        label: "router.node with signature.compute on node:crypto, per second",
        value: `${fmt(stat(all("router+node:crypto").map((r) => r.rps)), "req/s")}; / hand-written = ${fmt(perRoundRatio("router+node:crypto"), "x", 2)}`,
      });
      rows.push({
        label: "server CPU per request: router.node with node:crypto",
        value: fmt(stat(all("router+node:crypto").map((r) => r.cpuUs)), "µs"),
      });
    }
    const capped = variants.flatMap(all).filter((r) => r.capped).length;
    const pct = (v: Variant, k: "serverBusy" | "loadBusy") =>
      `${(stat(all(v).map((r) => r[k])).median * 100).toFixed(0)}%`;
    const busy = variants
      .map((v) => `${v}: server ${pct(v, "serverBusy")}, load generator ${pct(v, "loadBusy")}`)
      .join("; ");
    const notes = [
      `Load: a child process with a lean keep-alive HTTP/1.1 client on net sockets (node:http's client costs about as much as a server per request and would set the pace on 2 cores), ${concurrency} connections with one request in flight each, ${perRound.toLocaleString("en")} requests per round (time cap ${capMs / 1000} s${capped ? `, reached in ${capped} rounds: those count what was done` : ", never reached"}), ${rounds} interleaved rounds after a ${warmup.toLocaleString("en")}-request warm-up each; servers in another child on 127.0.0.1 (port 0), both children plain JavaScript bundled by esbuild from generated/src (no tsx at run time). Requests cycle through product.info (GET with a body), order.shipping and cart.update, signed once up front.`,
      "The ratio is taken per round (router round / hand-written round of the same pair), then its median. Server CPU per request is the server process's user+system time over the round divided by the requests (the libuv thread pool included): it shows each server's own cost even when something else limits the rate; the cross-check row is the throughput ratio that cost alone would give.",
      `Share of one core used during the rounds (median): ${busy}. A server near 100% set the pace; other agents' load on the machine shows as both being lower.`,
      "The hand-written handler uses node:crypto (createHmac, timingSafeEqual), routes by path, JSON.parse, the same handlers, no schema validation; the router uses the same HMAC (Node's own createHmac, taken at run time from process.getBuiltinModule; Web Crypto elsewhere) and validates every body against the spec.",
      ...(differs.length
        ? [`The servers answered differently: ${differs.join("; ")}`]
        : ["Every server gave byte-identical answers to each request kind."]),
      "Where the ratio misses 0.9x: issue 7's sessions measured 0.90-0.97x; issue 11's hardening of the router and the validators (a deadline for slow bodies, capped reasons, the validators' depth and issue limits) came after. The body deadline is not the cost: with it off (bodyTimeoutMs Infinity) the ratio stayed 0.84x in the same conditions. A profile of the server child (BENCH_ROUTER_CPU_PROF, issue 15's session, this machine; 53,000 requests per server) puts most of both servers' time in the kernel's gathered write of the answer (node:http frames a body without Content-Length in chunks and sends header, size, body and terminator with one writev): 1.85 s under the router against 1.52 s under the hand-written handler, for byte-identical answers; the router's own JavaScript (routing, the body deadline, HMAC, parsing, validation, the answer) is 0.42 s against the handler's 0.25 s, about 3 µs a request. Sending the answer with its Content-Length (one plain write) made the ratio worse, 0.77x over two runs, and was not kept.",
    ];
    return { title: "Router runtime (signed callbacks on loopback)", rows, notes };
  } finally {
    if (server.connected) server.send({ cmd: "stop" });
    for (const c of [server, loader]) {
      if (c.connected) c.disconnect(); // each child then ends by itself...
      setTimeout(() => c.exitCode === null && c.kill("SIGKILL"), 5_000).unref(); // ...or is ended, if a round hung
    }
  }
}

if (process.argv[1] === import.meta.filename) {
  const mode = process.argv[2];
  if (mode === "--serve") await serve();
  else if (mode === "--load")
    process.on("message", (m: { cmd: string; port: number; count: number }) => {
      if (m.cmd === "load")
        load(m.port, m.count).then(
          (result) => process.send!({ result }),
          (e: Error) => process.send!({ result: null, error: e.message }),
        );
    });
  else console.log(JSON.stringify(await runRouter(), null, 1));
}
