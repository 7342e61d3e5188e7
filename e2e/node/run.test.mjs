// End-to-end tests: the real onetool binary, driven by the official
// TypeScript MCP SDK client over stdio and streamable HTTP.
//
// Run by `go test ./cmd/onetool -run TestNodeE2E` (cmd/onetool/e2e_node_test.go),
// which builds the binary and passes its path in ONETOOL_BIN. By hand:
//
//	go build -o /tmp/onetool ./cmd/onetool
//	cd e2e/node && npm ci && ONETOOL_BIN=/tmp/onetool npm test

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import net from "node:net";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, mkdirSync, realpathSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { OAuth2Server } from "oauth2-mock-server";

const ONETOOL_BIN = process.env.ONETOOL_BIN;
if (!ONETOOL_BIN) {
  throw new Error("set ONETOOL_BIN to the path of a built onetool binary");
}

const TIMEOUT = { timeout: 20000 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function newClient() {
  return new Client({ name: "onetool-e2e-node", version: "0.0.0" });
}

// run calls the run tool and returns the result; text is its single text
// content.
async function run(client, command, options) {
  const result = await client.callTool({ name: "run", arguments: { command } }, undefined, options);
  assert.equal(result.content.length, 1, `one content item: ${JSON.stringify(result)}`);
  assert.equal(result.content[0].type, "text");
  return { ...result, text: result.content[0].text };
}

async function waitFor(predicate, ms, what) {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) assert.fail(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}

// serveHTTP starts `onetool serve --http 127.0.0.1:0 [extra...]` and
// resolves to { child, url, stderr() } once the server prints its listening
// line. Port 0 lets the kernel pick a free port with no race; the line
// carries the real address. addr replaces 127.0.0.1:0 when the port must
// be known beforehand.
async function serveHTTP(extra = [], addr = "127.0.0.1:0") {
  const child = spawn(ONETOOL_BIN, ["serve", "--http", addr, ...extra], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 10 s; stderr:\n${stderr}`)), 10000);
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const m = /^onetool: listening on (http:\/\/\S+\/mcp)$/m.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`onetool exited early (code ${code}, signal ${signal}); stderr:\n${stderr}`));
    });
  });
  return { child, url, stderr: () => stderr };
}

// stop ends a spawned process: SIGTERM, then SIGKILL after 3 s.
async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
}

// serveHTTPClients starts `onetool serve --http` with extra arguments and
// connects n clients to it, each its own session; closeHTTP undoes it.
async function serveHTTPClients(extra = [], n = 1) {
  const server = await serveHTTP(extra);
  const clients = [];
  for (let i = 0; i < n; i++) {
    const c = newClient();
    await c.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    clients.push(c);
  }
  return { server, clients };
}

async function closeHTTP(server, clients) {
  try {
    for (const c of clients) await c?.close();
  } finally {
    await stop(server?.child);
  }
}

describe("stdio", () => {
  let client;
  let transport;
  let stderr = "";
  const clientErrors = [];

  before(async () => {
    transport = new StdioClientTransport({
      command: ONETOOL_BIN,
      // debug logs one line per run, which the cancellation test reads.
      args: ["serve", "--log-level", "debug"],
      stderr: "pipe",
    });
    // Drain stderr so a chatty server can never block on a full pipe.
    transport.stderr.setEncoding("utf8");
    transport.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    client = newClient();
    client.onerror = (err) => clientErrors.push(err);
    await client.connect(transport);
  });

  after(async () => {
    // Client.close closes the transport, whose close ends the child: stdin
    // EOF, then SIGTERM, then SIGKILL. transport.close() covers a client
    // that never connected and is a no-op otherwise.
    try {
      await client?.close();
    } finally {
      await transport?.close();
    }
  });

  test("stdio: lists exactly one tool, run, with its schema and annotations", TIMEOUT, async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["run"]);
    const [runTool] = tools;
    assert.ok(runTool.description, "run has a description");
    assert.equal(runTool.inputSchema.type, "object");
    assert.equal(runTool.inputSchema.properties.command.type, "string");
    assert.deepEqual(runTool.inputSchema.required, ["command"]);
    assert.equal(runTool.annotations.readOnlyHint, false);
    assert.equal(runTool.annotations.destructiveHint, true, "the file pack can delete, so run is destructive");
    assert.equal(runTool.annotations.openWorldHint, true);
  });

  test("stdio: instructions mention ot.help and every pack", TIMEOUT, async () => {
    const instructions = client.getInstructions();
    assert.equal(typeof instructions, "string");
    assert.match(instructions, /ot\.help/);
    for (const pack of ["demo", "ot"]) {
      assert.match(instructions, new RegExp(`^- ${pack}: `, "m"), `pack ${pack} in:\n${instructions}`);
    }
  });

  test("stdio: run demo.foo returns orange", TIMEOUT, async () => {
    const res = await run(client, 'demo.foo(text="test")');
    assert.equal(res.text, "orange");
    assert.ok(!res.isError, "isError is falsy");
  });

  test("stdio: a multi-line program with a loop and print gives the exact text", TIMEOUT, async () => {
    const program = [
      "total = 0",
      "for i in range(3):",
      '    print("step", i)',
      "    total += demo.add(a=i, b=10)",
      "total",
    ].join("\n");
    const res = await run(client, program);
    assert.equal(res.text, "step 0\nstep 1\nstep 2\n33");
    assert.ok(!res.isError);
  });

  test("stdio: a program in a Markdown fence with prose after it runs", TIMEOUT, async () => {
    const command = [
      "```python",
      'print("colour:")',
      'demo.foo(text="test")',
      "```",
      "This asks demo.foo for the colour of the text `test`.",
    ].join("\n");
    const res = await run(client, command);
    assert.equal(res.text, "colour:\norange");
    assert.ok(!res.isError);
  });

  test("stdio: a runtime error is isError with the user's line", TIMEOUT, async () => {
    const res = await run(client, "x = 1\ny = x // 0\ny");
    assert.equal(res.isError, true);
    assert.equal(res.text, "Error: line 2: division by zero");
  });

  test("stdio: an unknown pack names the available packs", TIMEOUT, async () => {
    const res = await run(client, 'brave.search(query="x")');
    assert.equal(res.isError, true);
    assert.match(res.text, /^Error: /);
    assert.ok(res.text.includes("Available packs: db, demo, file, ot, web"), res.text);
  });

  test("stdio: resource onetool://tools lists demo.foo", TIMEOUT, async () => {
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === "onetool://tools"), JSON.stringify(resources));
    const { contents } = await client.readResource({ uri: "onetool://tools" });
    assert.equal(contents.length, 1);
    const tools = JSON.parse(contents[0].text);
    assert.ok(Array.isArray(tools), "onetool://tools is a JSON array");
    const foo = tools.find((t) => t.id === "demo.foo");
    assert.ok(foo, `demo.foo in ${contents[0].text.slice(0, 300)}`);
    assert.equal(foo.signature, "demo.foo(text: str) -> str");
  });

  test("stdio: resource template onetool://tool/{id} gives demo.foo's signature", TIMEOUT, async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.ok(
      resourceTemplates.some((t) => t.uriTemplate === "onetool://tool/{id}"),
      JSON.stringify(resourceTemplates),
    );
    const { contents } = await client.readResource({ uri: "onetool://tool/demo.foo" });
    assert.equal(contents.length, 1);
    const tool = JSON.parse(contents[0].text);
    assert.equal(tool.id, "demo.foo");
    assert.equal(tool.signature, "demo.foo(text: str) -> str");
    assert.ok(tool.input_schema, "has an input schema");
  });

  test("stdio: progress notifications, one per tool call", TIMEOUT, async () => {
    // The TypeScript SDK (1.32.2) dispatches notifications in a microtask
    // but responses at once, so a progress notification that arrives in the
    // same read as the result finds its handler already removed
    // ("unknown token", reported to onerror). The short sleeps keep the
    // demo.foo notifications well ahead of the result; the test that
    // follows checks the wire order without the SDK.
    const progress = [];
    const program = [
      "colours = []",
      'for text in ["a", "b", "c"]:',
      "    colours.append(demo.foo(text=text))",
      "    demo.sleep(ms=30)",
      "len(colours)",
    ].join("\n");
    const res = await run(client, program, { onprogress: (p) => progress.push(p) });
    assert.equal(res.text, "3");
    await waitFor(() => progress.length >= 3, 2000, "3 progress notifications");
    const fooCalls = progress.filter((p) => p.message === "demo.foo");
    assert.equal(fooCalls.length, 3, JSON.stringify(progress));
    const values = progress.map((p) => p.progress);
    assert.deepEqual(values, [...values].sort((a, b) => a - b), "progress increases");
  });

  test("stdio: progress notifications are on the wire before the result", TIMEOUT, async () => {
    // Raw JSON-RPC over a second onetool process: three back-to-back tool
    // calls give three notifications/progress, all before the response.
    const child = spawn(ONETOOL_BIN, ["serve"], { stdio: ["pipe", "pipe", "ignore"] });
    try {
      let out = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      const send = (msg) => child.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");
      const messages = () => out.split("\n").filter(Boolean).map((line) => JSON.parse(line));
      send({
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      });
      await waitFor(() => messages().some((m) => m.id === 1), 5000, "initialize response");
      send({ method: "notifications/initialized" });
      send({
        id: 2,
        method: "tools/call",
        params: {
          name: "run",
          arguments: { command: 'demo.foo(text="a")\ndemo.foo(text="b")\ndemo.foo(text="c")' },
          _meta: { progressToken: "p1" },
        },
      });
      await waitFor(() => messages().some((m) => m.id === 2), 5000, "tools/call response");
      const msgs = messages();
      const resultIndex = msgs.findIndex((m) => m.id === 2);
      const before = msgs.slice(0, resultIndex).filter((m) => m.method === "notifications/progress");
      assert.deepEqual(
        before.map((m) => [m.params.progressToken, m.params.progress, m.params.message]),
        [
          ["p1", 1, "demo.foo"],
          ["p1", 2, "demo.foo"],
          ["p1", 3, "demo.foo"],
        ],
        out,
      );
      assert.equal(msgs[resultIndex].result.content[0].text, "olive");
    } finally {
      await stop(child);
    }
  });

  test("stdio: aborting a call rejects promptly, cancels the run, and the client still works", TIMEOUT, async () => {
    const controller = new AbortController();
    const logFrom = stderr.length;
    const runLog = () => /msg=run duration=(\S+) tool_calls=1 error=true/.exec(stderr.slice(logFrom));
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(
      client.callTool({ name: "run", arguments: { command: "demo.sleep(ms=10000)" } }, undefined, {
        signal: controller.signal,
      }),
    );
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 2000, `rejected after ${elapsed} ms`);

    // The server must stop the program, not just the client its wait: the
    // debug log line of that run shows it ended with an error, long before
    // its 10 s sleep.
    await waitFor(
      () => runLog() !== null,
      2000,
      `the cancelled run's log line (msg=run ... tool_calls=1 error=true) in stderr:\n${stderr.slice(logFrom)}`,
    );
    const m = runLog();
    assert.ok(/^\d+(\.\d+)?(ms|µs|us|ns)$/.test(m[1]), `the cancelled run took ${m[1]}`);

    const res = await run(client, 'demo.foo(text="test")');
    assert.equal(res.text, "orange");
    assert.ok(Date.now() - started < 3000, "the next call was not held up by the cancelled one");
  });
});

