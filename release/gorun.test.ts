// runGo stops a go command with everything it started and leaves no build
// directory behind, however it ends.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir, until } from "../pi/e2e/harness.ts";
import { runGo } from "./gorun.ts";

/** A program that starts `sleep 300`, writes its pid to file, and waits forever. */
const blocker = `package main

import (
	"os"
	"os/exec"
	"strconv"
	"time"
)

func main() {
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	if err := os.WriteFile(os.Args[1], []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		panic(err)
	}
	for {
		time.Sleep(time.Hour)
	}
}
`;

/** A directory with the blocker's source, and tmp for runGo. */
function setup(): { src: string; tmp: string; pidFile: string } {
  const dir = tempDir("askuser-gorun-");
  const src = join(dir, "src");
  const tmp = join(dir, "tmp");
  mkdirSync(src);
  mkdirSync(tmp);
  writeFileSync(join(src, "main.go"), blocker);
  return { src, tmp, pidFile: join(dir, "pid") };
}

/** Whether pid is a process that still runs (a zombie has ended). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

test("a go run that is aborted ends with the program it ran and that program's child, and leaves no build directory", async () => {
  const { src, tmp, pidFile } = setup();
  const abort = new AbortController();
  const done = runGo("the blocker", ["run", "main.go", pidFile], { cwd: src, tmp, timeout: 3_600_000, abort: abort.signal });
  const settled = done.then(() => undefined, (e: Error) => e);
  // The blocker writes the file once it runs, after go has built it.
  await until("the blocker's child", () => existsSync(pidFile) && readFileSync(pidFile, "utf8"), 600_000);
  const child = Number(readFileSync(pidFile, "utf8"));
  assert.ok(running(child), `sleep (pid ${child}) is not running`);
  abort.abort();
  const err = await settled;
  assert.match(String(err), /the blocker \(go run main\.go .*\) was stopped/);
  await until(`sleep (pid ${child}) to end`, () => !running(child), 60_000);
  assert.deepEqual(readdirSync(tmp), []);
});

test("a go command still running at its timeout is killed, and leaves no build directory", async () => {
  const { src, tmp, pidFile } = setup();
  // Killed while go builds the program or while the program runs: it never ends.
  await assert.rejects(runGo("the blocker", ["run", "main.go", pidFile], { cwd: src, tmp, timeout: 1_000 }), /was still running after 1s, and was killed/);
  assert.deepEqual(readdirSync(tmp), []);
});

test("go runs with GOTMPDIR in a directory of its own, removed when it ends, and a failure says why", async () => {
  const { src, tmp } = setup();
  const out = await runGo("go env GOTMPDIR", ["env", "GOTMPDIR"], { cwd: src, tmp, timeout: 3_600_000 });
  assert.match(out.trim(), new RegExp(`^${tmp.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")}/gotmp-[^/]+$`));
  assert.deepEqual(readdirSync(tmp), []);
  writeFileSync(join(src, "main.go"), "package main\n\nfunc main() { undefinedName() }\n");
  await assert.rejects(runGo("the broken program", ["build", "-o", join(src, "out"), "main.go"], { cwd: src, tmp, timeout: 3_600_000 }), /the broken program \(go build .*\) exited 1 after [\d.]+s:\n.*undefined: undefinedName/s);
  assert.deepEqual(readdirSync(tmp), []);
});
