/**
 * Type-check cost of the output: `tsc --noEmit` (strict) with TypeScript 6 and 7 on our
 * generated package and on each anchor's output (openapi-typescript + openapi-fetch, hey-api,
 * orval fetch), each with a consumer making five calls. Runs are interleaved across targets.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anchorOut, anchors, lastOutput } from "./anchors.ts";
import { freshDir, root, timed } from "./proc.ts";
import { fmt, stat, type Row, type Section } from "./stats.ts";

const compilers: Record<string, string[]> = {
  "tsc 6": [join(root, "node_modules/typescript/bin/tsc")],
  "tsc 7": [join(root, "node_modules/typescript7/bin/tsc")],
};

/** Writes a strict `tsc --noEmit` project of `files` into `dir` (as `name`). */
export function project(dir: string, files: string[], name = "tsconfig.json"): void {
  writeFileSync(
    join(dir, name),
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022", "DOM"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files,
      },
      null,
      2,
    ),
  );
}

const oursConsumer = (
  src: string,
) => `import { MerchantClient } from ${JSON.stringify(join(src, "index.js"))};
const client = new MerchantClient({ baseUrl: "http://127.0.0.1:1", apiKey: "k", publishableKey: "p" });
export async function five() {
  const a = await client.transactions.list();
  const b = await client.transactions.get("ABCD-EFGH-IJKL");
  const c = await client.subscriptions.cancel("sub_1");
  const d = await client.webhooks.delete("wh_1");
  const e = await client.testing.getRandomPhone();
  return [a, b, c, d, e] as const;
}
`;

const consumers: Record<string, (out: string) => string> = {
  "openapi-typescript": (out) => `import createClient from "openapi-fetch";
import type { paths } from "./schema.js";
const client = createClient<paths>({ baseUrl: "http://127.0.0.1:1" });
export async function five() {
  const a = await client.GET("/v1/merchant/transactions");
  const b = await client.GET("/v1/merchant/transactions/{reference}", { params: { path: { reference: "ABCD-EFGH-IJKL" } } });
  const c = await client.POST("/v1/subscriptions/{subscription_id}/cancel", { params: { path: { subscription_id: "sub_1" } } });
  const d = await client.DELETE("/v1/webhooks/{webhook_id}", { params: { path: { webhook_id: "wh_1" } } });
  const e = await client.GET("/v3/testing/accounts/phones");
  return [a.data, b.data, c.data, d.data, e.data] as const;
}
`,
  "hey-api":
    () => `import { transactionsList, transactionsGet, subscriptionsCancel, webhooksDelete, testingGetRandomPhone } from "./out/index.js";
export async function five() {
  const a = await transactionsList();
  const b = await transactionsGet({ path: { reference: "ABCD-EFGH-IJKL" } });
  const c = await subscriptionsCancel({ path: { subscription_id: "sub_1" } });
  const d = await webhooksDelete({ path: { webhook_id: "wh_1" } });
  const e = await testingGetRandomPhone();
  return [a.data, b.data, c.data, d.data, e.data] as const;
}
`,
  orval:
    () => `import { transactionsList, transactionsGet, subscriptionsCancel, webhooksDelete, testingGetRandomPhone } from "./api.js";
export async function five() {
  const a = await transactionsList();
  const b = await transactionsGet("ABCD-EFGH-IJKL");
  const c = await subscriptionsCancel("sub_1");
  const d = await webhooksDelete("wh_1");
  const e = await testingGetRandomPhone();
  return [a, b, c, d, e] as const; // includeHttpResponseReturnType: false (bench/anchors.ts): each call returns its body
}
`,
};

export async function runTypecheck(): Promise<Section> {
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const rows: Row[] = [];
  const notes: string[] = [
    "Each project: strict, `skipLibCheck: false`, `types: []`, the output plus a consumer file making five client calls (openapi-typescript's types are used through openapi-fetch, as its docs show). Runs interleaved: each round checks every project once.",
  ];
  const medians = new Map<string, number>();
  const targets: [string, string][] = [];
  // ours: generated/src with a consumer file next to it (a copy is not needed; files list points at it)
  const oursDir = freshDir("tc-ours");
  writeFileSync(join(oursDir, "consumer.ts"), oursConsumer(join(root, "generated/src")));
  project(oursDir, ["consumer.ts"]);
  targets.push(["ours (generated/src)", oursDir]);
  for (const [name, cmd] of Object.entries(anchors)) {
    try {
      let out = lastOutput.get(name); // the anchors step's output, when it ran in this process
      if (!out) {
        out = anchorOut[name as keyof typeof anchorOut]();
        const [c, a] = cmd(out);
        timed(c, a);
      }
      const dir = join(out, "..");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "consumer.ts"), consumers[name]!(out));
      project(dir, ["consumer.ts"]);
      targets.push([name, dir]);
    } catch {
      rows.push({
        label: `${name}`,
        value: "not measured: the anchor fails to generate in this run",
      });
    }
  }
  for (const [compiler, argv] of Object.entries(compilers)) {
    // interleaved: round r checks every target once, so a burst of machine load hits all alike
    const times = new Map<string, number[]>(targets.map(([name]) => [name, []]));
    const failed = new Map<string, string>();
    const long = (name: string) =>
      times.get(name)!.length >= 3 && Math.min(...times.get(name)!) > 10_000; // issue 7: fewer than 5 only for runs over 10 s
    for (let r = 0; r < runs; r++) {
      for (const [name, dir] of targets) {
        if (failed.has(name) || (r >= 3 && long(name))) continue;
        try {
          times
            .get(name)!
            .push(timed(process.execPath, [...argv, "-p", join(dir, "tsconfig.json")], dir).ms);
        } catch (error) {
          failed.set(
            name,
            (error as Error).message
              .split("\n")
              .find((l) => /error TS/.test(l))
              ?.trim() ?? "failed",
          );
        }
      }
    }
    for (const [name] of targets) {
      const t = times.get(name)!;
      if (failed.has(name) || t.length === 0) {
        rows.push({
          label: `${compiler}: ${name}`,
          value: `not measured: tsc reports errors (${failed.get(name)})`,
        });
        continue;
      }
      const s = stat(t);
      medians.set(`${compiler}/${name}`, s.median);
      rows.push({ label: `${compiler}: ${name}`, value: fmt(s, "ms") });
      if (t.length < runs)
        notes.push(`${compiler}: ${name}: ${t.length} runs only (every run took over 10 s).`);
    }
    const ours = medians.get(`${compiler}/ours (generated/src)`);
    const ot = medians.get(`${compiler}/openapi-typescript`);
    if (ours !== undefined && ot !== undefined) {
      rows.push({
        label: `${compiler}: ours vs openapi-typescript`,
        value: `${ours.toFixed(0)} ms vs ${ot.toFixed(0)} ms (ratio ${(ours / ot).toFixed(2)})`,
        target: "no slower than openapi-typescript",
        verdict:
          ours <= ot
            ? "met"
            : `missed by ${(ours - ot).toFixed(0)} ms (${((ours / ot - 1) * 100).toFixed(0)}%)`,
      });
    }
  }
  return { title: "Type-check cost (tsc --noEmit, strict)", rows, notes };
}
