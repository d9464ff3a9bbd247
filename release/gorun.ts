// Go commands run by the release test, each in a process group of its own
// with its build directories (GOTMPDIR) in a directory of its own: a go
// command that is stopped cannot remove its go-build* directories, and a
// program that `go run` started, or the builds that program started, would
// live on after go itself was killed. Stopping a command (its timeout, an
// abort, or a signal to the test) kills the whole group and removes that
// directory.
import assert from "node:assert/strict";
import { spawn, type SpawnOptions } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

/** The process groups of the Go commands running now. */
const groups = new Set<number>();

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // Gone already.
  }
}

function endAll(): void {
  for (const pgid of groups) killGroup(pgid);
  groups.clear();
}

// Before any handler that removes the temp directories and ends the
// process (pi/test/tempdir.ts): a build still running would write there
// again.
process.once("exit", endAll);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.prependOnceListener(sig, endAll);
}

export interface GoOptions extends SpawnOptions {
  /** Where the command's GOTMPDIR is made; it is removed when go ends. */
  tmp: string;
  /** Milliseconds: only to catch a hang, never a slow machine. */
  timeout: number;
  /** Stops the command as its timeout does. */
  abort?: AbortSignal;
  /** The go command; "go" unless set. */
  go?: string;
}

/**
 * Runs go with args to the end and returns its standard output; a
 * non-zero exit, the timeout or an abort fails with its output. Each step
 * prints how long it took.
 */
export async function runGo(what: string, args: string[], opts: GoOptions): Promise<string> {
  const { tmp, timeout, abort, go = "go", ...spawnOpts } = opts;
  const start = performance.now();
  const goTmp = mkdtempSync(join(tmp, "gotmp-"));
  const proc = spawn(go, args, { ...spawnOpts, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...(spawnOpts.env ?? process.env), GOTMPDIR: goTmp } });
  let stdout = "";
  let stderr = "";
  proc.stdout!.on("data", (c) => (stdout += c));
  proc.stderr!.on("data", (c) => (stderr += c));
  let stopped = "";
  const stop = (why: string) => {
    stopped ||= why;
    killGroup(proc.pid!);
  };
  const onAbort = () => stop("was stopped");
  try {
    if (proc.pid === undefined) {
      throw new Error(`${what}: go ${args.join(" ")} did not start`);
    }
    groups.add(proc.pid);
    const timer = setTimeout(() => stop(`was still running after ${timeout / 1000}s, and was killed`), timeout);
    if (abort?.aborted) onAbort();
    abort?.addEventListener("abort", onAbort);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      proc.once("error", reject);
      proc.once("close", (code, signal) => resolve([code, signal]));
    }).finally(() => {
      clearTimeout(timer);
      abort?.removeEventListener("abort", onAbort);
    });
    groups.delete(proc.pid);
    const took = ((performance.now() - start) / 1000).toFixed(1);
    if (stopped) assert.fail(`${what} (go ${args.join(" ")}) ${stopped}:\n${stderr}\n${stdout}`);
    assert.equal(code, 0, `${what} (go ${args.join(" ")}) exited ${code ?? signal} after ${took}s:\n${stderr}\n${stdout}`);
    console.log(`# ${what}: ${took}s`);
    return stdout;
  } finally {
    rmSync(goTmp, { recursive: true, force: true, maxRetries: 5 });
  }
}
