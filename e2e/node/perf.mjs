// Side-by-side benchmark of onetool against a bare go-sdk server (issue 20).
//
// Both servers are driven over stdio by the official TypeScript MCP SDK
// client pinned in package.json, in one sitting, repetitions alternating
// which server goes first, and the medians of the repetitions reported:
//
//   - call latency p50/p99 over 500 calls after a warm-up: goecho's echo tool,
//     onetool's run of one tool call (demo.foo) and of ten in a loop;
//   - cold start: spawn → initialize result, a few spawns per repetition;
//   - peak RSS: VmHWM from /proc/<pid>/status after the calls.
//
// Run from the repository root:
//
//	npm run perf --prefix e2e/node
//	npm run perf --prefix e2e/node -- --reps 5 --calls 1000
//
// Both binaries are built with `go build` into a temporary directory unless
// ONETOOL_BIN and GOECHO_BIN name binaries already built. ONETOOL_BASE_BIN
// adds a third server, an earlier onetool, measured in the same sitting
// and alternating with the others, and a second table for it: before and
// after a change, side by side. --json adds one line of JSON with every
// number after the tables (the Go test reads it).

import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const { values: opts } = parseArgs({
  options: {
    reps: { type: "string", default: "3" },
    calls: { type: "string", default: "500" },
    warmup: { type: "string", default: "100" },
    cold: { type: "string", default: "10" },
    json: { type: "boolean", default: false },
  },
});
const REPS = positive("reps");
const CALLS = positive("calls");
const WARMUP = positive("warmup");
const COLD = positive("cold");

function positive(name) {
  const n = Number(opts[name]);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`perf.mjs: --${name} must be a whole number ≥ 1, not ${JSON.stringify(opts[name])}`);
    process.exit(2);
  }
  return n;
}

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
// Each server runs in an empty directory with HOME pointing at it, so no
// configuration file of the machine's (./.onetool, ~/.onetool) is read.
const work = mkdtempSync(join(tmpdir(), "onetool-perf-"));

function build(pkg, name) {
  const out = join(work, name);
  const res = spawnSync("go", ["build", "-o", out, pkg], { cwd: repo, stdio: ["ignore", "inherit", "inherit"] });
  if (res.error || res.status !== 0) {
    console.error(`perf.mjs: go build ${pkg} failed${res.error ? `: ${res.error.message}` : ""}`);
    rmSync(work, { recursive: true, force: true });
    process.exit(1);
  }
  return out;
}

// given copies a binary named in the environment into the work directory:
// peak RSS counts the binary's pages that faults map from the page cache,
// and the kernel maps more around each fault when the file was written
// recently, so every binary measured is written the same way, just before.
function given(path, name) {
  const out = join(work, name);
  copyFileSync(path, out);
  chmodSync(out, 0o755);
  return out;
}

const servers = [
  {
    name: "goecho",
    bin: process.env.GOECHO_BIN ? given(process.env.GOECHO_BIN, "goecho") : build("./e2e/goecho", "goecho"),
    args: [],
    one: { name: "echo", arguments: { text: "hi" } },
  },
  {
    name: "onetool",
    bin: process.env.ONETOOL_BIN ? given(process.env.ONETOOL_BIN, "onetool") : build("./cmd/onetool", "onetool"),
    args: ["serve"],
    one: { name: "run", arguments: { command: 'demo.foo(text="hi")' } },
    ten: { name: "run", arguments: { command: 'for i in range(10):\n    demo.foo(text="hi")' } },
  },
];
if (process.env.ONETOOL_BASE_BIN) {
  servers.push({ ...servers[1], name: "base", bin: given(process.env.ONETOOL_BASE_BIN, "onetool-base") });
}

async function connect(server) {
  const transport = new StdioClientTransport({
    command: server.bin,
    args: server.args,
    cwd: work,
    env: { HOME: work },
    stderr: "pipe",
  });
  // Drain stderr so a chatty server never blocks on a full pipe.
  transport.stderr.on("data", () => {});
  const client = new Client({ name: "onetool-perf", version: "0.0.0" });
  const start = process.hrtime.bigint();
  await client.connect(transport);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { client, transport, ms };
}

async function close({ client, transport }) {
  try {
    await client.close();
  } finally {
    await transport.close();
  }
}

