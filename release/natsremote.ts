// A remote hub as the README's "Agents on other machines" describes one: a
// real nats-server with JetStream on 127.0.0.1, reached over tls:// only,
// its certificate issued by a CA of the test's own, which the users'
// machines trust through SSL_CERT_FILE (Go reads it for the system's roots
// on Linux), and a token for its credentials.
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { until } from "../pi/e2e/harness.ts";

export interface TLSRemote {
  /** tls://127.0.0.1:PORT */
  url: string;
  /** The CA's certificate (PEM), for SSL_CERT_FILE. */
  ca: string;
  /** The token the server takes, a credentials file's one line. */
  token: string;
  /** The last lines the server logged. */
  log(): string;
  /** Stops the server and waits for it to end. */
  stop(): Promise<void>;
}

/** Runs openssl with args in dir; a failure fails with its output. */
function openssl(dir: string, args: string[]): void {
  const r = spawnSync("openssl", args, { cwd: dir, encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 0, `openssl ${args.join(" ")} exited ${r.status ?? r.signal} (${r.error ?? "openssl is on PATH"}):\n${r.stderr}`);
}

/**
 * Makes a CA and a certificate it signs for 127.0.0.1 in dir, then runs
 * the nats-server binary there on port with that certificate and a token,
 * and returns once it is ready.
 */
export async function startTLSRemote(dir: string, natsServer: string, port: number): Promise<TLSRemote> {
  mkdirSync(dir, { recursive: true });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  openssl(dir, ["req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=askuser release test CA",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  openssl(dir, ["req", "-new", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"]);
  writeFileSync(join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n");
  openssl(dir, ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "1", "-extfile", "server.ext"]);

  const token = randomBytes(16).toString("hex");
  const conf = join(dir, "nats.conf");
  writeFileSync(
    conf,
    [
      `listen: 127.0.0.1:${port}`,
      `jetstream { store_dir: ${JSON.stringify(join(dir, "store"))} }`,
      `tls { cert_file: ${JSON.stringify(join(dir, "server.pem"))}, key_file: ${JSON.stringify(join(dir, "server.key"))} }`,
      `authorization { token: ${JSON.stringify(token)} }`,
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  const proc: ChildProcess = spawn(natsServer, ["-c", conf], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  proc.stdout!.on("data", (c) => (log += c));
  proc.stderr!.on("data", (c) => (log += c));
  const exited = new Promise((r) => proc.once("exit", r));
  // A test process that ends leaves no server behind.
  const kill = () => proc.kill("SIGKILL");
  process.once("exit", kill);
  const stop = async () => {
    process.removeListener("exit", kill);
    if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
    await exited;
  };
  try {
    await until("nats-server to be ready", () => {
      assert.equal(proc.exitCode, null, `nats-server exited:\n${log}`);
      return log.includes("Server is ready");
    }, 60_000);
  } catch (e) {
    await stop();
    throw new Error(`${(e as Error).message}; nats-server logged:\n${log}`);
  }
  // The last lines: a server that a client fails to reach logs each try.
  const tail = () => log.split("\n").slice(-30).join("\n");
  return { url: `tls://127.0.0.1:${port}`, ca: join(dir, "ca.pem"), token, log: tail, stop };
}
