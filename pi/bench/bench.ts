// Figures for the Pi package, printed as a table. Run with `make pi-bench`,
// or `make pi-bench BENCH="key call"` for some sections only (key, pace,
// call, screen, child, session, startup).
//
//   key to frame      a key given to the component's handleInput until the
//                     new frame is rendered: keyMessage, the pipe to the
//                     child, the dialog, the pipe back, render(width). Beside
//                     it the floor: the same pipe round trip to cat, which
//                     does no work, synchronous as the shim's and through
//                     the event loop. Measured after a warm-up, and apart
//                     for a session's first keys, while V8 still compiles
//                     the shim's hot code; with the parts of a key's time
//                     as the shim's exchange reports them.
//   keys at pace      the same, with the keys 100 ms apart as a person's
//                     are, after the same warm-up.
//   call to frame     ask() on a host whose child is running, until the
//                     first rendered frame with the question; and in real
//                     Pi's TUI, from the tool call's start to the dialog
//                     on the terminal.
//   child ready, RSS  spawn of `askuser bridge` until its ready line, and
//                     its resident memory then and after a dialog.
//   Pi startup        real Pi 1.6 in print mode with a scripted model that
//                     answers at once, with and without the package, and
//                     the package's import and factory as Pi times them.
//   session_start     the time the package's session_start handler takes.
//
// The fake Pi context is the unit tests'; everything else is real.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createAskUser, registerAskUser } from "../index.ts";
import type { ExchangeTimes } from "../src/child.ts";
import { RELEASE } from "../src/host.ts";
import { nodeBin, piArgs, pkgDir, prepare, Tui } from "../e2e/harness.ts";
import { binary, fakeCtx, fakePi, noConfig, until } from "../test/fake.ts";

const quick = process.argv.includes("--quick");
// Keys given to a fresh dialog before its steady figures are taken: V8
// compiles the shim's hot code during about the first thousand.
const warmup = quick ? 1000 : 4000;
const question = {
  questions: [{ title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }, { label: "canary" }] }],
};

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const median = (xs: number[]) => pct(xs, 50);
const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const rows: [string, string, string][] = [];
const row = (what: string, value: string, budget = "") => {
  rows.push([what, value, budget]);
  console.error(`${what}: ${value}`);
};

// The pipe alone, measured as exchange does it: a key-sized line written
// to `cat` with writeSync, and read back, frame-sized, by spinning on
// readSync, or through the event loop. cat answers with no work at all,
// so this is the floor under the bridge's round trip on this machine.
class PipeFloor {
  private proc = spawn("cat", [], { stdio: ["pipe", "pipe", "inherit"] });
  private inFd = (this.proc.stdin as unknown as { _handle: { fd: number } })._handle.fd;
  private outFd = (this.proc.stdout as unknown as { _handle: { fd: number } })._handle.fd;
  private buf = Buffer.alloc(64 << 10);
  private waiting: (() => void) | undefined;
  private got = 0;
  private async = false;
  private line: Buffer;
  constructor(line: Buffer) {
    this.line = line;
    this.proc.stdout!.on("data", (d: Buffer) => {
      if (!this.async) throw new Error("the floor's cat wrote while nobody waited");
      this.got += d.length;
      if (this.got >= this.line.length) this.waiting?.();
    });
  }
  sync(): void {
    writeSync(this.inFd, this.line);
    for (let got = 0; got < this.line.length; ) {
      try {
        got += readSync(this.outFd, this.buf, 0, this.buf.length, null);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      }
    }
  }
  viaLoop(): Promise<void> {
    this.async = true;
    this.got = 0;
    return new Promise((resolve) => {
      this.waiting = () => {
        this.async = false;
        resolve();
      };
      this.proc.stdin!.write(this.line);
    });
  }
  close(): void {
    this.proc.stdin!.end();
  }
}

// The dialog of question on a fake Pi at 100 columns: key(i) gives it a
// down or an up key and resolves with the time until the key's frame is
// rendered; close dismisses it and waits for the call's end.
async function keyBench() {
  const f = fakeCtx("tui", { cols: 100, rows: 30 });
  let rendered: (() => void) | undefined;
  f.tui.requestRender = () => rendered?.();
  const ask = createAskUser(f.ctx, { ...noConfig, timeoutPerQuestionMs: 600_000 });
  const p = ask(question);
  const s = await until("the dialog", () => f.shown[0]?.component && f.shown[0]!.component.render(100).length > 0 && f.shown[0]);
  const c = s.component!;
  return {
    child: ask.host.process!,
    frame: () => c.render(100),
    async key(i: number): Promise<number> {
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        rendered = resolve;
        c.handleInput!(i % 2 === 0 ? "\x1b[B" : "\x1b[A");
      });
      c.render(100);
      return performance.now() - t0;
    },
    async close(): Promise<void> {
      rendered = undefined;
      f.type("\x1b");
      await p;
    },
  };
}

