// Temporary directories for the tests, the e2e runs and the bench, removed
// when the process ends: at exit, and on SIGINT, SIGTERM or SIGHUP too (a
// run that is stopped, or a test runner's timeout), after which the signal
// goes on to end the process as it would have. Set ASKUSER_E2E_KEEP to
// keep them, to look at a failed run's files.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dirs = new Set<string>();

function removeAll(): void {
  // A Pi just stopped may still be writing its compile cache here: retry.
  for (const d of dirs) rmSync(d, { recursive: true, force: true, maxRetries: 5 });
  dirs.clear();
}

function onSignal(sig: NodeJS.Signals): void {
  removeAll();
  for (const s of signals) process.removeListener(s, onSignal);
  process.kill(process.pid, sig);
}

const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** A new temporary directory, removed when the process ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.env.ASKUSER_E2E_KEEP) return dir;
  if (dirs.size === 0) {
    process.once("exit", removeAll);
    for (const s of signals) process.once(s, onSignal);
  }
  dirs.add(dir);
  return dir;
}
