// The release, installed as users install it. The packages `make dist`
// packs are published to a real npm registry (verdaccio) on 127.0.0.1,
// then, with no Go on PATH and a fresh home:
//
//   - `pi install npm:@askuser/pi-ask-user`, and real Pi 1.6 with a
//     scripted model asks through ask_user in RPC mode;
//   - `npx -y @askuser/askuser setup --yes pi` does the same with the
//     user's pi, and its --undo gives Pi's settings file back;
//   - `npx -y @askuser/askuser mcp` answers initialize and tools/list;
//   - `npx -y @askuser/askuser version` prints the version just built;
//   - `npx -y @askuser/askuser-hub version` does too, from the hub's own
//     packages, and after `npm i -g @askuser/askuser-hub`,
//     `npx -y @askuser/askuser hub` finds it on PATH and runs the hub;
//   - askuser and askuser-hub from a release archive run;
//   - agents on other machines, as the README sets them up: a real
//     nats-server over tls:// (its CA trusted through SSL_CERT_FILE, a
//     token for credentials), the archive's askuser-hub relaying on the
//     laptop, and on two agent machines, one with the archive and one
//     with the npm packages, askuser ask starting the shipped askuser-hub
//     and getting the answer given on the laptop's hub.
//
// The release is built for this machine's platform alone (make dist builds
// all six): the launcher and the Pi package name every platform package
// as optional, and npm skips the five the registry does not have, as it
// skips those of other platforms. make vet-platforms keeps the others
// compiling.
//
// Each step prints how long it took. Its timeout only catches a hang: a
// slow machine is not a failure. Nothing is left behind: the registry is
// stopped and its storage removed with the rest of the temp directory; a
// Go command that is stopped is ended with its whole process group, and
// its build directories removed (see gorun.ts).
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync, type SpawnSyncOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { delimiter, dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { askuserChildren, nodeBin, piCli, prepare, Rpc, tempDir, until } from "../pi/e2e/harness.ts";
import { type GoOptions, runGo as runGoIn } from "./gorun.ts";
import { startTLSRemote, type TLSRemote } from "./natsremote.ts";

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const version = readFileSync(join(repo, "internal", "program", "VERSION"), "utf8").trim();
const go = process.env.GO || "go";
const launcher = "@askuser/askuser";
const hubLauncher = "@askuser/askuser-hub";
/** This machine as Go names it, as `askuser version` prints it. */
const goOS: Record<string, string> = { win32: "windows" };
const goArch: Record<string, string> = { x64: "amd64" };
const goPlatform = `${goOS[process.platform] ?? process.platform}/${goArch[process.arch] ?? process.arch}`;
const piPackage = "@askuser/pi-ask-user";
/** This machine as Node and the release's platform packages name it. */
const nodePlatform = `${process.platform}-${process.arch}`;

/**
 * The commands of the README's Install section, comments dropped: the
 * tests below run each one as it is written there.
 */
function readmeInstall(): string[] {
  const readme = readFileSync(join(repo, "README.md"), "utf8");
  const block = /^## Install\n\n```sh\n([\s\S]*?)\n```/m.exec(readme);
  assert.ok(block, "the README has no Install section with a sh block");
  return block[1]!.split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter(Boolean);
}
const install = readmeInstall();
/** The README's install command that starts with prefix. */
function readmeLine(prefix: string): string {
  const line = install.find((l) => l.startsWith(prefix));
  assert.ok(line, `the README's Install section has no line starting ${JSON.stringify(prefix)}: ${JSON.stringify(install)}`);
  return line;
}

const work = tempDir("askuser-release-");
/**
 * The release under test: built by the test, unless ASKUSER_RELEASE_DIST
 * names a release built already (go run ./build/dist -platforms with this
 * machine's platform), such as another commit's.
 */
const given = process.env.ASKUSER_RELEASE_DIST;
const dist = given || join(work, "dist");
let registry: ChildProcess | undefined;
let registryURL = "";

/** Runs a command to the end; a non-zero exit fails the test with its output. */
function run(what: string, cmd: string, args: string[], opts: SpawnSyncOptions = {}): string {
  const start = performance.now();
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 300_000, ...opts });
  const took = ((performance.now() - start) / 1000).toFixed(1);
  assert.equal(r.status, 0, `${what} (${cmd} ${args.join(" ")}) exited ${r.status ?? r.signal} after ${took}s:\n${r.stderr}\n${r.stdout}`);
  console.log(`# ${what}: ${took}s`);
  return String(r.stdout);
}