async function keyToFrame() {
  const d = await keyBench();
  // Where the steady keys' time goes, as the shim's exchange sees it.
  const parts: ExchangeTimes[] = [];
  let tracing = false;
  d.child.onExchange = (t) => tracing && parts.push(t);
  const frameBytes = Buffer.byteLength(JSON.stringify({ type: "frame", call: "c1", lines: d.frame() }));
  const floor = new PipeFloor(Buffer.from("x".repeat(frameBytes - 1) + "\n"));
  // Other work on the machine comes and goes: the bridge and the floor
  // take turns, a round each, so that both see the same load. The first
  // keys of a session are slower while V8 compiles the shim's hot code
  // and both processes grow their heaps: they are reported on their own,
  // and the steady figures are taken after a warm-up.
  const cold = quick ? 250 : 1000;
  const n = quick ? 500 : 5000;
  const round = 250;
  const first: number[] = [];
  const times: number[] = [];
  const floorSync: number[] = [];
  const floorLoop: number[] = [];
  for (let done = 0; done < warmup + n; done += round) {
    const steady = done >= warmup;
    tracing = steady;
    for (let i = 0; i < round; i++) {
      const t = await d.key(i);
      if (steady) times.push(t);
      else if (done + i < cold) first.push(t);
    }
    for (let i = 0; i < round; i++) {
      const t0 = performance.now();
      floor.sync();
      if (steady) floorSync.push(performance.now() - t0);
    }
    for (let i = 0; i < round; i++) {
      const t0 = performance.now();
      await floor.viaLoop();
      if (steady) floorLoop.push(performance.now() - t0);
    }
  }
  tracing = false; // the dismissal's key is not one of them
  floor.close();
  await d.close();
  row(`key to frame p50 (${n} keys after ${warmup} of warm-up)`, us(pct(times, 50)), "< 30 µs");
  row(`key to frame p99`, us(pct(times, 99)), "< 200 µs");
  const part = (f: (t: ExchangeTimes) => number) => pct(parts.map(f), 50);
  row(
    `where a steady key's time goes, p50s: encode and write / wait for the child / read and apply its frame`,
    `${us(part((t) => t.written - t.start))} / ${us(part((t) => t.read - t.written))} / ${us(part((t) => t.answered - t.read))}`,
  );
  row(`  empty reads while waiting, p50 / p99; keys with naps`, `${part((t) => t.emptyReads)} / ${pct(parts.map((t) => t.emptyReads), 99)}; ${parts.filter((t) => t.naps > 0).length} of ${parts.length}`);
  row(`key to frame, the session's first ${cold} keys, p50 / p99`, `${us(pct(first, 50))} / ${us(pct(first, 99))}`, "< 100 µs / < 1 ms");
  row(`pipe floor, synchronous as the shim reads, p50 / p99 (${frameBytes}-byte line to cat)`, `${us(pct(floorSync, 50))} / ${us(pct(floorSync, 99))}`);
  row(`pipe floor, through the event loop, p50 / p99`, `${us(pct(floorLoop, 50))} / ${us(pct(floorLoop, 99))}`);
}

// Keys as far apart as a person's: between two keys both processes go
// idle, and the next key meets cold caches, idle CPUs and the
// scheduler's placement of the woken child. No budget: the figure shows
// what the back-to-back one leaves out.
async function keysAtPace() {
  const d = await keyBench();
  // Warm, as the back-to-back figure is; then idle, as between turns.
  for (let i = 0; i < warmup; i++) await d.key(i);
  await new Promise((r) => setTimeout(r, 1000));
  const gap = 100;
  const n = quick ? 20 : 60;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await new Promise((r) => setTimeout(r, gap));
    times.push(await d.key(i));
  }
  await d.close();
  row(`key to frame with keys ${gap} ms apart, p50 / p90 (${n} keys)`, `${us(pct(times, 50))} / ${us(pct(times, 90))}`);
}