describe("stdio, the client's roots", () => {
  // A desktop client starts servers in /; the home directory is a clean one.
  const base = realpathSync(mkdtempSync(join(tmpdir(), "onetool-roots-")));
  for (const d of ["home", "a", "b", "c"]) {
    mkdirSync(join(base, d));
    writeFileSync(join(base, d, "f.txt"), `in ${d}`);
  }
  const env = { PATH: process.env.PATH, HOME: join(base, "home") };
  const read = (client, d) => run(client, `file.read(${JSON.stringify(join(base, d, "f.txt"))})`);
  const opened = [];

  async function start(roots, args = []) {
    const transport = new StdioClientTransport({ command: ONETOOL_BIN, args: ["serve", "--log-level", "warn", ...args], cwd: "/", env, stderr: "pipe" });
    transport.stderr.resume();
    const client = roots
      ? new Client({ name: "onetool-e2e-roots", version: "0.0.0" }, { capabilities: { roots: { listChanged: true } } })
      : newClient();
    if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((d) => ({ uri: pathToFileURL(join(base, d)).href, name: d })) }));
    await client.connect(transport);
    opened.push({ client, transport });
    return client;
  }

  after(async () => {
    for (const { client, transport } of opened) {
      try {
        await client.close();
      } finally {
        await transport.close();
      }
    }
  });

  test("roots: started in / with no root, file access is refused with how to set one", TIMEOUT, async () => {
    const client = await start(null);
    const res = await read(client, "a");
    assert.equal(res.isError, true);
    assert.match(res.text, /^Error: line 1: file\.read failed: no root directory is set: onetool was started in \/ \(the whole disk/);
    assert.match(res.text, /--root DIR/);
  });

  test("roots: serve --root makes a root", TIMEOUT, async () => {
    const client = await start(null, ["--root", join(base, "a")]);
    assert.equal((await read(client, "a")).text, "in a");
    assert.match((await read(client, "b")).text, /outside the allowed roots/);
  });

  test("roots: the client's roots replace --root, and a change reaches the next run", TIMEOUT, async () => {
    const roots = ["b"];
    const client = await start(roots, ["--root", join(base, "a")]);
    assert.equal((await read(client, "b")).text, "in b");
    assert.match((await read(client, "a")).text, /outside the allowed roots/);
    roots.splice(0, roots.length, "c");
    await client.sendRootsListChanged();
    assert.equal((await read(client, "c")).text, "in c");
    assert.match((await read(client, "b")).text, /outside the allowed roots/);
    // A relative path starts at the client's first root.
    assert.equal((await run(client, `file.read("f.txt")`)).text, "in c");
  });
});