/** Runs go (see gorun.ts) with its build directories in the temp directory. */
function runGo(what: string, args: string[], opts: Omit<GoOptions, "tmp" | "go">): Promise<string> {
  return runGoIn(what, args, { ...opts, tmp: work, go });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * PATH for a user with Node 22 and npm but no Go: the directory of the
 * Node that Pi needs first, then every directory of this PATH that has no
 * `go` in it.
 */
const userPath = [
  dirname(realpathSync(nodeBin)),
  ...(process.env.PATH ?? "/usr/bin:/bin").split(delimiter).filter((d) => d && !existsSync(join(d, "go"))),
].join(delimiter);

/** A user's environment: a fresh home whose .npmrc points at the registry. */
function userEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, ".npmrc"), `registry=${registryURL}\n`);
  mkdirSync(join(home, "tmp"), { recursive: true });
  return {
    PATH: userPath,
    HOME: home,
    // A temporary directory inside the home, which goes with it: Pi's
    // extension loader caches compiled files there.
    TMPDIR: join(home, "tmp"),
    npm_config_userconfig: join(home, ".npmrc"),
    npm_config_cache: join(home, ".npm"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    TERM: "dumb",
    ...extra,
  };
}

before(async () => {
  // The release, as `make dist` builds it, for this machine only, and its
  // own check. A cold build on a slow machine takes minutes; the timeout
  // is for a build that hangs.
  const build = ["run", "./build/dist", "-out", dist, "-platforms", nodePlatform];
  if (given) console.log(`# the release in ${given}, built already`);
  else await runGo(`build the release for ${nodePlatform}`, build, { cwd: repo, timeout: 3_600_000 });
  await runGo("check the platform package holds its own platform's binary", ["run", "./build/dist", "-verify", dist], { cwd: repo, timeout: 3_600_000 });

  // The registry: @askuser/* is published here and served from here alone.
  const port = await freePort();
  registryURL = `http://127.0.0.1:${port}/`;
  const reg = join(work, "registry");
  mkdirSync(reg);
  writeFileSync(
    join(reg, "config.yaml"),
    [
      `storage: ${join(reg, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(reg, "htpasswd")}`,
      "    max_users: 1",
      "uplinks: {}",
      "packages:",
      "  '@askuser/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "web:",
      "  enable: false",
      `listen: 127.0.0.1:${port}`,
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const start = performance.now();
  registry = spawn(process.execPath, [join(repo, "release", "node_modules", "verdaccio", "bin", "verdaccio"), "--config", join(reg, "config.yaml")], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HOME: reg },
  });
  let log = "";
  registry.stdout!.on("data", (c) => (log += c));
  registry.stderr!.on("data", (c) => (log += c));
  let exited = false;
  registry.on("exit", () => (exited = true));
  for (const end = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 100))) {
    if (exited) throw new Error(`verdaccio exited:\n${log}`);
    if (Date.now() > end) throw new Error(`verdaccio did not answer on ${registryURL} within 60 s:\n${log}`);
    const ok = await fetch(`${registryURL}-/ping`).then((r) => r.ok, () => false);
    if (ok) break;
  }
  console.log(`# start verdaccio: ${((performance.now() - start) / 1000).toFixed(1)}s`);

  // A publisher's account and token, then every packed package.
  const res = await fetch(`${registryURL}-/user/org.couchdb.user:publisher`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "publisher", password: "publisher-password" }),
  });
  const body = await res.text();
  assert.equal(res.status, 201, `creating the publisher: ${res.status} ${body}`);
  const { token } = JSON.parse(body) as { token: string };
  const publisher = join(work, "publisher");
  const env = userEnv(publisher);
  writeFileSync(join(publisher, ".npmrc"), `registry=${registryURL}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  const tarballs = readdirSync(dist).filter((f) => f.endsWith(".tgz"));
  assert.equal(tarballs.length, 5, `dist holds ${tarballs}`);
  const start2 = performance.now();
  for (const tgz of tarballs) {
    run(`publish ${tgz}`, "npm", ["publish", join(dist, tgz), "--access", "public"], { cwd: publisher, env });
  }
  console.log(`# publish all: ${((performance.now() - start2) / 1000).toFixed(1)}s`);
});

after(async () => {
  if (!registry || registry.exitCode !== null) return;
  const gone = new Promise((r) => registry!.once("exit", r));
  registry.kill("SIGTERM");
  await gone;
});