async function callToFrame() {
  const f = fakeCtx("tui", { cols: 100, rows: 30 });
  let rendered: (() => void) | undefined;
  f.tui.requestRender = () => rendered?.();
  const ask = createAskUser(f.ctx, { ...noConfig, timeoutPerQuestionMs: 600_000 });
  await ask.host.start()!.ready;
  const n = quick ? 10 : 50;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const shown = new Promise<void>((resolve) => {
      // The first frame also resolves the component Pi waits for, which
      // the fake mounts a moment later.
      const check = () => {
        const c = f.shown[i]?.component;
        if (c?.render(100).some((l) => l.includes("Deploy where?"))) resolve();
        else setImmediate(check);
      };
      rendered = check;
    });
    const p = ask(question);
    await shown;
    times.push(performance.now() - t0);
    rendered = undefined;
    f.type("\x1b");
    await p;
  }
  row(`tool call to first frame p50 (${n} calls, child running)`, ms(median(times)), "< 50 ms");
  row(`tool call to first frame max`, ms(Math.max(...times)));
}

function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function childReady() {
  const hello = JSON.stringify({ type: "hello", version: 1, release: RELEASE, mode: "tui", hasUI: true, ui: { custom: true, input: true, select: true }, agentDir: "", configFile: false });
  const n = quick ? 10 : 40;
  const times: number[] = [];
  const mem: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const child = spawn(binary, ["bridge"], { stdio: ["pipe", "pipe", "inherit"] });
    child.stdin.write(hello + "\n");
    let buf = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (d: string) => {
        buf += d;
        if (buf.includes('"type":"ready"')) resolve();
        else if (buf.includes('"type":"fatal"')) reject(new Error(`the bridge refused the hello: ${buf}`));
      });
    });
    times.push(performance.now() - t0);
    mem.push(rss(child.pid!));
    child.stdin.end();
    await new Promise((r) => child.on("exit", r));
  }
  row(`child spawn to ready p50 (${n} runs)`, ms(median(times)), "");
  row(`child RSS at ready`, `${median(mem).toFixed(1)} MiB`);

  // Memory after a dialog has been drawn and answered.
  const f = fakeCtx("tui", { cols: 100, rows: 30 });
  const ask = createAskUser(f.ctx, noConfig);
  const p = ask(question);
  await until("the dialog", () => f.shown[0]?.component?.render(100).some((l) => l.includes("Deploy where?")), 5000);
  for (let i = 0; i < 50; i++) f.type(i % 2 ? "\x1b[A" : "\x1b[B");
  f.type("\r");
  await p;
  row(`child RSS after a dialog`, `${rss(ask.host.process!.pid!).toFixed(1)} MiB`);
}

// Real Pi's TUI under tmux: from Pi starting the tool call to the dialog
// on the screen, seen by polling the terminal. The poll itself takes a
// few milliseconds, so this is an upper bound.
async function callToScreen() {
  const n = quick ? 4 : 11;
  const calls = Array.from({ length: n }, (_, i) => ({ questions: [{ title: `Question ${i + 1}`, options: [{ label: "a" }, { label: "b" }] }] }));
  const r = prepare(calls);
  const times = `${r.dir}/times`;
  r.env.ASKUSER_E2E_TIMES = times;
  const tui = new Tui(r);
  const got: number[] = [];
  try {
    for (let i = 1; i <= n; i++) {
      const title = `Question ${i}`;
      let seen = 0;
      const end = Date.now() + 30_000;
      while (Date.now() < end) {
        const s = tui.screen();
        if (s.includes(title) && s.includes("esc dismiss")) {
          seen = Date.now();
          break;
        }
      }
      if (!seen) throw new Error(`${title} never showed:\n${tui.screen()}`);
      const started = Number(readFileSync(times, "utf8").trim().split("\n")[i - 1]);
      got.push(seen - started);
      tui.keys("Escape");
    }
  } finally {
    tui.close();
  }
  // The first call comes while Pi is still starting, and starts the child.
  row(`tool call to dialog on screen in Pi's TUI, first call (tmux poll)`, ms(got[0]!));
  row(`tool call to dialog on screen in Pi's TUI, median of the next ${n - 1}`, ms(median(got.slice(1))), "< 50 ms");
}

function sessionStart() {
  const n = quick ? 10 : 50;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const f = fakePi();
    registerAskUser(f.pi, noConfig);
    const ctx = fakeCtx("tui").ctx;
    const t0 = performance.now();
    void f.fire("session_start", { reason: "startup" }, ctx);
    times.push(performance.now() - t0);
    void f.fire("session_shutdown", { reason: "quit" }, ctx);
  }
  row(`session_start handler p50 (the child starts after it)`, ms(median(times)));
}

