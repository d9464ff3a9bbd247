// The TypeScript API: direct calls never throw, availability, binary
// discovery, the registered tool and its session lifecycle.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { askUserSupport, createAskUser, createPiHost, registerAskUser, toolSpec } from "../index.ts";
import { Child } from "../src/child.ts";
import type { Hello } from "../src/protocol.ts";
import { findBinary, helloFor, RELEASE, STARTUP_DELAY_MS } from "../src/host.ts";
import { binary, fakeCtx, fakePi, noConfig, pkgDir, tempDir, until } from "./fake.ts";

const deploy = { questions: [{ title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }] }] };

test("findBinary: the option, the package's bin, the platform package, PATH, else a reason that says what to do", () => {
  const dir = tempDir("askuser-bin-");
  const onPath = join(dir, "path");
  mkdirSync(onPath);
  writeFileSync(join(onPath, "askuser"), "#!/bin/sh\n");
  chmodSync(join(onPath, "askuser"), 0o755);
  const empty = join(dir, "empty-pkg");
  mkdirSync(empty);
  // An npm tree: this package and its platform packages side by side.
  const tree = join(dir, "tree", "node_modules");
  const installed = join(tree, "@askuser", "pi-ask-user");
  mkdirSync(installed, { recursive: true });
  for (const [platform, exe] of [["linux-x64", "askuser"], ["win32-arm64", "askuser.exe"]] as const) {
    const p = join(tree, "@askuser", `askuser-${platform}`);
    mkdirSync(join(p, "bin"), { recursive: true });
    writeFileSync(join(p, "package.json"), JSON.stringify({ name: `@askuser/askuser-${platform}`, version: RELEASE }));
    writeFileSync(join(p, "bin", exe), "#!/bin/sh\n");
    chmodSync(join(p, "bin", exe), 0o755);
  }
  // Files that are no program for this machine.
  const elf = (machine: number) => {
    const b = Buffer.alloc(64);
    b.writeUInt32LE(0x464c457f, 0);
    b.writeUInt16LE(machine, 18);
    return b;
  };
  const bad = (name: string, bytes: Buffer | string, mode = 0o755) => {
    const f = join(dir, name);
    writeFileSync(f, bytes);
    chmodSync(f, mode);
    return f;
  };
  const arm = bad("arm64-elf", elf(0xb7));
  const x64 = bad("x64-elf", elf(0x3e));
  const noExec = bad("no-exec", "#!/bin/sh\n", 0o644);
  const text = bad("text", "hello\n");
  const cases: { name: string; explicit?: string; where: Parameters<typeof findBinary>[1]; want: RegExp | string }[] = [
    { name: "explicit", explicit: binary, where: { path: "" }, want: binary },
    { name: "explicit missing", explicit: join(dir, "nope"), where: {}, want: /"binary" option .*nope.* is not a file/ },
    { name: "explicit empty", explicit: "", where: {}, want: /"binary" option \(""\) is not a file/ },
    { name: "explicit, for another platform", explicit: arm, where: { platform: "linux-x64" }, want: /cannot run: .*arm64-elf is a program for linux-arm64, and this machine is linux-x64/ },
    { name: "explicit, for this platform", explicit: x64, where: { platform: "linux-x64" }, want: x64 },
    { name: "explicit, no exec bit", explicit: noExec, where: {}, want: /cannot run: .*no-exec is not executable: give it the exec bit/ },
    { name: "explicit, not a program", explicit: text, where: {}, want: /cannot run: .*text is not a program/ },
    { name: "package bin first", where: { packageDir: pkgDir, path: onPath }, want: binary },
    {
      name: "platform package before PATH",
      where: { packageDir: installed, path: onPath, platform: "linux-x64" },
      want: join(tree, "@askuser", "askuser-linux-x64", "bin", "askuser"),
    },
    {
      name: "windows binary",
      where: { packageDir: installed, path: "", platform: "win32-arm64" },
      want: join(tree, "@askuser", "askuser-win32-arm64", "bin", "askuser.exe"),
    },
    { name: "PATH", where: { packageDir: empty, path: `/nonexistent:${onPath}`, platform: "linux-x64" }, want: join(onPath, "askuser") },
    {
      name: "platform package left out",
      where: { packageDir: installed, path: "/nonexistent", platform: "darwin-arm64" },
      want: new RegExp(`no askuser binary for this platform \\(darwin-arm64\\): its package @askuser/askuser-darwin-arm64@${RELEASE.replace(/\./g, "\\.")} is not installed.*optional.*"binary" option.*PATH`),
    },
    {
      name: "another platform",
      where: { packageDir: empty, path: "/nonexistent", platform: "freebsd-x64" },
      want: /no askuser binary for this platform \(freebsd-x64\): askuser publishes binaries for linux-x64, .* only: build one from a checkout of askuser [0-9.]+ with "go install \.\/cmd\/askuser".*"binary" option.*PATH/,
    },
  ];
  for (const c of cases) {
    const got = findBinary(c.explicit, c.where);
    if (typeof c.want === "string") assert.equal(got.path, c.want, c.name);
    else assert.match(got.reason ?? `path ${got.path}`, c.want, c.name);
  }
});