test("the user's PATH has no go", () => {
  const r = spawnSync("sh", ["-c", "command -v go"], { env: { PATH: userPath }, encoding: "utf8" });
  assert.notEqual(r.status, 0, `go is on the user's PATH at ${r.stdout}`);
});

test("the platform package, packed, is at most 6 MB; the hub's is a package of its own", () => {
  const packed = readdirSync(dist).filter((f) => /^askuser-askuser-(hub-)?(linux|darwin|win32)-(x64|arm64)-.*\.tgz$/.test(f));
  const own = `askuser-askuser-${nodePlatform}-${version}.tgz`;
  assert.deepEqual(packed.sort(), [`askuser-askuser-hub-${nodePlatform}-${version}.tgz`, own], `the platform packages in dist: ${packed}`);
  for (const f of packed) console.log(`# ${f}: ${statSync(join(dist, f)).size} bytes`);
  // The hub's size is held by dist -verify, run above.
  const size = statSync(join(dist, own)).size;
  assert.ok(size <= 6_000_000, `${own} is ${size} bytes`);
});

test("the stripped linux-x64 binary is under 16 MiB", { skip: nodePlatform !== "linux-x64" && `the release here is for ${nodePlatform}` }, () => {
  for (const plat of readdirSync(join(dist, "build"))) {
    for (const exe of readdirSync(join(dist, "build", plat))) {
      console.log(`# ${plat}/${exe}: ${statSync(join(dist, "build", plat, exe)).size} bytes`);
    }
  }
  const size = statSync(join(dist, "build", "linux-x64", "askuser")).size;
  assert.ok(size <= 16 * 1024 * 1024, `the linux-x64 binary is ${size} bytes, over the ${16 * 1024 * 1024} it may take`);
});

const deploy = { allowFreeText: false, questions: [{ title: "Deploy where?", kind: "single", options: [{ label: "staging" }, { label: "prod" }] }] };

/**
 * A fresh Pi home with the model's calls scripted and the user's `pi`
 * command (Pi 1.6 under Node 22) on PATH, where nothing is installed yet.
 */
function piHome(calls: unknown[]) {
  const pi = prepare(calls, { install: false });
  Object.assign(pi.env, userEnv(pi.env.HOME!));
  const bin = join(pi.dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "pi"), `#!/bin/sh\nexec '${nodeBin}' '${piCli}' "$@"\n`, { mode: 0o755 });
  pi.env.PATH = bin + delimiter + pi.env.PATH;
  return pi;
}

/**
 * A fresh Pi home with the model's calls scripted, where the README's
 * `pi install` line has run, with the user's `pi` command (Pi 1.6 under
 * Node 22) on PATH.
 */
function installedPi(calls: unknown[]) {
  const pi = piHome(calls);
  const line = readmeLine("pi install ");
  assert.equal(line, `pi install npm:${piPackage}`);
  run(line, "sh", ["-c", line], { cwd: pi.dir, env: pi.env, timeout: 600_000 });
  const list = run("pi list", "pi", ["list"], { cwd: pi.dir, env: pi.env });
  assert.match(list, new RegExp(`npm:${piPackage}`), list);
  return pi;
}

/** The platform binary that `pi install` put in the Pi home. */
function installedBinary(dir: string): string {
  const out = spawnSync("find", [dir, "-path", `*/node_modules/@askuser/askuser-${process.platform}-${process.arch}/bin/askuser`], { encoding: "utf8" });
  const [found] = out.stdout.split("\n").filter(Boolean);
  assert.ok(found, `no platform binary under ${dir}`);
  return found;
}

test(`pi install npm:${piPackage}, then Pi asks through ask_user in RPC mode`, async () => {
  const pi = installedPi([deploy]);

  const rpc = new Rpc(pi);
  let stderr = "";
  rpc.proc.stderr.on("data", (c) => (stderr += c));
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    const sel = await rpc
      .next("a select request", (m) => m.type === "extension_ui_request" && m.method === "select", 60_000)
      .catch((e) => {
        const said = rpc.messages.filter((m) => m.type !== "message_start" && m.type !== "message_end").map((m) => JSON.stringify(m).slice(0, 500));
        throw new Error(`${e.message}; Pi said ${said.join("\n")}; its stderr: ${stderr}; the session holds ${JSON.stringify(pi.results())}`);
      });
    assert.deepEqual(sel.options, ["staging", "prod"]);
    // The binary that answers is the platform package's, installed from
    // the registry, not a checkout's.
    const [child] = askuserChildren(rpc.proc.pid!);
    assert.ok(child, "no askuser child of Pi");
    const exe = realpathSync(`/proc/${child}/exe`);
    assert.match(exe, new RegExp(`/node_modules/@askuser/askuser-${process.platform}-${process.arch}/bin/askuser$`));
    assert.ok(!exe.startsWith(repo), `Pi runs ${exe}, from the checkout`);
    rpc.send({ type: "extension_ui_response", id: sel.id, value: "prod" });
    await until("the tool result", () => pi.modelSaw().length >= 1, 60_000);
    const [res] = pi.modelSaw();
    assert.equal(res!.details.status, "answered", JSON.stringify(res));
    assert.deepEqual(res!.details.answers[0].selections, ["prod"]);
  } finally {
    rpc.close();
  }
});

