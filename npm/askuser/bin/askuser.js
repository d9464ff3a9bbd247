#!/usr/bin/env node
// The askuser launcher: runs the askuser binary that npm installed for
// this platform, as the optional dependency @askuser/askuser-<os>-<cpu>,
// with the same arguments, standard streams and exit status. Nothing is
// downloaded: the binary arrives with the install, or not at all.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");

const platform = `${process.platform}-${process.arch}`;
const pkg = `@askuser/askuser-${platform}`;
const exe = process.platform === "win32" ? "askuser.exe" : "askuser";

function binary() {
  if (process.env.ASKUSER_BINARY) return process.env.ASKUSER_BINARY;
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
  } catch {
    const { version } = require("../package.json");
    process.stderr.write(
      `askuser: no askuser binary for this platform (${platform}): the package ${pkg}@${version} is not installed.\n` +
        `askuser publishes binaries for linux, darwin and win32 on x64 and arm64; npm leaves them out with\n` +
        `--omit=optional or --no-optional. Reinstall with optional dependencies, or set ASKUSER_BINARY to an askuser binary.\n`,
    );
    process.exit(1);
  }
}

const bin = binary();
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

// askuser handles its own signals; the launcher passes on the ones a
// terminal or a client sends to it, and exits as the binary does.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  });
}

child.on("error", (err) => {
  const why = err.code === "EACCES" ? "it is not executable" : err.code === "ENOENT" ? "it is not there" : err.message;
  process.stderr.write(`askuser: cannot run ${bin}: ${why}\n`);
  process.exit(1);
});

child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