test("the hello names this package's release, which is VERSION's", () => {
  const version = readFileSync(join(pkgDir, "..", "internal", "program", "VERSION"), "utf8").trim();
  assert.equal(RELEASE, version);
  assert.equal(helloFor(undefined, {}, "").release, RELEASE);
});

test("no binary: unavailable with an unsupported_mode reason, and asking does not throw", async () => {
  const ask = createAskUser(fakeCtx("tui").ctx, { ...noConfig, binary: "/nonexistent/askuser" });
  assert.equal(ask.isAvailable, false);
  assert.match(ask.notAvailableReason!, /\/nonexistent\/askuser/);
  const support = askUserSupport(ask.host);
  assert.equal(support.status, "no_available_ui");
  const res = await ask(deploy);
  assert.equal(res.status, "error");
  assert.equal(res.error?.code, "unsupported_mode");
  assert.match(res.error!.message, /\/nonexistent\/askuser/);
});

test("a binary of another release is refused at the handshake, for every call, naming both releases", async () => {
  const dir = tempDir("askuser-old-");
  const old = join(dir, "askuser");
  const fatal = `the Pi package is release ${RELEASE} and this askuser binary is release 0.0.9: install matching versions`;
  writeFileSync(old, `#!/bin/sh\nread hello\necho '{"type":"fatal","message":"${fatal}"}'\necho "askuser bridge: release mismatch" >&2\nexit 2\n`);
  chmodSync(old, 0o755);
  const ask = createAskUser(fakeCtx("tui").ctx, { ...noConfig, binary: old });
  assert.equal(ask.isAvailable, false);
  assert.match(ask.notAvailableReason!, /release 0\.0\.9/);
  for (const n of [1, 2]) {
    const res = await ask(deploy);
    assert.equal(res.status, "error", `call ${n}`);
    assert.equal(res.error?.code, "unsupported_mode", `call ${n}`);
    assert.ok(res.error!.message.includes(fatal), `call ${n}: ${res.error!.message}`);
    assert.ok(res.error!.message.includes(old), `call ${n} names the binary: ${res.error!.message}`);
  }
});

test("a child that writes an endless line is stopped, and says why", async () => {
  const dir = tempDir("askuser-long-");
  const fake = join(dir, "askuser");
  writeFileSync(fake, `#!/bin/sh\nread hello\nhead -c 3000000 /dev/zero | tr '\\0' x\nexec sleep 60\n`);
  chmodSync(fake, 0o755);
  const child = new Child(fake, { type: "hello" } as Hello, 1 << 20);
  await until("the child's death", () => child.dead, 10_000);
  assert.match(child.dead!.fatal ?? "", /wrote a line of over 1048576 characters; it was stopped/);
});