/** A file's bytes, or undefined where there is none. */
function bytesOf(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, "base64") : undefined;
}

test(`npx -y ${launcher} setup --yes pi installs the Pi package with the user's pi, Pi asks through it, and --undo gives Pi's files back`, async () => {
  const pi = piHome([deploy]);
  const settings = join(pi.env.PI_CODING_AGENT_DIR!, "settings.json");
  const before = bytesOf(settings);
  const out = run(`npx -y ${launcher} setup --yes pi`, "npx", ["-y", launcher, "setup", "--yes", "pi"], { cwd: pi.dir, env: pi.env, timeout: 600_000 });
  assert.match(out, new RegExp(`pi install npm:${piPackage}`), out);
  const list = run("pi list", "pi", ["list"], { cwd: pi.dir, env: pi.env });
  assert.match(list, new RegExp(`npm:${piPackage}`), list);

  const rpc = new Rpc(pi);
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    const sel = await rpc.next("a select request", (m) => m.type === "extension_ui_request" && m.method === "select", 60_000);
    assert.deepEqual(sel.options, ["staging", "prod"]);
    rpc.send({ type: "extension_ui_response", id: sel.id, value: "staging" });
    await until("the tool result", () => pi.modelSaw().length >= 1, 60_000);
    assert.deepEqual(pi.modelSaw()[0]!.details.answers[0].selections, ["staging"]);
  } finally {
    rpc.close();
  }

  const undo = run(`npx -y ${launcher} setup --yes --undo pi`, "npx", ["-y", launcher, "setup", "--yes", "--undo", "pi"], { cwd: pi.dir, env: pi.env, timeout: 600_000 });
  assert.match(undo, new RegExp(`pi remove npm:${piPackage}`), undo);
  const after = run("pi list", "pi", ["list"], { cwd: pi.dir, env: pi.env });
  assert.doesNotMatch(after, new RegExp(piPackage), after);
  assert.equal(bytesOf(settings), before, "Pi's settings.json after --undo");
});

/**
 * A real program for this system on the other architecture: the least Go
 * program there is, which builds in seconds where askuser itself would
 * take minutes from a cold cache. The shim refuses a program by its
 * header before it would run it, so any program for that platform shows
 * what an installed package of the wrong architecture gets.
 */
async function otherArchProgram(other: string): Promise<string> {
  const dir = join(work, "other-arch");
  mkdirSync(dir);
  writeFileSync(join(dir, "main.go"), "package main\n\nfunc main() {}\n");
  const exe = join(dir, "program");
  const goos = goOS[process.platform] ?? process.platform;
  const goarch = goArch[other] ?? other;
  await runGo(`build a program for ${goos}/${goarch}`, ["build", "-o", exe, "main.go"], {
    cwd: dir,
    env: { ...process.env, GOOS: goos, GOARCH: goarch, CGO_ENABLED: "0" },
    timeout: 3_600_000,
  });
  return exe;
}

test("a platform binary that cannot run here is refused with the reason, and Pi keeps running", async () => {
  const other = process.arch === "arm64" ? "x64" : "arm64";
  const foreign = await otherArchProgram(other);
  const pi = installedPi([deploy, deploy, deploy]);
  const binary = installedBinary(pi.dir);
  copyFileSync(foreign, binary);
  const rpc = new Rpc(pi);
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    await until("three tool results", () => pi.modelSaw().length >= 3, 60_000);
    for (const res of pi.modelSaw()) {
      assert.equal(res.details.status, "error", JSON.stringify(res));
      assert.equal(res.details.error.code, "unsupported_mode");
      assert.match(res.details.error.message, new RegExp(`is a program for ${process.platform}-${other}, and this machine is ${process.platform}-${process.arch}`));
    }
    assert.equal(rpc.proc.exitCode, null, "Pi is still running");
  } finally {
    rpc.close();
  }

  // The right binary without its exec bit.
  const again = installedPi([deploy]);
  const noExec = installedBinary(again.dir);
  chmodSync(noExec, 0o644);
  const rpc2 = new Rpc(again);
  try {
    rpc2.send({ type: "prompt", message: "ask me" });
    await until("the tool result", () => again.modelSaw().length >= 1, 60_000);
    const [res] = again.modelSaw();
    assert.equal(res!.details.error?.code, "unsupported_mode", JSON.stringify(res));
    assert.match(res!.details.error.message, /is not executable: give it the exec bit/);
    assert.equal(rpc2.proc.exitCode, null, "Pi is still running");
  } finally {
    rpc2.close();
  }
});

