#!/usr/bin/env node
// The launcher of askuser's npm packages: @askuser/askuser runs it as
// bin/askuser.js, @askuser/askuser-hub as bin/askuser-hub.js (build/dist
// puts this one file in both). It runs the binary of its package's name
// that npm installed for this platform, as the optional dependency
// <package>-<os>-<cpu>, with the same arguments, standard streams and
// exit status. Nothing is downloaded: the binary arrives with the
// install, or not at all.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");
const { name, version } = require("../package.json");

// askuser or askuser-hub: the command, and the binary's name.
const program = name.slice(name.indexOf("/") + 1);
const platform = `${process.platform}-${process.arch}`;
const pkg = `${name}-${platform}`;
const exe = process.platform === "win32" ? `${program}.exe` : program;
// ASKUSER_BINARY, ASKUSER_HUB_BINARY: another binary to run instead.
const override = `${program.toUpperCase().replaceAll("-", "_")}_BINARY`;

function binary() {
  if (process.env[override]) return process.env[override];
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
  } catch {
    process.stderr.write(
      `${program}: no ${program} binary for this platform (${platform}): the package ${pkg}@${version} is not installed.\n` +
        `askuser publishes binaries for linux, darwin and win32 on x64 and arm64; npm leaves them out with\n` +
        `--omit=optional or --no-optional. Reinstall with optional dependencies, or set ${override} to an ${program} binary.\n`,
    );
    process.exit(1);
  }
}

const bin = binary();
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

// The binary handles its own signals; the launcher passes on the ones a
// terminal or a client sends to it, and exits as the binary does.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  });
}

child.on("error", (err) => {
  const why = err.code === "EACCES" ? "it is not executable" : err.code === "ENOENT" ? "it is not there" : err.message;
  process.stderr.write(`${program}: cannot run ${bin}: ${why}\n`);
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
