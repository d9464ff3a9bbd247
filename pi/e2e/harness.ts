// Runs real Pi 1.6.0 with the package and a scripted model, in print, RPC
// and TUI (tmux) mode, away from the real home directory and the network.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../test/tempdir.ts";
import { fileURLToPath } from "node:url";

export const pkgDir = dirname(dirname(fileURLToPath(import.meta.url)));

export { tempDir };

export const nodeBin = join(pkgDir, "node_modules", ".bin", "node");
export const piCli = join(pkgDir, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");

export interface ToolResult {
  toolCallId: string;
  text: string;
  details: any;
}

export interface Run {
  dir: string;
  env: Record<string, string>;
  out: string;
  events: string;
  /** Tool results as Pi appended them to the session, in order. */
  results(): ToolResult[];
  /** Tool results the scripted model was then given, in order. */
  modelSaw(): ToolResult[];
  /** The tools the model was offered on its first turn. */
  tools(): { name: string; parameters: any }[];
  /** Events the listener extension saw, in order. */
  seenEvents(): { channel: string; payload: any }[];
}

/**
 * Prepares a Pi home for one run: the package installed as `pi install`
 * records it, the scenario (the tool's arguments, one per call; the tool
 * is ask_user unless opts.tool names another) and an optional
 * ask-user.json. With noModule, the package installed is a copy of this
 * one without the in-process dialog's module, as where it cannot load.
 */
export function prepare(calls: unknown[], opts: { config?: string; install?: boolean; tool?: string; noModule?: boolean } = {}): Run {
  const dir = tempDir("askuser-e2e-");
  mkdirSync(join(dir, "agent"));
  mkdirSync(join(dir, "home"));
  mkdirSync(join(dir, "tmp"));
  const pkg = opts.noModule ? withoutModule(join(dir, "pkg")) : pkgDir;
  if (opts.install !== false) writeFileSync(join(dir, "agent", "settings.json"), JSON.stringify({ packages: [pkg] }));
  writeFileSync(join(dir, "scenario.json"), JSON.stringify({ calls, ...(opts.tool ? { tool: opts.tool } : {}) }));
  if (opts.config !== undefined) writeFileSync(join(dir, "agent", "ask-user.json"), opts.config);
  const out = join(dir, "out.jsonl");
  const events = join(dir, "events.jsonl");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    PI_CODING_AGENT_DIR: join(dir, "agent"),
    HOME: join(dir, "home"),
    // Pi's extension loader caches compiled files in the temporary
    // directory: keep them in the run's, which goes with it.
    TMPDIR: join(dir, "tmp"),
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    ASKUSER_E2E_SCENARIO: join(dir, "scenario.json"),
    ASKUSER_E2E_OUT: out,
    ASKUSER_E2E_EVENTS: events,
    TERM: "xterm-256color",
  };
  const lines = (file: string) =>
    existsSync(file)
      ? readFileSync(file, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  const from = (source: string) => () =>
    lines(out)
      .filter((r) => r.source === source)
      .map(({ source: _, ...r }) => r);
  return { dir, env, out, events, results: from("session"), modelSaw: from("model"),
    tools: () => lines(out).find((r) => r.source === "tools")?.tools ?? [],
    seenEvents: () => lines(events) };
}

// A copy of the package at dir with its code, its binary and its
// dependencies, and no bin/askuser-dialog.wasm. The code is copied, not
// linked: the package finds its module beside its own files' real path.
function withoutModule(dir: string): string {
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "bin"));
  for (const f of ["index.ts", "package.json"]) copyFileSync(join(pkgDir, f), join(dir, f));
  for (const f of readdirSync(join(pkgDir, "src"))) copyFileSync(join(pkgDir, "src", f), join(dir, "src", f));
  symlinkSync(join(pkgDir, "bin", "askuser"), join(dir, "bin", "askuser"));
  symlinkSync(join(pkgDir, "node_modules"), join(dir, "node_modules"));
  return dir;
}

export const piArgs = [
  piCli,
  "--no-session",
  "--no-builtin-tools",
  "--no-mcp",
  "-e",
  join(pkgDir, "e2e", "faux-model.ts"),
  "-e",
  join(pkgDir, "e2e", "event-listener.ts"),
  "--model",
  "faux/faux-1",
];