test("createAskUser never throws, whatever it is given", async () => {
  const circular: any = { questions: [] };
  circular.self = circular;
  const contexts: [string, unknown, unknown, string][] = [
    ["null ctx", null, noConfig, "unsupported_mode"],
    ["string ctx", "tui", noConfig, "unsupported_mode"],
    ["string options", fakeCtx("rpc").ctx, "custom", "invalid_config"],
    ["array options", fakeCtx("rpc").ctx, ["custom"], "invalid_config"],
    ["bad binary type", fakeCtx("rpc").ctx, { ...noConfig, binary: 42 }, "unsupported_mode"],
    ["bad mode", fakeCtx("rpc").ctx, { ...noConfig, mode: "fancy" }, "invalid_config"],
  ];
  for (const [name, ctx, options, code] of contexts) {
    const ask = createAskUser(ctx, options as any);
    assert.equal(ask.isAvailable, false, name);
    assert.ok(ask.notAvailableReason, `${name}: a reason`);
    const res = await ask(deploy);
    assert.equal(res.error?.code, code, `${name}: ${JSON.stringify(res)}`);
    assert.ok(res.error?.message, name);
  }
  const rpc = fakeCtx("rpc");
  const ask = createAskUser(rpc.ctx, null as any); // null options are the defaults
  assert.equal(ask.isAvailable, true, ask.notAvailableReason);
  const requests: [string, unknown, string][] = [
    ["undefined", undefined, "invalid_request"],
    ["null", null, "invalid_request"],
    ["a string", "deploy?", "invalid_request"],
    ["unknown field", { ...deploy, colour: "red" }, "invalid_request"],
    ["circular", circular, "invalid_request"],
    ["bigint", { questions: [{ title: "n", default: 1n }] }, "invalid_request"],
  ];
  for (const [name, req, code] of requests) {
    const res = await ask(req as any);
    assert.equal(res.status, "error", name);
    assert.equal(res.error?.code, code, `${name}: ${JSON.stringify(res)}`);
  }
  const bad = await ask(deploy, { signal: {} as AbortSignal });
  assert.equal(bad.error?.code, "invalid_request");
  assert.match(bad.error!.message, /AbortSignal/);
  rpc.answers.push("2");
  const ok = await ask(deploy, null as any); // null call options are none
  assert.equal(ok.status, "answered", JSON.stringify(ok));
  assert.deepEqual(ok.answers[0]!.selections, ["prod"]);
});

test("string options are refused by askuser as invalid_config", async () => {
  const ask = createAskUser(fakeCtx("rpc").ctx, "custom" as any);
  assert.equal(ask.isAvailable, false);
  assert.match(ask.notAvailableReason!, /options: .*JSON object.*"custom"/);
  assert.equal((await ask(deploy)).error?.code, "invalid_config");
});

test("a direct call with no route is refused at once, before any UI", async () => {
  const f = fakeCtx("print", { ui: [] });
  const ask = createAskUser(f.ctx, noConfig);
  assert.equal(ask.isAvailable, false);
  assert.match(ask.notAvailableReason!, /print mode/);
  const res = await ask(deploy);
  assert.equal(res.error?.code, "unsupported_mode");
  assert.deepEqual(f.calls, []);
});

test("createAskUser takes a host and shares it", () => {
  const host = createPiHost(fakeCtx("rpc").ctx, noConfig);
  const ask = createAskUser(host);
  assert.equal(ask.host, host);
  assert.equal(ask.isAvailable, true);
  assert.equal(ask.notAvailableReason, undefined);
  assert.deepEqual(askUserSupport(host), { status: "available", route: "native", source: "probed", available: ["native"] });
  host.close();
});

test("the registered tool: ask_user, sequential, askuser's schema and guidelines", () => {
  const f = fakePi();
  registerAskUser(f.pi);
  const tool = f.tool();
  assert.equal(tool.name, "ask_user");
  assert.equal(tool.executionMode, "sequential");
  assert.ok(tool.description.length > 100);
  assert.ok(Array.isArray(tool.promptGuidelines) && tool.promptGuidelines.length > 3);
  const schema = JSON.parse(execFileSync(binary, ["schema"], { encoding: "utf8" }));
  assert.deepEqual(tool.parameters, schema, "src/tool.json's parameters are `askuser schema`");
  assert.deepEqual(tool.parameters, toolSpec.parameters);
  const file = JSON.parse(readFileSync(join(pkgDir, "src", "tool.json"), "utf8"));
  assert.deepEqual(tool.promptGuidelines, file.promptGuidelines);
});

test("the tool's dialogs open through the ctx Pi gives execute", async () => {
  const f = fakePi();
  registerAskUser(f.pi, noConfig);
  const session = fakeCtx("rpc");
  await f.fire("session_start", { reason: "startup" }, session.ctx);
  const call = fakeCtx("rpc");
  call.answers.push("2");
  const res = await f.tool().execute("t1", deploy, undefined, undefined, call.ctx);
  assert.equal(res.details.status, "answered", JSON.stringify(res));
  assert.deepEqual(res.details.answers[0].selections, ["prod"]);
  assert.equal(call.calls.length, 1, "the call's ctx showed the dialog");
  assert.equal(session.calls.length, 0, "the session's ctx showed nothing");
  await f.fire("session_shutdown", { reason: "quit" }, session.ctx);
});