test(`npx -y ${launcher} ask passes the arguments, the result and the exit status through`, () => {
  const home = join(work, "ask-user");
  const env = userEnv(home);
  writeFileSync(join(home, "bad.json"), JSON.stringify({ questions: [{ title: "Pick", kind: "single" }] }));
  const r = spawnSync("npx", ["-y", launcher, "ask", "--no-config", "bad.json"], { cwd: home, env, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 2, `exit ${r.status}; ${r.stderr}`);
  const res = JSON.parse(r.stdout);
  assert.equal(res.status, "error");
  assert.equal(res.error.code, "invalid_request");
  assert.match(r.stderr, /^askuser ask: invalid_request: /);
});

test(`npx -y ${launcher} mcp answers initialize and tools/list`, async () => {
  const home = join(work, "mcp-user");
  const env = userEnv(home);
  const cwd = join(home, "project");
  mkdirSync(cwd);
  const start = performance.now();
  const line = readmeLine("npx ");
  assert.equal(line, `npx -y ${launcher} mcp`);
  const proc = spawn("sh", ["-c", `exec ${line}`], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stdout.on("data", (c) => (out += c));
  proc.stderr.on("data", (c) => (err += c));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  const send = (m: unknown) => proc.stdin.write(JSON.stringify(m) + "\n");
  const reply = (id: number) =>
    until(`the answer to request ${id}`, () => {
      const line = out.split("\n").find((l) => l.includes(`"id":${id},`) || l.includes(`"id":${id}}`));
      return line ? JSON.parse(line) : undefined;
    }, 60_000).catch((e) => {
      throw new Error(`${e.message}; stdout: ${out}; stderr: ${err}`);
    });
  send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "release-test", version: "1" } } });
  const init = await reply(1);
  console.log(`# npx -y ${launcher} mcp, first run, to initialize: ${((performance.now() - start) / 1000).toFixed(1)}s`);
  assert.equal(init.result.serverInfo.name, "askuser", JSON.stringify(init));
  assert.equal(init.result.serverInfo.version, version);
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  const tools = await reply(2);
  assert.deepEqual(tools.result.tools.map((t: { name: string }) => t.name), ["ask_user"]);
  proc.stdin.end();
  assert.equal(await exited, 0, `the server's exit at EOF; stderr: ${err}`);
});

test(`npx -y ${launcher} version prints the version just built`, () => {
  const home = join(work, "version-user");
  const out = run(`npx -y ${launcher} version`, "npx", ["-y", launcher, "version"], { cwd: work, env: userEnv(home) });
  assert.match(out, new RegExp(`^askuser ${version.replaceAll(".", "\\.")} \\(commit [0-9a-f]{12}(\\+dirty)?\\) ${goPlatform}\\n$`));
});

/** The line `askuser-hub version` prints for this release. */
const hubVersionLine = new RegExp(`^askuser-hub ${version.replaceAll(".", "\\.")} \\(commit [0-9a-f]{12}(\\+dirty)?\\) ${goPlatform}\\n$`);

test(`npx -y ${hubLauncher} version runs the hub's own platform package`, () => {
  const home = join(work, "hub-version-user");
  const out = run(`npx -y ${hubLauncher} version`, "npx", ["-y", hubLauncher, "version"], { cwd: work, env: userEnv(home) });
  assert.match(out, hubVersionLine);
});