/** Runs the pi command (install, list, ...) in run's home. */
export function pi(run: Run, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(nodeBin, [piCli, ...args], { cwd: run.dir, env: run.env, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs Pi in print mode and returns when it exits. */
export function runPrint(run: Run): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(nodeBin, [...piArgs, "-p", "ask me"], { cwd: run.dir, env: run.env, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Waits until cond returns something truthy. */
export async function until<T>(what: string, cond: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Pi in RPC mode: JSON lines on stdin and stdout. */
export class Rpc {
  proc: ChildProcessWithoutNullStreams;
  messages: any[] = [];
  private buf = "";

  constructor(run: Run) {
    this.proc = spawn(nodeBin, [...piArgs, "--mode", "rpc"], { cwd: run.dir, env: run.env });
    this.proc.stdout.setEncoding("utf8");
    this.proc.stdout.on("data", (c: string) => {
      this.buf += c;
      let i: number;
      while ((i = this.buf.indexOf("\n")) >= 0) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 1);
        if (line) this.messages.push(JSON.parse(line));
      }
    });
  }

  send(msg: unknown): void {
    this.proc.stdin.write(JSON.stringify(msg) + "\n");
  }

  /** Waits for the next message matching pred that was not taken before. */
  async next(what: string, pred: (m: any) => boolean, timeoutMs = 30_000): Promise<any> {
    return until(what, () => {
      const i = this.messages.findIndex(pred);
      if (i < 0) return undefined;
      return this.messages.splice(i, 1)[0];
    }, timeoutMs);
  }

  close(): void {
    this.proc.kill("SIGKILL");
  }
}

/** The events one call that reached the user emits, in order, exactly. */
export function eventsOf(callId: string, route: "custom" | "native", outcome: Record<string, unknown>) {
  const status = String(outcome.status);
  return [
    { channel: "herdr:blocked", payload: { active: true, label: "Waiting for user response", callId } },
    { channel: `ask:${status}`, payload: { callId, route, ...outcome } },
    { channel: "herdr:blocked", payload: { active: false, callId } },
  ];
}

/** Sleeps; only for letting a key that must change nothing have its chance to. */
export const settle = (ms = 700) => new Promise((r) => setTimeout(r, ms));

/** The askuser children of a process, by pid. */
export function askuserChildren(pid: number): number[] {
  const out = spawnSync("ps", ["-o", "pid=,comm=", "--ppid", String(pid)], { encoding: "utf8" }).stdout ?? "";
  return out
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[1] === "askuser")
    .map((f) => Number(f[0]));
}

let tmuxN = 0;

/** Pi's TUI in a private tmux server at a fixed size. */
export class Tui {
  private socket: string; // in the run's directory, so it goes with it

  constructor(run: Run, opts: { cols?: number; rows?: number } = {}) {
    if (spawnSync("tmux", ["-V"]).error) throw new Error("the TUI tests need tmux on PATH (make pi-test installs it as root)");
    this.socket = join(run.dir, `tmux-${++tmuxN}.sock`);
    const env = Object.entries(run.env).map(([k, v]) => `${k}=${shq(v)}`);
    const cmd = `cd ${shq(run.dir)} && env -i ${env.join(" ")} ${shq(nodeBin)} ${piArgs.map(shq).join(" ")} 'ask me'; sleep 600`;
    this.tmux("-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", String(opts.cols ?? 100), "-y", String(opts.rows ?? 30), cmd);
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-S", this.socket, ...args], { encoding: "utf8" });
  }

  /** The screen as plain text. */
  screen(): string {
    return this.tmux("capture-pane", "-p", "-t", "e2e");
  }

  /** Sends tmux key names (Down, Enter, Escape, M-q) or, with literal, text. */
  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "e2e", ...keys);
  }

  type(text: string): void {
    this.tmux("send-keys", "-t", "e2e", "-l", text);
  }

  /** Resizes the terminal Pi runs in. */
  resize(cols: number, rows: number): void {
    this.tmux("resize-window", "-t", "e2e", "-x", String(cols), "-y", String(rows));
  }

  /** Writes raw bytes to Pi's terminal input, as a terminal would send them. */
  raw(bytes: string): void {
    this.tmux("send-keys", "-t", "e2e", "-H", ...[...Buffer.from(bytes, "latin1")].map((b) => b.toString(16).padStart(2, "0")));
  }

  async waitFor(what: string | RegExp, timeoutMs = 30_000): Promise<string> {
    return until(`screen to show ${what}`, () => {
      const s = this.screen();
      return (typeof what === "string" ? s.includes(what) : what.test(s)) ? s : undefined;
    }, timeoutMs).catch((err) => {
      throw new Error(`${err.message}; screen:\n${this.screen()}`);
    });
  }

  async waitGone(what: string, timeoutMs = 30_000): Promise<string> {
    return until(`screen to stop showing ${what}`, () => {
      const s = this.screen();
      return s.includes(what) ? undefined : s;
    }, timeoutMs).catch((err) => {
      throw new Error(`${err.message}; screen:\n${this.screen()}`);
    });
  }

  /** Appends every byte Pi writes to its terminal from now on to file. */
  pipeTo(file: string): void {
    this.tmux("pipe-pane", "-o", "-t", "e2e", `cat >> ${shq(file)}`);
  }

  /** A tmux format of the pane, such as #{pane_title}. */
  format(fmt: string): string {
    return this.tmux("display-message", "-p", "-t", "e2e", fmt).replace(/\n$/, "");
  }

  /**
   * Ends Pi and everything else in the pane, and returns once they are gone,
   * so that no process still writes into the run's directory (Node writes its
   * compile cache as it exits) when the directory is removed.
   */
  close(): void {
    let pids: number[] = [];
    try {
      pids = tree(Number(this.format("#{pane_pid}")));
    } catch {
      /* the server is gone already */
    }
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    try {
      this.tmux("kill-server");
    } catch {
      /* already gone */
    }
    const deadline = Date.now() + 10_000;
    while (pids.some(alive) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20);
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** pid and all its descendants, from ps. */
function tree(pid: number): number[] {
  const out = spawnSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" }).stdout ?? "";
  const children = new Map<number, number[]>();
  for (const line of out.split("\n")) {
    const [c, p] = line.trim().split(/\s+/).map(Number);
    if (!c || !p) continue;
    children.set(p, [...(children.get(p) ?? []), c]);
  }
  const all: number[] = [];
  const walk = (p: number) => {
    all.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  if (pid > 0) walk(pid);
  return all;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