describe("streamable HTTP", () => {
  let server;
  let client;

  before(async () => {
    ({ server, clients: [client] } = await serveHTTPClients());
  });
  after(() => closeHTTP(server, [client]));

  test("http: lists the run tool", TIMEOUT, async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["run"]);
    assert.deepEqual(tools[0].inputSchema.required, ["command"]);
    assert.match(client.getInstructions() ?? "", /ot\.help/);
  });

  test("http: runs a program", TIMEOUT, async () => {
    const res = await run(client, 'print("hello")\ndemo.foo(text="test")');
    assert.equal(res.text, "hello\norange");
    assert.ok(!res.isError);
  });

  test("http: a program error is isError with its text", TIMEOUT, async () => {
    const res = await run(client, "x = 1\nx // 0");
    assert.equal(res.isError, true);
    assert.equal(res.text, "Error: line 2: division by zero");
  });

  test("http: /healthz answers ok and /metrics counts the runs in Prometheus format", TIMEOUT, async () => {
    await run(client, 'demo.bar(text="item1")');
    const base = server.url.replace(/\/mcp$/, "");
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 200);
    assert.equal((await health.text()).trim(), "ok");
    const metrics = await fetch(`${base}/metrics`);
    assert.equal(metrics.status, 200);
    const text = await metrics.text();
    assert.match(text, /^onetool_runs_total\{outcome="ok",principal=""\} [1-9]\d*$/m);
    assert.match(text, /^onetool_tool_calls_total\{outcome="ok",principal="",tool="demo\.bar"\} 1$/m);
    assert.match(text, /^# TYPE onetool_run_duration_seconds histogram$/m);
  });

  test("http: a foreign Host or Origin is refused with 403 (DNS rebinding)", TIMEOUT, async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    // node:http, not fetch: fetch silently replaces a Host header with the
    // URL's host, so it cannot send the request a rebinding attack makes.
    const post = (extra) =>
      new Promise((resolve, reject) => {
        const req = http.request(
          server.url,
          {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
              "Content-Length": Buffer.byteLength(body),
              ...extra,
            },
          },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk) => {
              text += chunk;
            });
            res.on("end", () => resolve({ status: res.statusCode, text }));
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(body);
      });

    // Control: the same request with the real Host is served.
    const ok = await post({});
    assert.equal(ok.status, 200, ok.text);

    const badHost = await post({ Host: "evil.example" });
    assert.equal(badHost.status, 403, `Host: evil.example gave ${badHost.status}: ${badHost.text}`);

    const badOrigin = await post({ Origin: "http://evil.example" });
    assert.equal(badOrigin.status, 403, `Origin: http://evil.example gave ${badOrigin.status}: ${badOrigin.text}`);
  });
});