test("the tool before session_start is not_initialized; each session has its own child", async () => {
  const f = fakePi();
  registerAskUser(f.pi, noConfig);
  const exec = (id: string) => f.tool().execute(id, deploy, undefined, undefined, undefined);
  const before = await exec("t1");
  assert.equal(before.details.error.code, "not_initialized");
  assert.match(before.content[0].text, /ordinary text/);

  const rpc = fakeCtx("rpc");
  rpc.answers.push("2");
  await f.fire("session_start", { reason: "startup" }, rpc.ctx);
  const during = await exec("t2");
  assert.equal(during.details.status, "answered", JSON.stringify(during));
  assert.deepEqual(
    f.emitted.map((e) => e.channel),
    ["herdr:blocked", "ask:answered", "herdr:blocked"],
  );

  await f.fire("session_shutdown", { reason: "quit" }, rpc.ctx);
  await f.fire("session_shutdown", { reason: "quit" }, rpc.ctx); // twice is harmless
  const after = await exec("t3");
  assert.equal(after.details.error.code, "not_initialized");

  const next = fakeCtx("rpc");
  next.answers.push("1");
  await f.fire("session_start", { reason: "new" }, next.ctx);
  const again = await exec("t4");
  assert.deepEqual(again.details.answers[0].selections, ["staging"]);
  assert.equal(rpc.calls.length, 1, "the old session's UI is not used again");
  await f.fire("session_shutdown", { reason: "quit" }, next.ctx);
});

test("the tool judges the arguments as the model sent them, before Pi's coercion", async () => {
  const f = fakePi();
  registerAskUser(f.pi, noConfig);
  const rpc = fakeCtx("rpc");
  await f.fire("session_start", { reason: "startup" }, rpc.ctx);
  const sent = { ...deploy, allowFreeText: "false" };
  await f.fire("message_end", { message: { role: "assistant", content: [{ type: "toolCall", id: "t1", name: "ask_user", arguments: sent }] } }, rpc.ctx);
  const res = await f.tool().execute("t1", { ...deploy, allowFreeText: false }, undefined, undefined, undefined);
  assert.equal(res.details.error?.code, "invalid_request");
  assert.match(res.details.error.message, /allowFreeText/);
  assert.deepEqual(f.emitted, [], "an invalid request emits nothing");
  await f.fire("session_shutdown", { reason: "quit" }, rpc.ctx);
});

test("a host starts its child soon after creation, not during it, and at once when used", async () => {
  const idle = createPiHost(fakeCtx("rpc").ctx, noConfig);
  const child = () => idle.process; // read again after the wait
  assert.equal(child(), undefined, "no spawn while Pi starts up");
  await new Promise((r) => setTimeout(r, STARTUP_DELAY_MS + 50));
  assert.ok(child()?.pid, "started after the delay");
  idle.close();

  const rpc = fakeCtx("rpc");
  rpc.answers.push("staging");
  const used = createPiHost(rpc.ctx, noConfig);
  const res = used.ask(deploy, {});
  assert.ok(used.process?.pid, "started by its first call");
  const { result } = await res;
  assert.ok("status" in result && result.status === "answered", JSON.stringify(result));
  used.close();
  const closed = createPiHost(fakeCtx("rpc").ctx, noConfig);
  closed.close();
  await new Promise((r) => setTimeout(r, STARTUP_DELAY_MS + 50));
  assert.equal(closed.process, undefined, "a host closed before its start never spawns");
});

test("the hello describes ctx: mode, UI methods, agent dir, options and Pi's theme colours", () => {
  const f = fakeCtx("tui", { ui: ["custom", "input"] });
  const colour: Record<string, number> = { accent: 36, muted: 90, success: 32, warning: 33, error: 31, border: 34, mdCode: 35 };
  f.ctx.ui.theme = {
    fg: (token: string, text: string) => {
      if (!(token in colour)) throw new Error(`no ${token}`);
      return `\x1b[${colour[token]}m${text}\x1b[39m`;
    },
    bold: (text: string) => `\x1b[1m${text}\x1b[22m`,
  };
  const hello = helloFor(f.ctx, { displayMode: "inline", overlayToggleKey: null, configFile: false, binary: "x", events: {} }, "/agent");
  assert.deepEqual(hello, {
    type: "hello",
    version: 1,
    release: RELEASE,
    mode: "tui",
    hasUI: true,
    ui: { custom: true, input: true, select: false },
    agentDir: "/agent",
    options: { displayMode: "inline", overlayToggleKey: null },
    configFile: false,
    theme: {
      accent: { prefix: "\x1b[36m", suffix: "\x1b[39m" },
      muted: { prefix: "\x1b[90m", suffix: "\x1b[39m" },
      selection: { prefix: "\x1b[32m", suffix: "\x1b[39m" },
      warning: { prefix: "\x1b[33m", suffix: "\x1b[39m" },
      error: { prefix: "\x1b[31m", suffix: "\x1b[39m" },
      border: { prefix: "\x1b[34m", suffix: "\x1b[39m" },
      code: { prefix: "\x1b[35m", suffix: "\x1b[39m" },
      bold: { prefix: "\x1b[1m", suffix: "\x1b[22m" },
    },
  });
  const rpc = helloFor(fakeCtx("rpc").ctx, {}, "/agent");
  assert.equal(rpc.theme, undefined, "no theme outside the TUI");
  assert.equal("configFile" in rpc, false, "the default config file");
});

