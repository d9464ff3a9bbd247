// The dialog module's functions compiled on a worker thread, before Pi's
// thread first calls them.
//
// V8 compiles a WebAssembly function when it first runs (lazy
// compilation), on the thread that calls it: run on Pi's thread, Go's
// initialization and the module's first dialogs held Pi's event loop for
// tens of milliseconds a call while they compiled. Compiled code belongs
// to the compiled WebAssembly.Module, which every thread it is given to
// shares: a worker given the module runs Go's initialization and a few
// dialogs there, and when Pi's thread then calls the same functions they
// are compiled already. The worker's instance, its memory and the worker
// itself are gone once it is done; what it draws is thrown away.

import { Worker } from "node:worker_threads";
import type { MirrorSpec } from "./protocol.ts";
import type { Key } from "./wasm.ts";

/** How long precompile waits for the worker before Pi's thread goes on without it. */
const PRECOMPILE_TIMEOUT_MS = 10_000;

// The worker, plain JavaScript (it is evaluated as is, a script or an ES
// module as the process's flags say, hence getBuiltinModule). It cannot
// import wasm.ts's wasiImports: Pi loads this package through jiti, from
// node_modules, where Node strips no TypeScript for a worker. So it has
// its own, smaller copy of the WASI functions: the few
// functions Go's runtime calls at initialization and in a dialog, with
// nothing written anywhere, then the dialogs of workerData.specs at three
// sizes, each given workerData.keys, tried then applied, and a key tried and
// adopted.
const WORKER_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
const { randomFillSync } = process.getBuiltinModule("node:crypto");
const { module: mod, specs, keys } = workerData;
// On Linux a thread has a priority of its own: this one runs when Pi's
// thread does not want the CPU. (Elsewhere it would be the process's.)
if (process.platform === "linux") {
  try {
    process.getBuiltinModule("node:os").setPriority(19);
  } catch {}
}
let memory;
const dv = () => new DataView(memory.buffer);
const zero2 = (a, b) => (dv().setUint32(a, 0, true), dv().setUint32(b, 0, true), 0);
const nowNs = (id) => BigInt(Math.round((id === 0 ? performance.timeOrigin + performance.now() : performance.now()) * 1e6));
const wasi = {
  args_sizes_get: zero2,
  environ_sizes_get: zero2,
  args_get: () => 0,
  environ_get: () => 0,
  clock_time_get: (id, _precision, at) => (dv().setBigUint64(at, nowNs(id), true), 0),
  random_get: (at, n) => (randomFillSync(new Uint8Array(memory.buffer), at, n), 0),
  fd_write(fd, iovs, count, written) {
    let n = 0;
    for (let i = 0; i < count; i++) n += dv().getUint32(iovs + i * 8 + 4, true);
    dv().setUint32(written, n, true);
    return fd === 1 || fd === 2 ? 0 : 8;
  },
  fd_read: () => 8,
  fd_close: () => 8,
  fd_fdstat_get(fd, at) {
    if (fd > 2) return 8;
    for (let i = 0; i < 24; i += 4) dv().setUint32(at + i, 0, true);
    dv().setUint8(at, 2);
    return 0;
  },
  fd_fdstat_set_flags: () => 0,
  fd_prestat_get: () => 8,
  fd_prestat_dir_name: () => 8,
  sched_yield: () => 0,
  proc_exit(code) {
    throw new Error("exit " + code);
  },
  poll_oneoff(subs, events, n, got) {
    const v = dv();
    for (let i = 0; i < n; i++) {
      const s = subs + i * 48;
      const ev = events + i * 32;
      v.setBigUint64(ev, v.getBigUint64(s, true), true);
      v.setUint16(ev + 8, 0, true);
      v.setUint8(ev + 10, v.getUint8(s + 8));
    }
    v.setUint32(got, n, true);
    return 0;
  },
};
const x = new WebAssembly.Instance(mod, { wasi_snapshot_preview1: wasi }).exports;
memory = x.memory;
x._initialize();
const encoder = new TextEncoder();
const put = (s) => encoder.encodeInto(s, new Uint8Array(memory.buffer, x.askuser_input(s.length * 3), s.length * 3)).written;
const answer = (n) => JSON.parse(new TextDecoder().decode(new Uint8Array(memory.buffer, x.askuser_output(), n)));
for (const spec of specs) {
  for (const [width, rows] of [[80, 24], [100, 30], [200, 50]]) {
    const { id } = answer(x.askuser_open(put(JSON.stringify({ ...spec, deadline: (Date.now() + 600000) * 1000 }))));
    if (typeof id !== "number") continue;
    answer(x.askuser_resize(id, width, rows));
    for (const k of keys) {
      const text = "text" in k ? 1 : 0;
      const s = text ? k.text : k.key;
      answer(x.askuser_try(id, text, put(s)));
      answer(x.askuser_key(id, text, put(s)));
    }
    answer(x.askuser_try(id, 0, put("down")));
    x.askuser_adopt(id, 0, put("down"));
    x.askuser_close(id);
  }
}
parentPort.postMessage("done");
`;

/**
 * Runs the dialog module in a worker thread over the dialogs specs
 * describe, each given keys, so that V8 compiles the functions they call
 * there rather than on the caller's thread (see the file's comment). It
 * resolves with whether the worker ran them all, once it has, has failed,
 * or has taken longer than timeoutMs (PRECOMPILE_TIMEOUT_MS unless given),
 * and never rejects: without it the module works the same, its functions
 * compiled as they first run. The worker runs at the lowest priority, so
 * on a busy machine it may take the whole of its time.
 */
export function precompile(
  module: WebAssembly.Module,
  specs: readonly MirrorSpec[],
  keys: readonly Key[],
  timeoutMs = PRECOMPILE_TIMEOUT_MS,
): Promise<boolean> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, specs, keys }, stdout: true, stderr: true });
    } catch {
      return resolve(false);
    }
    worker.unref();
    // Resolved once the worker has run the dialogs, not when it has
    // exited: its isolate is torn down on its own thread meanwhile.
    const end = (ran: boolean) => {
      clearTimeout(timer);
      resolve(ran);
      void worker.terminate();
    };
    const timer = setTimeout(() => end(false), timeoutMs);
    timer.unref();
    worker.once("message", () => end(true));
    worker.once("error", () => end(false));
    worker.once("exit", () => end(false));
  });
}