// coldStart spawns the server COLD times and returns the median of spawn →
// initialize result (client.connect resolves when the result is in).
async function coldStart(server) {
  const samples = [];
  for (let i = 0; i < COLD; i++) {
    const conn = await connect(server);
    samples.push(conn.ms);
    await close(conn);
  }
  return median(samples);
}

// latency returns p50 and p99 in ms of CALLS calls of params after WARMUP
// unmeasured ones; every answer is checked, so an error is never timed.
async function latency(client, params) {
  const call = async () => {
    const res = await client.callTool(params);
    if (res.isError || res.content?.[0]?.type !== "text") {
      throw new Error(`${params.name} failed: ${JSON.stringify(res)}`);
    }
  };
  for (let i = 0; i < WARMUP; i++) await call();
  const samples = new Float64Array(CALLS);
  for (let i = 0; i < CALLS; i++) {
    const start = process.hrtime.bigint();
    await call();
    samples[i] = Number(process.hrtime.bigint() - start) / 1e6;
  }
  samples.sort();
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99) };
}

function peakRSSMB(pid) {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

async function measure(server) {
  const r = { cold: await coldStart(server) };
  const conn = await connect(server);
  try {
    r.one = await latency(conn.client, server.one);
    if (server.ten) r.ten = await latency(conn.client, server.ten);
    r.rss = peakRSSMB(conn.transport.pid);
  } finally {
    await close(conn);
  }
  return r;
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function median(xs) {
  const s = Float64Array.from(xs).sort();
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const runs = Object.fromEntries(servers.map((s) => [s.name, []]));
try {
  for (let rep = 0; rep < REPS; rep++) {
    // Alternate which server goes first, so drift in the machine's load
    // falls on both alike.
    const order = rep % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) runs[server.name].push(await measure(server));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const med = (name, pick) => median(runs[name].map(pick));
const g = {
  one50: med("goecho", (r) => r.one.p50),
  one99: med("goecho", (r) => r.one.p99),
  cold: med("goecho", (r) => r.cold),
  rss: med("goecho", (r) => r.rss),
};
const summary = (name) => ({
  one50: med(name, (r) => r.one.p50),
  one99: med(name, (r) => r.one.p99),
  ten50: med(name, (r) => r.ten.p50),
  ten99: med(name, (r) => r.ten.p99),
  cold: med(name, (r) => r.cold),
  rss: med(name, (r) => r.rss),
});
const o = summary("onetool");
const base = runs.base ? summary("base") : undefined;

const ms = (x) => `${x.toFixed(3)} ms`;
const plus = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)} ms`;
const verdict = (ok) => (ok ? "met" : "not met");

// table prints onetool's medians o against goecho's, with the issue's goals.
// The ten-call run is compared with goecho's single call, as in the issue.
function table(label, o) {
  const rows = [
    ["call p50, one tool call", ms(g.one50), ms(o.one50), plus(o.one50 - g.one50), "≤ goecho + 0.05 ms", verdict(o.one50 - g.one50 <= 0.05)],
    ["call p99, one tool call", ms(g.one99), ms(o.one99), plus(o.one99 - g.one99), "—", ""],
    ["call p50, ten calls in a loop", ms(g.one50), ms(o.ten50), plus(o.ten50 - g.one50), "≤ goecho + 0.10 ms", verdict(o.ten50 - g.one50 <= 0.1)],
    ["call p99, ten calls in a loop", ms(g.one99), ms(o.ten99), plus(o.ten99 - g.one99), "—", ""],
    ["cold start, spawn → initialize result", ms(g.cold), ms(o.cold), `${(o.cold / g.cold).toFixed(2)}×`, "≤ 1.3 × goecho", verdict(o.cold <= 1.3 * g.cold)],
    ["peak RSS (VmHWM) serving", `${g.rss.toFixed(1)} MB`, `${o.rss.toFixed(1)} MB`, `${(o.rss / g.rss).toFixed(2)}×`, "≤ 20 MB", verdict(o.rss <= 20)],
  ];
  console.log("");
  console.log(`| | goecho | ${label} | difference | goal | |`);
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

console.log(
  `onetool vs goecho over stdio: medians of ${REPS} alternating repetitions; ${CALLS} calls after ${WARMUP} warm-up, ${COLD} cold starts each (MB = MiB)`,
);
table("onetool", o);
if (base) table("onetool (ONETOOL_BASE_BIN)", base);
if (opts.json) console.log(JSON.stringify({ reps: REPS, calls: CALLS, goecho: g, onetool: o, base, runs }));