function piStartup() {
  const n = quick ? 5 : 15;
  // PI_TIMING=1 makes Pi print how long each extension's import and
  // factory took: the package's own share of startup, free of the noise
  // of the whole run.
  const own: number[] = [];
  const piTotal = { with: [] as number[], without: [] as number[] };
  // Pi's extension loader caches the compiled package in TMPDIR, as it
  // does on a user's machine from one run to the next: every run shares
  // one, so that the runs after the first two measure a warm start.
  const cache = mkdtempSync(join(tmpdir(), "askuser-bench-"));
  const run = (install: boolean) => {
    const r = prepare([], { install });
    const t0 = performance.now();
    const out = spawnSync(nodeBin, [...piArgs, "-p", "hi"], { cwd: r.dir, env: { ...r.env, PI_TIMING: "1", TMPDIR: cache }, encoding: "utf8" });
    const t = performance.now() - t0;
    if (out.status !== 0) throw new Error(`pi failed: ${out.stderr}`);
    if (!out.stdout.includes("model saw")) throw new Error(`pi did not answer: ${out.stdout}`);
    const total = Number(/Startup Timings: main[\s\S]*?TOTAL: (\d+)ms/.exec(out.stderr)?.[1]);
    if (Number.isNaN(total)) throw new Error(`Pi printed no startup timings:\n${out.stderr}`);
    (install ? piTotal.with : piTotal.without).push(total);
    if (install) {
      const entry = `${pkgDir}/index.ts`;
      const part = (what: string) => Number(new RegExp(`${entry.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} ${what}: (\\d+)ms`).exec(out.stderr)?.[1]);
      const sum = part("module import") + part("factory");
      if (Number.isNaN(sum)) throw new Error(`Pi's timings do not list the package:\n${out.stderr}`);
      own.push(sum);
    }
    return t;
  };
  const without: number[] = [];
  const withPkg: number[] = [];
  try {
    run(false);
    run(true);
    for (let i = 0; i < n; i++) {
      without.push(run(false));
      withPkg.push(run(true));
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
  // Other work on the machine only ever adds time: the minimum is the
  // steadiest estimate, the median is shown beside it.
  row(`Pi print run without the package, min / median of ${n}`, `${ms(Math.min(...without))} / ${ms(median(without))}`);
  row(`Pi print run with the package, min / median of ${n}`, `${ms(Math.min(...withPkg))} / ${ms(median(withPkg))}`);
  row(`the package's import + factory, Pi's own timing, median`, ms(median(own)));
  row(`Pi's own startup total without / with the package, medians`, `${ms(median(piTotal.without))} / ${ms(median(piTotal.with))}`);
  row(`added by the package to Pi's own startup total`, ms(median(piTotal.with) - median(piTotal.without)), "< 20 ms");
  row(`added by the package to the whole run (noisy), min / median`, `${ms(Math.min(...withPkg) - Math.min(...without))} / ${ms(median(withPkg) - median(without))}`);
}

// The children are unref'd so that they never keep Pi alive; this keeps
// the bench alive while it waits on them.
const keepAlive = setInterval(() => {}, 1000);
const sections: [string, () => unknown][] = [
  ["key", keyToFrame],
  ["pace", keysAtPace],
  ["call", callToFrame],
  ["screen", callToScreen],
  ["child", childReady],
  ["session", sessionStart],
  ["startup", piStartup],
];
// Names given on the command line (`node bench/bench.ts key`) pick the
// sections to run; none runs them all.
const picked = process.argv.slice(2).filter((a) => !a.startsWith("--"));
for (const name of picked) {
  if (!sections.some(([n]) => n === name)) {
    console.error(`bench: unknown section ${JSON.stringify(name)}; the sections are ${sections.map(([n]) => n).join(", ")}`);
    process.exit(2);
  }
}
for (const [name, run] of sections) if (picked.length === 0 || picked.includes(name)) await run();

const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
console.log(`${"figure".padEnd(w[0]!)}  ${"value".padEnd(w[1]!)}  budget`);
for (const [a, b, c] of rows) console.log(`${a.padEnd(w[0]!)}  ${b.padEnd(w[1]!)}  ${c}`);
clearInterval(keepAlive);
process.exit(0);