describe("streamable HTTP, stateless", () => {
  let server;
  let client;

  before(async () => {
    ({ server, clients: [client] } = await serveHTTPClients(["--stateless"]));
  });
  after(() => closeHTTP(server, [client]));

  test("http stateless: lists the run tool and runs a program", TIMEOUT, async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["run"]);
    const res = await run(client, 'demo.foo(text="test")');
    assert.equal(res.text, "orange");
    assert.ok(!res.isError);
  });
});

describe("stdio, security.confirm_destructive", () => {
  // A project directory with confirm_destructive on; the client supports
  // elicitation and answers each question from the queue below.
  const dir = mkdtempSync(join(tmpdir(), "onetool-e2e-"));
  writeFileSync(join(dir, "onetool.yaml"), "security:\n  confirm_destructive: true\n");
  writeFileSync(join(dir, "keep.txt"), "precious\n");
  const answers = [];
  const questions = [];
  let client;

  before(async () => {
    const transport = new StdioClientTransport({
      command: ONETOOL_BIN,
      args: ["serve", "--config", join(dir, "onetool.yaml")],
      cwd: dir,
      stderr: "pipe",
    });
    transport.stderr.on("data", () => {});
    client = new Client({ name: "onetool-e2e-node", version: "0.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      questions.push(req.params.message);
      return { action: answers.shift() ?? "decline" };
    });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
  });

  test("confirm: an accepted destructive call runs after the user is asked", TIMEOUT, async () => {
    answers.push("accept");
    const res = await run(client, 'file.write(path="new.txt", content="hello")');
    assert.ok(!res.isError, res.text);
    assert.equal(readFileSync(join(dir, "new.txt"), "utf8"), "hello");
    assert.match(questions.at(-1), /file\.write\(.*path="new\.txt"/);
  });

  test("confirm: a declined destructive call fails with a clear error and does not run", TIMEOUT, async () => {
    answers.push("decline");
    const res = await run(client, 'file.delete(path="keep.txt")');
    assert.ok(res.isError);
    assert.equal(res.text, "Error: line 1: file.delete failed: not confirmed: the user declined file.delete; do not retry it unless the user asks");
    assert.ok(existsSync(join(dir, "keep.txt")), "keep.txt must still exist");
  });

  test("confirm: a client without elicitation is refused with an explanation", TIMEOUT, async () => {
    const plain = newClient();
    await plain.connect(new StdioClientTransport({
      command: ONETOOL_BIN,
      args: ["serve", "--config", join(dir, "onetool.yaml")],
      cwd: dir,
      stderr: "ignore",
    }));
    try {
      const res = await run(plain, 'file.delete(path="keep.txt")');
      assert.ok(res.isError);
      assert.match(res.text, /^Error: line 1: file\.delete failed: not confirmed: .*this MCP client does not support elicitation/);
      assert.ok(existsSync(join(dir, "keep.txt")), "keep.txt must still exist");
    } finally {
      await plain.close();
    }
  });

  test("confirm: read-only tools never ask", TIMEOUT, async () => {
    const before = questions.length;
    const res = await run(client, 'file.read(path="keep.txt")');
    assert.equal(res.text, "precious\n");
    assert.equal(questions.length, before);
  });
});

describe("streamable HTTP, serve.session_state", () => {
  const dir = mkdtempSync(join(tmpdir(), "onetool-e2e-state-"));
  writeFileSync(join(dir, "onetool.yaml"), "serve:\n  session_state: true\n");
  let server;
  let clients = [];

  before(async () => {
    ({ server, clients } = await serveHTTPClients(["--config", join(dir, "onetool.yaml")], 2));
  });
  after(() => closeHTTP(server, clients));

  test("state: globals persist within a session and stay apart between two concurrent sessions", TIMEOUT, async () => {
    const [a, b] = clients;
    await Promise.all([run(a, 'name = "a"\ndef hello():\n    return "hi " + name'), run(b, 'name = "b"')]);
    await Promise.all([run(a, 'name = name + "!"'), run(b, "n = 42")]);
    assert.equal((await run(a, "hello()")).text, "hi a!");
    assert.equal((await run(b, "[name, n]")).text, '["b",42]');
    const missing = await run(a, "n");
    assert.ok(missing.isError);
    assert.match(missing.text, /'n' is not defined/);
  });
});

describe("streamable HTTP, serve.auth static tokens", () => {
  const dir = mkdtempSync(join(tmpdir(), "onetool-e2e-auth-"));
  writeFileSync(join(dir, "secrets.yaml"), "ALICE_TOKEN: alice-e2e-token\nCI_TOKEN: ci-e2e-token\nMETRICS_TOKEN: metrics-e2e-token\n");
  writeFileSync(
    join(dir, "onetool.yaml"),
    [
      "serve:",
      "  auth:",
      "    tokens:",
      '      - {name: alice, token: "${ALICE_TOKEN}", policy: dev}',
      '      - {name: ci, token: "${CI_TOKEN}", policy: reader}',
      '    metrics_token: "${METRICS_TOKEN}"',
      "  rate_limit: {runs_per_minute: 8}",
      "policies:",
      '  dev: {allow: ["*"]}',
      '  reader: {allow: ["ot.*", "demo.foo"], read_only: true}',
      "",
    ].join("\n"),
  );
  let server;
  const clients = [];

  before(async () => {
    server = await serveHTTP(["--config", join(dir, "onetool.yaml")]);
  });
  after(() => closeHTTP(server, clients));

  async function connectWith(token) {
    const c = newClient();
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
    clients.push(c);
    return c;
  }

  test("auth: no token or an unknown one is refused with 401", TIMEOUT, async () => {
    await assert.rejects(connectWith(""), /Unauthorized: send Authorization: Bearer <token>/);
    await assert.rejects(connectWith("not-a-token"), /invalid token: the bearer token is not one of serve.auth.tokens/);
    const res = await fetch(server.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("www-authenticate"), "Bearer");
  });

  test("auth: each token's runs follow its policy", TIMEOUT, async () => {
    const alice = await connectWith("alice-e2e-token");
    assert.equal((await run(alice, 'demo.bar(text="item1")')).text, "fox");
    const ci = await connectWith("ci-e2e-token");
    const refused = await run(ci, "x = 1\ndemo.bar(text='item1')");
    assert.ok(refused.isError);
    assert.equal(refused.text, "Error: line 2: demo.bar is not allowed by policy 'reader'");
    assert.equal((await run(ci, 'ot.tools(pattern="demo.*", info="min")')).text, '["demo.foo"]');
  });

  test("auth: /healthz stays open, /metrics needs its own token", TIMEOUT, async () => {
    const base = server.url.replace(/\/mcp$/, "");
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    assert.equal((await fetch(`${base}/metrics`)).status, 401);
    assert.equal((await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer alice-e2e-token" } })).status, 401);
    assert.equal((await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer metrics-e2e-token" } })).status, 200);
  });

  test("auth: runs over serve.rate_limit get 429 with the bound named; other principals go on", TIMEOUT, async () => {
    const ci = await connectWith("ci-e2e-token");
    // 8 runs a minute: the 9th of a minute is refused (if the minute turns
    // during the loop, its count starts again; 20 tries cover both).
    let refused;
    for (let i = 0; i < 20 && !refused; i++) {
      try {
        await run(ci, "1");
      } catch (err) {
        refused = err;
      }
    }
    assert.ok(refused, "no run was refused");
    assert.equal(refused.code, 429); // the SDK's StreamableHTTPError carries the status
    assert.match(String(refused), /rate limit: principal 'ci' has started 8 runs this minute \(serve\.rate_limit\.runs_per_minute: 8\); retry in \d+s/);
    const alice = await connectWith("alice-e2e-token");
    assert.equal((await run(alice, "2 + 2")).text, "4");
    const base = server.url.replace(/\/mcp$/, "");
    const metrics = await (await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer metrics-e2e-token" } })).text();
    assert.match(metrics, /^onetool_runs_total\{outcome="ok",principal="alice"\} [1-9]\d*$/m);
    assert.match(metrics, /^onetool_runs_total\{outcome="ok",principal="ci"\} [1-9]\d*$/m);
  });
});

// Principals of one server stay apart (issue 27): a principal allowed
// only ot.help that opens many sessions ends only its own, and the bound
// on runs in flight answers 429 with the bound named to the SDK's client.
describe("streamable HTTP, principals apart", () => {
  const dir = mkdtempSync(join(tmpdir(), "onetool-e2e-principals-"));
  writeFileSync(
    join(dir, "onetool.yaml"),
    [
      "serve:",
      "  session_state: true",
      "  max_sessions: 2",
      "  auth:",
      "    tokens:",
      "      - {name: alice, token: alice-e2e-token, policy: dev}",
      "      - {name: mallory, token: mallory-e2e-token, policy: help}",
      "  rate_limit: {concurrent: 1}",
      "policies:",
      '  dev: {allow: ["*"]}',
      '  help: {allow: ["ot.help"], read_only: true}',
      "",
    ].join("\n"),
  );
  let server;
  const clients = [];

  before(async () => {
    server = await serveHTTP(["--config", join(dir, "onetool.yaml")]);
  });
  after(() => closeHTTP(server, clients));

  async function connectWith(token) {
    const c = newClient();
    await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    clients.push(c);
    return c;
  }

  test("principals: another principal's many sessions end none of alice's, nor her state", TIMEOUT, async () => {
    const a1 = await connectWith("alice-e2e-token");
    const a2 = await connectWith("alice-e2e-token");
    await run(a1, "n = 1");
    await run(a2, "n = 2");
    for (let i = 0; i < 6; i++) await connectWith("mallory-e2e-token");
    assert.equal((await run(a1, "n")).text, "1");
    assert.equal((await run(a2, "n")).text, "2");
  });

  test("principals: a second run in flight gets 429 naming serve.rate_limit.concurrent", TIMEOUT, async () => {
    const a = await connectWith("alice-e2e-token");
    const b = await connectWith("alice-e2e-token");
    const slow = run(a, "demo.sleep(ms=800)");
    await sleep(200);
    let refused;
    try {
      await run(b, "1");
    } catch (err) {
      refused = err;
    }
    assert.ok(refused, "a second run in flight was not refused");
    assert.equal(refused.code, 429);
    assert.match(String(refused), /rate limit: principal 'alice' has 1 run in flight already \(serve\.rate_limit\.concurrent: 1\); retry when one has finished/);
    assert.equal((await slow).text, "800");
    assert.equal((await run(b, "2 + 2")).text, "4");
  });
});

// freePort returns a loopback port that was free a moment ago: for a
// server whose URL must be written in its configuration before it starts.
async function freePort() {
  const s = net.createServer();
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
  const { port } = s.address();
  s.close();
  await once(s, "close");
  return port;
}

// serve.auth.oauth against a real authorization server (oauth2-mock-server),
// with the TypeScript SDK's own OAuth flow: the 401's resource_metadata,
// the protected resource metadata, the issuer's metadata, then a
// client_credentials token for the resource, sent as a bearer token.
describe("streamable HTTP, serve.auth.oauth", () => {
  const dir = mkdtempSync(join(tmpdir(), "onetool-e2e-oauth-"));
  let oauth;
  let server;
  let audience;
  // mode says how the authorization server spoils the next tokens.
  let mode = "ok";
  const clients = [];

  before(async () => {
    oauth = new OAuth2Server();
    await oauth.issuer.keys.generate("RS256");
    await oauth.start(0, "127.0.0.1");
    oauth.issuer.url = `http://127.0.0.1:${oauth.address().port}`;
    // What a real authorization server does with a resource indicator
    // (RFC 8707): the token's audience is the resource it was asked for.
    oauth.service.on("beforeTokenSigning", (token, req) => {
      token.payload.aud = req.body.resource;
      token.payload.sub = "agent-1";
      if (mode === "dev") token.payload.onetool_policy = "dev";
      if (mode === "expired") token.payload.exp = Math.floor(Date.now() / 1000) - 120;
      if (mode === "wrong-aud") token.payload.aud = "http://127.0.0.1:1/mcp";
      if (mode === "no-scope") token.payload.scope = "openid";
    });
    const port = await freePort();
    audience = `http://127.0.0.1:${port}/mcp`;
    writeFileSync(
      join(dir, "onetool.yaml"),
      [
        "serve:",
        "  auth:",
        "    oauth:",
        `      issuer: ${oauth.issuer.url}`,
        `      audience: ${audience}`,
        "      scopes: [onetool.run]",
        "      policy_claim: onetool_policy",
        "      default_policy: reader",
        "policies:",
        '  dev: {allow: ["*"]}',
        '  reader: {allow: ["ot.*", "demo.foo"], read_only: true}',
        "",
      ].join("\n"),
    );
    server = await serveHTTP(["--config", join(dir, "onetool.yaml")], `127.0.0.1:${port}`);
    assert.equal(server.url, audience);
  });
  after(async () => {
    await closeHTTP(server, clients);
    await oauth?.stop();
  });

  async function connectOAuth() {
    const provider = new ClientCredentialsProvider({
      clientId: "e2e-client",
      clientSecret: "e2e-secret",
      scope: "onetool.run", // a client_credentials client asks for the scopes it was given
      expectedIssuer: oauth.issuer.url,
    });
    const c = newClient();
    clients.push(c);
    await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
    return { client: c, provider };
  }

  test("oauth: a 401 points to the protected resource metadata, which names the issuer", TIMEOUT, async () => {
    const base = audience.replace(/\/mcp$/, "");
    const res = await fetch(server.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("www-authenticate"), `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`);
    const prm = await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json();
    assert.deepEqual(prm, {
      resource: audience,
      authorization_servers: [oauth.issuer.url],
      scopes_supported: ["onetool.run"],
      bearer_methods_supported: ["header"],
      resource_name: "onetool",
    });
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
  });

  test("oauth: the SDK's client_credentials flow gets a token, and runs follow default_policy", TIMEOUT, async () => {
    mode = "ok";
    const { client, provider } = await connectOAuth();
    assert.ok(provider.tokens()?.access_token, "the SDK obtained an access token");
    assert.equal((await run(client, 'demo.foo(text="test")')).text, "orange");
    const refused = await run(client, "x = 1\ndemo.bar(text='item1')");
    assert.ok(refused.isError);
    assert.equal(refused.text, "Error: line 2: demo.bar is not allowed by policy 'reader'");
  });

  test("oauth: the policy a token's onetool_policy claim names applies", TIMEOUT, async () => {
    mode = "dev";
    const { client } = await connectOAuth();
    assert.equal((await run(client, "x = 1\ndemo.bar(text='item1')")).text, "fox");
  });

  test("oauth: an expired token is refused with 401", TIMEOUT, async () => {
    mode = "expired";
    await assert.rejects(connectOAuth(), /401 after successful authentication/);
    const token = await oauthToken("expired");
    const res = await postWith(token);
    assert.equal(res.status, 401);
    assert.match(await res.text(), /the token has expired/);
  });

  test("oauth: a token for another audience is refused with 401", TIMEOUT, async () => {
    mode = "wrong-aud";
    await assert.rejects(connectOAuth(), /401 after successful authentication/);
    const res = await postWith(await oauthToken("wrong-aud"));
    assert.equal(res.status, 401);
    assert.match(await res.text(), /the token is for audience \["http:\/\/127.0.0.1:1\/mcp"\]/);
  });

  test("oauth: a token without the scope is refused with 403 insufficient_scope", TIMEOUT, async () => {
    mode = "no-scope";
    await assert.rejects(connectOAuth(), /403 after trying upscoping/);
    const res = await postWith(await oauthToken("no-scope"));
    assert.equal(res.status, 403);
    const base = audience.replace(/\/mcp$/, "");
    assert.equal(
      res.headers.get("www-authenticate"),
      `Bearer error="insufficient_scope", scope="onetool.run", resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    );
  });

  // oauthToken asks the authorization server for a token directly, spoilt
  // as m says, to look at onetool's answer to it.
  async function oauthToken(m) {
    mode = m;
    const res = await fetch(`${oauth.issuer.url}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "e2e-client", scope: "onetool.run", resource: audience }),
    });
    assert.equal(res.status, 200);
    return (await res.json()).access_token;
  }

  function postWith(token) {
    return fetch(server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } }),
    });
  }
});