test(`after npm i -g ${hubLauncher}, npx -y ${launcher} hub finds it on PATH and runs the hub`, async () => {
  const home = join(work, "hub-user");
  const prefix = join(home, "global");
  const env = userEnv(home, { npm_config_prefix: prefix, XDG_STATE_HOME: join(home, "state") });
  const line = readmeLine("npm i -g ");
  assert.equal(line, `npm i -g ${hubLauncher}`);
  run(line, "sh", ["-c", line], { cwd: home, env });
  env.PATH = join(prefix, "bin") + delimiter + env.PATH;
  const start = performance.now();
  const proc = spawn("npx", ["-y", launcher, "hub"], { cwd: home, env, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  proc.stderr.on("data", (c) => (err += c));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  let hubPid = 0;
  try {
    const infoFile = join(home, "state", "askuser", "hub", "hub.json");
    const info = await until("the hub's info file", () => (existsSync(infoFile) ? JSON.parse(readFileSync(infoFile, "utf8")) : undefined), 60_000).catch((e) => {
      throw new Error(`${e.message}; stderr: ${err}`);
    });
    hubPid = info.pid;
    console.log(`# npx -y ${launcher} hub, to the hub's info file: ${((performance.now() - start) / 1000).toFixed(1)}s`);
    // The hub is the binary of the hub's platform package, under the
    // global prefix.
    const exe = realpathSync(`/proc/${info.pid}/exe`);
    assert.ok(exe.startsWith(realpathSync(prefix)), `the hub runs ${exe}`);
    assert.match(exe, new RegExp(`/node_modules/@askuser/askuser-hub-${nodePlatform}/bin/askuser-hub$`));
    const status = run(`npx -y ${launcher} hub status`, "npx", ["-y", launcher, "hub", "status"], { cwd: home, env });
    assert.match(status, new RegExp(`^a hub runs: process ${info.pid} at nats://127\\.0\\.0\\.1:`));
    process.kill(info.pid, "SIGTERM");
    assert.equal(await exited, 0, `the exit after SIGTERM; stderr: ${err}`);
    assert.ok(!existsSync(infoFile), "the stopped hub left its info file");
  } finally {
    if (proc.exitCode === null) {
      if (hubPid) process.kill(hubPid, "SIGKILL");
      proc.kill("SIGKILL");
    }
  }
});

test("the binaries from the release archive run", () => {
  const base = `askuser_${version}_${goPlatform.replace("/", "_")}`;
  const dir = join(work, "archive");
  mkdirSync(dir);
  copyFileSync(join(dist, `${base}.tar.gz`), join(dir, `${base}.tar.gz`));
  // The README names the archive for this release on linux/amd64.
  const line = readmeLine("tar ").replaceAll(`askuser_${version}_linux_amd64`, base);
  const out = run(line, "sh", ["-c", line], { cwd: dir, env: { PATH: userPath } });
  assert.match(out, new RegExp(`^askuser ${version.replaceAll(".", "\\.")} \\(commit [0-9a-f]{12}(\\+dirty)?\\) ${goPlatform}\\n$`));
  assert.deepEqual(readdirSync(join(dir, base)).sort(), ["README.md", "askuser", "askuser-hub"]);
  assert.match(run("askuser-hub version", join(dir, base, "askuser-hub"), ["version"], { env: { PATH: userPath } }), hubVersionLine);
  const sums = readFileSync(join(dist, "SHA256SUMS"), "utf8");
  assert.match(sums, new RegExp(`^[0-9a-f]{64}  ${base}\\.tar\\.gz$`, "m"));
  run("sha256sum -c SHA256SUMS", "sha256sum", ["-c", "--ignore-missing", "SHA256SUMS"], { cwd: dist });
});

/**
 * One machine of the README's "Agents on other machines": a fresh home
 * with its own config and state directories, trusting the remote hub's CA
 * through SSL_CERT_FILE, with the remote's token in a credentials file
 * only its owner reads.
 */
function remoteMachine(name: string, remote: TLSRemote, extra: Record<string, string> = {}) {
  const home = join(work, name);
  const env = userEnv(home, { XDG_CONFIG_HOME: join(home, "config"), XDG_STATE_HOME: join(home, "state"), SSL_CERT_FILE: remote.ca, ...extra });
  mkdirSync(join(home, "config", "askuser"), { recursive: true });
  const credentials = join(home, "nats.token");
  writeFileSync(credentials, remote.token + "\n", { mode: 0o600 });
  const hubDir = join(home, "state", "askuser", "hub");
  return { name, home, env, credentials, hubDir, config: join(home, "config", "askuser") };
}
type RemoteMachine = ReturnType<typeof remoteMachine>;

/** s, matched literally in a regular expression. */
function escapeRegExp(s: string): string {
  return s.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A file's text, or "" when it is not there. */
function readOr(name: string): string {
  return existsSync(name) ? readFileSync(name, "utf8") : "";
}

/**
 * The agent's askuser ask, run as cmd args on agent, a machine where no
 * hub runs and whose config names the remote hub: it starts askuser-hub,
 * which must be the binary hubExe matches; the question, sealed, reaches
 * the laptop's hub through the remote, is answered there with askuser
 * answer, and the agent prints that answer. The hub it started then stops
 * by itself.
 */
async function askedThroughRemote(what: string, agent: RemoteMachine, laptop: RemoteMachine, laptopBin: string, cmd: string, args: string[], hubExe: RegExp, logs: () => string) {
  const word = randomBytes(6).toString("hex");
  const title = `Ship the ${word} build?`;
  const yes = `yes-${word}`;
  writeFileSync(join(agent.home, "q.json"), JSON.stringify({ questions: [{ title, kind: "single", options: [{ label: yes }, { label: `no-${word}` }] }] }));
  // In a session of its own, as an agent in CI runs: no terminal to ask
  // on. Under a host name of its own, as another machine: the laptop's hub
  // knows a machine's name by the first key that signed a question of it,
  // and the agents here each have a key of their own.
  const ask = spawn("unshare", ["--uts", "sh", "-c", 'hostname "$0" && exec "$@"', agent.name, cmd, ...args, "ask", "q.json"], { cwd: agent.home, env: agent.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  ask.stdout!.on("data", (c) => (stdout += c));
  ask.stderr!.on("data", (c) => (stderr += c));
  const exited = new Promise<number | null>((r) => ask.once("exit", (code) => r(code)));
  const said = () => `${what} said on stderr: ${stderr}\n--- the hub it started logged:\n${readOr(join(agent.hubDir, "hub.log"))}\n${logs()}`;
  let started = 0;
  try {
    const info = await until(`${what} to start its hub`, () => readOr(join(agent.hubDir, "hub.json")) && JSON.parse(readOr(join(agent.hubDir, "hub.json"))), 60_000).catch((e) => {
      throw new Error(`${e.message}; ${said()}`);
    });
    started = info.pid;
    assert.match(realpathSync(`/proc/${started}/exe`), hubExe);
    const pending = await until(`${what}'s question on the laptop's hub`, () => {
      const r = spawnSync(laptopBin, ["pending", "--json"], { env: laptop.env, encoding: "utf8" });
      const list = r.status === 0 ? JSON.parse(r.stdout) : [];
      return list.find((q: { request: { questions: { title: string }[] } }) => q.request.questions[0]!.title === title);
    }, 60_000).catch((e) => {
      throw new Error(`${e.message}; ${said()}`);
    });
    assert.match(pending.machine, new RegExp(`^${escapeRegExp(agent.name)}( |$)`), `the laptop shows ${what}'s question as asked on ${pending.machine}`);
    const answer = { status: "answered", answers: [{ index: 0, id: "q1", title, kind: "single", selections: [yes], usedDefault: false }] };
    const a = spawnSync(laptopBin, ["answer", "--by", "alice", pending.id, "-"], { env: laptop.env, input: JSON.stringify(answer), encoding: "utf8" });
    assert.equal(a.status, 0, `askuser answer on the laptop: ${a.stderr}`);
    await until(`${what} to end after the answer`, () => ask.exitCode !== null || ask.signalCode !== null, 60_000).catch((e) => {
      throw new Error(`${e.message}; ${said()}`);
    });
    assert.equal(await exited, 0, `${what} exited ${ask.exitCode ?? ask.signalCode}; ${said()}`);
    const res = JSON.parse(stdout);
    assert.equal(res.status, "answered", stdout);
    assert.deepEqual(res.answers[0].selections, [yes]);
    assert.match(stderr, new RegExp(`^askuser ask: answered by alice \\(askuser answer\\) on .+ through the hub \\(question ${pending.id}\\)`));
    // Nothing is left running on the agent's machine.
    await until(`the hub ${what} started to stop once idle`, () => !existsSync(join(agent.hubDir, "hub.json")) && !existsSync(`/proc/${started}`), 60_000).catch((e) => {
      throw new Error(`${e.message}; ${said()}`);
    });
  } finally {
    if (ask.exitCode === null) process.kill(-ask.pid!, "SIGKILL");
    if (started && existsSync(`/proc/${started}`)) process.kill(started, "SIGKILL");
  }
}

test("agents on other machines, over tls:// to a real NATS server: the archive's and the npm packages' askuser-hub relay, and each agent gets the answer given on the laptop's hub", async () => {
  const natsServer = join(work, "nats-server");
  await runGo("build nats-server", ["build", "-o", natsServer, "github.com/nats-io/nats-server/v2"], { cwd: repo, timeout: 3_600_000 });
  const remote = await startTLSRemote(join(work, "nats"), natsServer, await freePort());
  const base = `askuser_${version}_${goPlatform.replace("/", "_")}`;
  const archive = join(work, "remote-archive");
  mkdirSync(archive);
  run("tar xzf", "tar", ["xzf", join(dist, `${base}.tar.gz`)], { cwd: archive });
  const bin = join(archive, base);

  // The laptop: the archive's askuser-hub, whose hub.json names the
  // remote, with the laptop's own key as its recipient.
  const laptop = remoteMachine("laptop", remote);
  const recipient = run("askuser-hub recipient", join(bin, "askuser-hub"), ["recipient"], { env: laptop.env }).trim();
  assert.match(recipient, /^askuser-pub-/);
  writeFileSync(join(laptop.config, "hub.json"), JSON.stringify({ remote: { url: remote.url, credentials: laptop.credentials, recipients: [recipient] } }), { mode: 0o600 });
  const hub = spawn(join(bin, "askuser-hub"), [], { cwd: laptop.home, env: laptop.env, stdio: ["ignore", "pipe", "pipe"] });
  let hubLog = "";
  hub.stdout!.on("data", (c) => (hubLog += c));
  hub.stderr!.on("data", (c) => (hubLog += c));
  const hubExited = new Promise((r) => hub.once("exit", r));
  const logs = () => `--- the laptop's hub logged:\n${hubLog}\n--- nats-server logged:\n${remote.log()}`;
  try {
    await until("the laptop's hub to serve", () => spawnSync(join(bin, "askuser"), ["hub", "status"], { env: laptop.env }).status === 0, 60_000).catch((e) => {
      throw new Error(`${e.message}; ${logs()}`);
    });

    // An agent machine with the archive: its askuser starts the
    // askuser-hub beside it.
    const agent = remoteMachine("agent-archive", remote);
    const hubConfig = { url: remote.url, credentials: agent.credentials, recipients: [recipient], idleMs: 1000 };
    writeFileSync(join(agent.config, "config.json"), JSON.stringify({ timeoutPerQuestionMs: 600_000, hub: hubConfig }));
    await askedThroughRemote("the archive's askuser ask", agent, laptop, join(bin, "askuser"), join(bin, "askuser"), [], new RegExp(`^${escapeRegExp(realpathSync(bin))}/askuser-hub$`), logs);

    // An agent machine with the npm packages: npx runs askuser, which
    // finds the askuser-hub that npm i -g put on PATH.
    const prefix = join(work, "agent-npm", "global");
    const npmAgent = remoteMachine("agent-npm", remote, { npm_config_prefix: prefix });
    writeFileSync(join(npmAgent.config, "config.json"), JSON.stringify({ timeoutPerQuestionMs: 600_000, hub: { ...hubConfig, credentials: npmAgent.credentials } }));
    run(`npm i -g ${hubLauncher}`, "npm", ["i", "-g", hubLauncher], { cwd: npmAgent.home, env: npmAgent.env });
    npmAgent.env.PATH = join(prefix, "bin") + delimiter + npmAgent.env.PATH;
    await askedThroughRemote(`npx -y ${launcher} ask`, npmAgent, laptop, join(bin, "askuser"), "npx", ["-y", launcher], new RegExp(`^${escapeRegExp(realpathSync(prefix))}/.*/node_modules/@askuser/askuser-hub-${nodePlatform}/bin/askuser-hub$`), logs);
  } finally {
    hub.kill("SIGTERM");
    await hubExited;
    await remote.stop();
  }
});

test("go install from a checkout builds askuser at this release", async () => {
  const line = readmeLine("go install ");
  assert.match(line, /^go install \S+$/);
  const gobin = join(work, "gobin");
  await runGo(line, line.split(" ").slice(1), { cwd: repo, env: { ...process.env, GOBIN: gobin }, timeout: 3_600_000 });
  const out = run("askuser version", join(gobin, "askuser"), ["version"]);
  // The commit is there when Go stamps the build with it (-buildvcs).
  assert.match(out, new RegExp(`^askuser ${version.replaceAll(".", "\\.")}-devel (\\(commit [0-9a-f]{12}(\\+dirty)?\\) )?${goPlatform}\\n$`));
});