/**
 * A binary whose first bridge opens the wait, sends the lines given, and
 * dies; later bridges are the real one, or die at once when dead is set.
 */
function dyingBinary(lines: string[], dead: boolean): string {
  const dir = tempDir("askuser-dying-");
  const script = join(dir, "askuser");
  const say = lines.map((l) => `echo '${l.replace(/CALL/g, "'$call'")}'`).join("\n");
  writeFileSync(
    script,
    `#!/bin/sh
if mkdir "${dir}/started" 2>/dev/null; then
  read hello
  echo '{"type":"ready","version":1,"support":{"status":"available","route":"native"},"available":true}'
  read ask
  call=$(echo "$ask" | sed 's/.*"call":"\\([^"]*\\)".*/\\1/')
  echo '{"type":"event","call":"'$call'","channel":"herdr:blocked","payload":{"active":true}}'
  ${say}
  exit 3
fi
${dead ? "exit 1" : `exec ${binary} "$@"`}
`,
  );
  chmodSync(script, 0o755);
  return script;
}

test("a child that dies mid-attempt: the wait is closed with exactly one outcome event", async () => {
  const answered = `{"type":"event","call":"CALL","channel":"ask:answered","payload":{"route":"native","status":"answered"}}`;
  const cases: { name: string; lines: string[]; dead: boolean; want: string[] }[] = [
    { name: "before the outcome", lines: [], dead: false, want: ["start", "ask:error internal", "end"] },
    { name: "after the outcome", lines: [answered], dead: false, want: ["start", "ask:answered answered", "end"] },
    { name: "before the outcome, no fresh child", lines: [], dead: true, want: ["start", "ask:error internal", "end"] },
    { name: "after the outcome, no fresh child", lines: [answered], dead: true, want: ["start", "ask:answered answered", "end"] },
  ];
  for (const c of cases) {
    const seen: string[] = [];
    const ask = createAskUser(fakeCtx("rpc").ctx, {
      ...noConfig,
      binary: dyingBinary(c.lines, c.dead),
      events: {
        waitStarted: () => seen.push("start"),
        outcome: (ch, e) => seen.push(`${ch} ${e.errorCode ?? e.status}`),
        waitEnded: () => seen.push("end"),
      },
    });
    const res = await ask(deploy);
    assert.equal(res.error?.code, "internal", c.name);
    assert.match(res.error!.message, /exited with status 3/, c.name);
    assert.deepEqual(seen, c.want, c.name);
    ask.host.close();
  }
});

test("isAvailable spawns one short-lived child and does not start the long-lived one", async () => {
  const dir = tempDir("askuser-count-");
  const log = join(dir, "spawns");
  const counting = join(dir, "askuser");
  writeFileSync(counting, `#!/bin/sh\necho "$$" >> ${log}\nexec ${binary} "$@"\n`);
  chmodSync(counting, 0o755);
  const spawns = () => readFileSync(log, "utf8").trim().split("\n").length;
  const f = fakeCtx("rpc");
  const ask = createAskUser(f.ctx, { ...noConfig, binary: counting });
  assert.equal(ask.isAvailable, true, ask.notAvailableReason);
  assert.equal(ask.host.process?.pid, undefined, "the long-lived child is not started to answer");
  assert.equal(spawns(), 1, "one process answers");
  // A host starts its child on a timer; this one is closed before the
  // test next yields, so that its timer cannot add a spawn.
  const probe = createPiHost(f.ctx, { ...noConfig, binary: counting });
  assert.equal(askUserSupport(probe).status, "available");
  probe.close();
  assert.equal(askUserSupport(ask.host).status, "available");
  assert.equal(spawns(), 2, "a host probes once");
  f.answers.push("staging");
  assert.equal((await ask(deploy)).status, "answered");
  assert.equal(spawns(), 3, "the first call starts the child");
  assert.equal(askUserSupport(ask.host).status, "available");
  assert.equal(spawns(), 3, "a ready child answers without a spawn");
  ask.host.close();
});
