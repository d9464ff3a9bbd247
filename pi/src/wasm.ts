// askuser's dialog compiled to WebAssembly (cmd/askuser-dialog-wasm), run
// inside Pi's process: a key's frame is drawn here at once, while the
// child, which decides everything, gets the key as well. The module is
// loaded in the background; until it is ready, or when it cannot load,
// the child draws every frame as before. Nothing here writes to Pi's
// terminal: the few WASI functions Go's runtime calls are implemented
// below, so that Node's experimental node:wasi (and its warning) is not
// needed.

import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomFillSync } from "node:crypto";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { Cursor, MirrorSpec } from "./protocol.ts";
import { precompile } from "./precompile.ts";
import { keyId, LETTER_CLASSES, letterClass, letterFrame, sameFrame, type Template, TEXT_TRIED_KEYS, templateOf, TRIED_KEYS } from "./tries.ts";
import { warmView } from "./ui.ts";

/** The module's file name, in the package's bin folder. */
export const WASM_FILE = "askuser-dialog.wasm";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** Where the package's dialog module is, or undefined when it has none. */
export function findDialogModule(dir = packageDir): string | undefined {
  const path = join(dir, "bin", WASM_FILE);
  return existsSync(path) ? path : undefined;
}

/** A frame of the in-process dialog, whole. */
export interface LocalFrame {
  lines: string[];
  cursor?: Cursor;
  /** The width every line was measured to fit, when one was. */
  fits?: number;
  /**
   * The cursor's line with the cursor marker in it, as the component
   * draws it at width when focused, made while Pi was idle; fits tells
   * whether it fits the width.
   */
  marked?: { width: number; line: string; fits: boolean };
}

/** The end of a Go program: proc_exit throws it, and the module is done. */
class Exit extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`the dialog module exited with status ${code}`);
    this.code = code;
  }
}

// WASI errno values.
const ESUCCESS = 0;
const EBADF = 8;
const ENOSYS = 52;

const napCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * The WASI preview 1 functions Go's wasip1 runtime imports, enough for a
 * module that never reads files: no arguments or environment, stdout and
 * stderr kept in a short buffer (a Go panic's text), the clocks,
 * randomness and sleeping.
 */
function wasiImports(memory: () => WebAssembly.Memory, out: { text: string }, clock: { shiftUs: number }) {
  // One DataView while the memory does not grow: Go's runtime reads the
  // clock several times a call, and a key should allocate nothing here.
  let dv: DataView | undefined;
  const view = () => {
    const b = memory().buffer;
    if (dv === undefined || dv.buffer !== b) dv = new DataView(b);
    return dv;
  };
  const bytes = () => new Uint8Array(memory().buffer);
  const decoder = new TextDecoder();
  const zero2 = (a: number, b: number) => {
    const v = view();
    v.setUint32(a, 0, true);
    v.setUint32(b, 0, true);
    return ESUCCESS;
  };
  // The clocks in ms: realtime (id 0) since the Unix epoch, monotonic
  // since the process started.
  const nowMs = (id: number) => (id === 0 ? performance.timeOrigin + performance.now() : performance.now());
  return {
    args_sizes_get: zero2,
    environ_sizes_get: zero2,
    args_get: () => ESUCCESS,
    environ_get: () => ESUCCESS,
    // The time in ns as two 32-bit halves, with numbers only: Go's
    // runtime reads a clock several times a key, and with a BigInt per
    // read this function took V8 milliseconds to optimize, on an early key.
    clock_time_get(id: number, _precision: bigint, at: number): number {
      let hi: number;
      let lo: number;
      if (id === 0) {
        // From whole µs, exactly: µs·1000 can pass 2⁵³.
        const us = Math.round((performance.timeOrigin + performance.now()) * 1e3 + clock.shiftUs);
        const usHi = Math.floor(us / 0x1_0000_0000);
        const x = (us - usHi * 0x1_0000_0000) * 1000;
        const carry = Math.floor(x / 0x1_0000_0000);
        hi = usHi * 1000 + carry;
        lo = x - carry * 0x1_0000_0000;
      } else {
        const ns = Math.floor(performance.now() * 1e6);
        hi = Math.floor(ns / 0x1_0000_0000);
        lo = ns - hi * 0x1_0000_0000;
      }
      const v = view();
      v.setUint32(at, lo, true);
      v.setUint32(at + 4, hi, true);
      return ESUCCESS;
    },
    random_get(at: number, n: number): number {
      randomFillSync(bytes(), at, n);
      return ESUCCESS;
    },
    fd_write(fd: number, iovs: number, count: number, written: number): number {
      const v = view();
      let n = 0;
      for (let i = 0; i < count; i++) {
        const ptr = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        if (fd === 1 || fd === 2) out.text = (out.text + decoder.decode(bytes().subarray(ptr, ptr + len))).slice(-4000);
        n += len;
      }
      v.setUint32(written, n, true);
      return fd === 1 || fd === 2 ? ESUCCESS : EBADF;
    },
    fd_read: () => EBADF,
    fd_close: () => EBADF,
    fd_fdstat_get(fd: number, at: number): number {
      if (fd > 2) return EBADF;
      const v = view();
      for (let i = 0; i < 24; i += 4) v.setUint32(at + i, 0, true);
      v.setUint8(at, 2); // a character device
      return ESUCCESS;
    },
    fd_fdstat_set_flags: () => ESUCCESS,
    fd_prestat_get: () => EBADF, // no preopened directories
    fd_prestat_dir_name: () => EBADF,
    sched_yield: () => ESUCCESS,
    proc_exit(code: number): never {
      throw new Exit(code);
    },
    // Go's scheduler sleeps here when it has nothing to run until a
    // timer. The dialog sets no timers; a sleep is kept short all the
    // same, and every subscription reported as due.
    poll_oneoff(subs: number, events: number, n: number, got: number): number {
      const v = view();
      let wait = Infinity;
      for (let i = 0; i < n; i++) {
        const s = subs + i * 48;
        const ev = events + i * 32;
        v.setBigUint64(ev, v.getBigUint64(s, true), true);
        v.setUint16(ev + 8, ESUCCESS, true);
        const tag = v.getUint8(s + 8);
        v.setUint8(ev + 10, tag);
        v.setBigUint64(ev + 16, 0n, true);
        v.setUint16(ev + 24, 0, true);
        if (tag === 0) {
          let timeout = Number(v.getBigUint64(s + 24, true)) / 1e6;
          if ((v.getUint16(s + 40, true) & 1) !== 0) timeout -= nowMs(v.getUint32(s + 16, true)); // absolute
          wait = Math.min(wait, timeout);
        } else {
          v.setUint16(ev + 8, ENOSYS, true);
        }
      }
      if (wait > 0 && wait !== Infinity) Atomics.wait(napCell, 0, 0, Math.min(wait, 50));
      v.setUint32(got, n, true);
      return ESUCCESS;
    },
  };
}

interface Exports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  askuser_input(n: number): number;
  askuser_output(): number;
  askuser_open(n: number): number;
  askuser_resize(id: number, width: number, rows: number): number;
  askuser_key(id: number, text: number, n: number): number;
  askuser_try(id: number, text: number, n: number): number;
  askuser_adopt(id: number, text: number, n: number): number;
  askuser_close(id: number): void;
}

/**
 * The steps of loading the module, as DialogModule.load and dialogModule
 * end them: the file read, the module compiled, its functions compiled
 * on a worker thread (precompile), instantiated, Go's runtime and packages
 * initialized, and the warm-up done.
 */
export type LoadStep = "read" | "compiled" | "precompiled" | "instantiated" | "initialized" | "warmed";

/** A key as the component gives it: a Pi key name, or printable text. */
export type Key = { key: string } | { text: string };

/**
 * The loaded dialog module. One instance serves every dialog of the
 * process. Once it fails (a Go panic, a trap), it is broken for good and
 * every call of it returns undefined: the child draws from then on.
 */
export class DialogModule {
  private x: Exports;
  private out = { text: "" };
  // How far ahead of now, in µs, the module's realtime clock is: 0 but
  // while a frame is tried for a time to come (try's at).
  private clock: { shiftUs: number };
  private encoder = new TextEncoder();
  private decoder = new TextDecoder();
  /** Why the module stopped working, once it has. */
  broken: string | undefined;

  private constructor(x: Exports, out: { text: string }, clock: { shiftUs: number }) {
    this.x = x;
    this.out = out;
    this.clock = clock;
  }

  /**
   * Compiles and starts the module at path. It never throws and writes
   * nothing anywhere: a module that cannot load resolves with why. mark,
   * when given, is called as each step ends (see LoadStep).
   */
  static async load(path: string, mark?: (step: LoadStep) => void): Promise<DialogModule | { error: string }> {
    try {
      const bytes = await readFile(path);
      mark?.("read");
      const module = await WebAssembly.compile(bytes);
      mark?.("compiled");
      await precompile(module, WARM_SPECS, WARM_KEYS);
      mark?.("precompiled");
      const out = { text: "" };
      const clock = { shiftUs: 0 };
      let memory: WebAssembly.Memory | undefined;
      const instance = await WebAssembly.instantiate(module, {
        wasi_snapshot_preview1: wasiImports(() => memory!, out, clock),
      });
      mark?.("instantiated");
      const x = instance.exports as unknown as Exports;
      for (const f of ["_initialize", "askuser_input", "askuser_output", "askuser_open", "askuser_resize", "askuser_key", "askuser_try", "askuser_adopt", "askuser_close"] as const) {
        if (typeof x[f] !== "function") return { error: `${path} is not askuser's dialog module: it has no ${f}` };
      }
      memory = x.memory;
      // Go's initialization in a turn of Pi's event loop of its own, not
      // in the one that ends the instantiation: the first immediate runs
      // in this turn, the second after the next turn's timers and input.
      await new Promise((r) => setImmediate(() => setImmediate(r)));
      x._initialize();
      mark?.("initialized");
      return new DialogModule(x, out, clock);
    } catch (err) {
      return { error: `the dialog module ${path} could not be loaded: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  /** Makes the dialog spec describes, or undefined when the module cannot. */
  open(spec: MirrorSpec): LocalDialog | undefined {
    const r = this.run(() => this.x.askuser_open(this.put(JSON.stringify(spec)))) as { id?: unknown } | undefined;
    return r && typeof r.id === "number" ? new LocalDialog(this, r.id, spec.deadline ?? 0) : undefined;
  }

  /** @internal */
  resize(id: number, width: number, rows: number): LocalFrame | undefined {
    return frameOf(this.run(() => this.x.askuser_resize(id, width, rows)));
  }

  /** @internal */
  key(id: number, key: Key): LocalFrame | "ended" | undefined {
    const text = "text" in key;
    const r = this.run(() => this.x.askuser_key(id, text ? 1 : 0, this.put(text ? key.text : key.key)));
    if (r && (r as { ended?: unknown }).ended === true) return "ended";
    return frameOf(r);
  }

  /**
   * @internal The frame key would bring, without applying it; undefined
   * when the module will not say. With at (Unix µs), the frame as the
   * countdown shows it then: the module's realtime clock reads at.
   */
  try(id: number, key: Key, at?: number): LocalFrame | undefined {
    const text = "text" in key;
    if (at !== undefined) this.clock.shiftUs = at - nowUs();
    try {
      return frameOf(this.run(() => this.x.askuser_try(id, text ? 1 : 0, this.put(text ? key.text : key.key))));
    } finally {
      this.clock.shiftUs = 0;
    }
  }

  /** @internal Applies a key try drew; false when it drew none. */
  adopt(id: number, key: Key): boolean {
    if (this.broken) return false;
    const text = "text" in key;
    try {
      return this.x.askuser_adopt(id, text ? 1 : 0, this.put(text ? key.text : key.key)) === 1;
    } catch (err) {
      this.broken = `${err instanceof Error ? err.message : String(err)}${this.out.text ? `: ${this.out.text}` : ""}`;
      return false;
    }
  }

  /** @internal */
  close(id: number): void {
    if (this.broken) return;
    try {
      this.x.askuser_close(id);
    } catch (err) {
      this.broken = `${err instanceof Error ? err.message : String(err)}${this.out.text ? `: ${this.out.text}` : ""}`;
    }
  }

  // Writes s into the module's input buffer and returns its length in bytes.
  private put(s: string): number {
    const max = s.length * 3;
    const at = this.x.askuser_input(max);
    const { written } = this.encoder.encodeInto(s, new Uint8Array(this.x.memory.buffer, at, max));
    return written;
  }

  // Runs one operation and parses its answer; undefined, and the module
  // broken, when it throws or answers with an error.
  private run(op: () => number): unknown {
    if (this.broken) return undefined;
    try {
      const n = op();
      const at = this.x.askuser_output();
      const r: unknown = JSON.parse(this.decoder.decode(new Uint8Array(this.x.memory.buffer, at, n)));
      const error = (r as { error?: unknown }).error;
      if (typeof error === "string") return undefined; // an unusable spec or a late key: this dialog only
      return r;
    } catch (err) {
      this.broken = `${err instanceof Error ? err.message : String(err)}${this.out.text ? `: ${this.out.text}` : ""}`;
      return undefined;
    }
  }
}

function frameOf(r: unknown): LocalFrame | undefined {
  if (typeof r !== "object" || r === null) return undefined;
  const f = r as { lines?: unknown; cursor?: unknown };
  if (!Array.isArray(f.lines)) return undefined;
  return f.cursor ? { lines: f.lines as string[], cursor: f.cursor as Cursor } : { lines: f.lines as string[] };
}


// Now on the clock the module reads (wasiImports' realtime), in µs.
// The room, in µs, either side of the countdown's turn of a second where
// a tried frame may show either second (see LocalDialog.unchanged).
const TURN_ROOM_US = 2000;
const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;

// How long, in µs, before the countdown's second turns the frames of
// the next second are tried (see LocalDialog): a key typed in the last
// part of a second has the frames tried for both.
const AHEAD_US = 250_000;

// The frames tried for one second of the countdown (for the whole
// dialog, without one): by key, each with the time it shows, and the
// letter classes' templates, by class.
class Tries {
  frames = new Map<string, { frame: LocalFrame; at: number }>();
  templates = new Map<number, Template>();
  // The next key of the list to try.
  next = 0;
  clear(): void {
    this.frames.clear();
    this.templates.clear();
    this.next = 0;
  }
}

/**
 * One dialog drawn in process.
 *
 * Between keys, while Pi's loop is idle, the dialog draws the frames the
 * likely next keys (TRIED_KEYS) would bring, on copies of itself, one key
 * per turn of the event loop. A key that was tried then costs no call
 * into the module at all: its frame is there, and the module adopts the
 * copy in the background. That is what keeps a key fast at a person's
 * pace, when the module's code and data have gone cold in the CPU's
 * caches between keys. It costs the module's work for these keys once
 * per key typed (about 0.6 to 1.2 ms of CPU at a person's pace), and,
 * while nobody types, once a second while a countdown runs, when the
 * frames show another second (about 0.06 % of a CPU); without a
 * countdown, nothing.
 *
 * The frames show the countdown's second. So that a key just after the
 * second turns finds its frame too, the frames of the next second are
 * tried in the last quarter second before the turn, with the module's
 * clock set to just after it (DialogModule.try's at), and take the
 * place of the old ones at the turn.
 */
export class LocalDialog {
  private m: DialogModule;
  private id: number;
  private closed = false;
  // When the dialog's countdown ends, in Unix µs, or 0 for none.
  private deadline: number;
  // The frames tried since the last key or size for the second shown
  // now, and for the next second; and the second now's are for.
  private now = new Tries();
  private ahead = new Tries();
  private second = 0;
  // Whether both tries are of the frame before the last key or size: the
  // run of tries clears them, so that a key need not (see forget).
  private stale = false;
  // A key answered from tried frames, which the module has not adopted
  // yet; and the frame shown for it when a template drew it, which the
  // module has not drawn.
  private pending: Key | undefined;
  private pendingFrame: LocalFrame | undefined;
  private pendingAt = 0;
  // Whether the letter classes' templates are used: not once a letter
  // drawn from one was not the module's.
  private letters = true;
  // Whether the frame shown has a cursor: a text input has it, and the
  // keys tried are TEXT_TRIED_KEYS.
  private typing = false;
  // The run of tries: whether one is under way, and whether a key or
  // size came since its last step.
  private running = false;
  private again = false;
  // Tries again when the next second's frames are due, or at its turn.
  private timer: ReturnType<typeof setTimeout> | undefined;
  // Holds the run of tries while the countdown's second is about to turn,
  // or has just turned.
  private hold: ReturnType<typeof setTimeout> | undefined;
  /** Called with each frame tried, while Pi is idle: the component measures its lines then. */
  onTried: ((f: LocalFrame) => void) | undefined;
  /**
   * Called, while Pi is idle, with the module's frame for a letter drawn
   * from a template when it is not the frame that was shown: the
   * component shows it instead.
   */
  onCorrected: ((f: LocalFrame) => void) | undefined;

  constructor(m: DialogModule, id: number, deadline = 0) {
    this.m = m;
    this.id = id;
    this.deadline = deadline;
  }

  /** The frame at a new size, or undefined when the module failed. */
  resize(width: number, rows: number): LocalFrame | undefined {
    if (this.closed || !this.settle()) return undefined;
    this.forget();
    const f = this.m.resize(this.id, width, rows);
    if (f) this.drew(f);
    return f;
  }

  /** The frame after a key, "ended" when the key ended the dialog, or undefined when the module failed. */
  key(key: Key): LocalFrame | "ended" | undefined {
    if (this.closed || !this.settle()) return undefined;
    let tried: { frame: LocalFrame; at: number } | undefined;
    let r: typeof tried;
    let ok = false;
    if (!this.stale) {
      const id = keyId(key);
      tried = this.now.frames.get(id);
      r = tried ?? this.letter(key, this.now);
      ok = r !== undefined && this.unchanged(r.at);
      if (!ok && this.pastTurn()) {
        // The second turned, and the run has not swapped its tries yet.
        tried = this.ahead.frames.get(id);
        r = tried ?? this.letter(key, this.ahead);
        ok = r !== undefined && this.unchanged(r.at);
      }
    }
    this.forget();
    if (r && ok) {
      this.pending = key;
      if (!tried) {
        this.pendingFrame = r.frame;
        this.pendingAt = nowUs();
      }
      this.drew(r.frame);
      return r.frame;
    }
    const f = this.m.key(this.id, key);
    if (f !== undefined && f !== "ended") this.drew(f);
    return f;
  }

  // The frame of a typed letter from its class's template in tries, when
  // there is one.
  private letter(key: Key, tries: Tries): { frame: LocalFrame; at: number } | undefined {
    if (!this.letters || !("text" in key)) return undefined;
    const t = tries.templates.get(letterClass(key.text));
    return t && { frame: letterFrame(t, key.text), at: t.at };
  }

  // Notes the frame now shown, and tries the likely next keys.
  private drew(f: LocalFrame): void {
    this.typing = f.cursor !== undefined;
    this.tryLater();
  }

  /** Forgets the dialog. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.forget();
    clearTimeout(this.timer);
    clearTimeout(this.hold);
    this.m.close(this.id);
  }

  // Has the module adopt the key answered from tried frames; false when
  // it could not, and the dialog is of no more use.
  private settle(): boolean {
    const k = this.pending;
    if (k === undefined) return true;
    const shown = this.pendingFrame;
    this.pending = undefined;
    this.pendingFrame = undefined;
    if (shown) {
      // A letter drawn from a template: the module draws it now.
      const f = this.m.key(this.id, k);
      if (f === undefined || f === "ended") {
        this.closed = true;
        this.m.close(this.id);
        return false;
      }
      if (!sameFrame(f, shown)) {
        // Not the countdown's second turning since the key: the template
        // was wrong, and no letter is drawn from one again.
        if (this.unchanged(this.pendingAt)) this.letters = false;
        this.onCorrected?.(f);
      }
      return true;
    }
    if (this.m.adopt(this.id, k)) return true;
    this.closed = true; // the copy and the frame shown would differ
    this.m.close(this.id);
    return false;
  }

  // Forgets the frames tried, as a key or size makes them stale. A key
  // only marks them so: it comes with this code cold in the CPU's caches,
  // and the run of tries after it clears them (fresh) and the timer it
  // may have left (retryLater).
  private forget(): void {
    this.stale = true;
    this.second = this.secondAt(nowUs());
  }

  private fresh(): void {
    if (!this.stale) return;
    this.stale = false;
    this.now.clear();
    this.ahead.clear();
  }

  // The second the countdown shows at the time t (Unix µs): whole
  // seconds left, rounded up; 0 without a countdown.
  private secondAt(t: number): number {
    return this.deadline > 0 ? Math.ceil((this.deadline - t) / 1e6) : 0;
  }

  // Whether the countdown, which a frame shows in whole seconds rounded
  // up, shows the same second now as at the time at, with a little room
  // either side for the module's own reading of the clock.
  private unchanged(at: number): boolean {
    if (this.deadline <= 0) return true;
    return this.secondAt(at - TURN_ROOM_US) === this.secondAt(nowUs() + TURN_ROOM_US);
  }

  // Whether the second the tries now are for has turned, and by more
  // than the room after the turn.
  private pastTurn(): boolean {
    return this.deadline > 0 && this.secondAt(nowUs() - TURN_ROOM_US) < this.second;
  }

  // The time the next second's frames are tried for: just past the room
  // after its turn; undefined when they are not due yet, or there is no
  // next second to show.
  private aheadAt(): number | undefined {
    if (this.deadline <= 0 || this.second < 2) return undefined;
    const turn = this.deadline - (this.second - 1) * 1e6;
    if (turn - nowUs() > AHEAD_US) return undefined;
    return turn + TURN_ROOM_US + 1000;
  }

  // At the turn of the second, the next second's tries take the place of
  // the old ones; the run then tries what they lack.
  private swap(): void {
    if (!this.pastTurn()) return;
    const was = this.second;
    this.second = this.secondAt(nowUs());
    const old = this.now;
    old.clear();
    if (this.second === was - 1) {
      this.now = this.ahead;
      this.ahead = old;
      this.now.next = 0;
    } else {
      this.ahead.clear();
    }
  }

  // How many ms from now a try would draw a frame that unchanged accepts
  // later in its second: 0 but within the room either side of the
  // countdown's turn, where a frame tried would be refused for the whole
  // of the next second.
  private unsettledMs(): number {
    const left = this.deadline - nowUs();
    if (this.deadline <= 0 || left <= 0) return 0;
    const toTurn = left % 1e6;
    const sinceTurn = 1e6 - toTurn;
    if (toTurn < TURN_ROOM_US) return (toTurn + TURN_ROOM_US) / 1000 + 1;
    if (sinceTurn < TURN_ROOM_US) return (TURN_ROOM_US - sinceTurn) / 1000 + 1;
    return 0;
  }

  // Tries the likely keys, one per turn of the event loop, from the turn
  // after next: Pi renders the frame and the child gets the key first.
  // One run at a time: a key or size while it runs starts it over.
  private tryLater(): void {
    this.again = this.running;
    if (this.running) return;
    this.running = true;
    setImmediate(this.stepNext);
  }

  private stepNext = (): void => void setImmediate(this.step);

  private step = (): void => {
    if (this.closed) return void (this.running = false);
    if (this.again) {
      this.again = false;
      return void setImmediate(this.stepNext);
    }
    if (!this.settle()) return void (this.running = false);
    // A timer may fire a millisecond or two early (Node counts from the
    // time its loop last read the clock), so this is checked at each step.
    const wait = this.unsettledMs();
    if (wait > 0) {
      this.hold = setTimeout(() => {
        this.hold = undefined;
        this.step();
      }, wait);
      this.hold.unref?.();
      return;
    }
    this.fresh();
    this.swap();
    const keys = this.typing ? TEXT_TRIED_KEYS : TRIED_KEYS;
    // The keys the second shown now lacks, then the next second's.
    const now = this.now;
    while (now.next < keys.length && now.frames.has(keyId(keys[now.next]!))) now.next++;
    const at = now.next < keys.length ? undefined : this.aheadAt();
    const tries = at === undefined ? now : this.ahead;
    if (tries.next >= keys.length) {
      this.running = false;
      return this.retryLater();
    }
    const k = keys[tries.next++]!;
    const t = at ?? nowUs();
    const f = this.m.try(this.id, k, at);
    if (f) {
      this.onTried?.(f);
      tries.frames.set(keyId(k), { frame: f, at: t });
      if (this.letters && "text" in k) this.template(tries, k.text);
    }
    setImmediate(this.step);
  };

  // Makes the template of the class whose second probe was just tried,
  // from the two probes' frames, when they make one.
  private template(tries: Tries, probe: string): void {
    const c = LETTER_CLASSES.findIndex((c) => c.probes[1] === probe);
    if (c < 0) return;
    const [p, q] = LETTER_CLASSES[c]!.probes;
    const a = tries.frames.get(keyId({ text: p }));
    const b = tries.frames.get(keyId({ text: q }));
    const t = a && b ? templateOf(a.frame, b.frame, [p, q], a.at) : undefined;
    if (t) tries.templates.set(c, t);
  }

  // The frames tried show the countdown's second: the next second's are
  // tried a little before it turns, and take the old ones' place at the
  // turn. This is the only work done while nobody types, once a second
  // while the countdown runs, when the child's own frame for the second
  // wakes Pi anyway.
  private retryLater(): void {
    if (this.deadline <= 0 || this.second < 2) return;
    const turn = this.deadline - (this.second - 1) * 1e6;
    const due = this.ahead.next === 0 ? turn - AHEAD_US : turn + TURN_ROOM_US;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tryLater(), Math.max(due - nowUs(), 0) / 1000 + 1);
    this.timer.unref?.();
  }
}

// The dialogs and keys of the warm-up: V8 compiles a module's functions
// when they first run, so a module that has not drawn yet would make the
// session's first keys slow.
const WARM_SPECS: MirrorSpec[] = [
  {
    dialog: "ask_user",
    overlay: true,
    toggleKey: "alt+o",
    title: "ask_user",
    deadline: 1,
    request: {
      header: "Warm-up",
      questions: [
        { title: "Where?", kind: "single", options: [{ label: "a", description: "first" }, { label: "b" }, { label: "c" }] },
        { title: "Which?", kind: "multi", options: [{ label: "x" }, { label: "y", preview: "# Title\n\n- item `code` **bold**\n\n```\nblock\n```" }] },
        { title: "Name?", kind: "input" },
        { title: "Sure?", kind: "bool" },
      ],
    },
  },
  {
    dialog: "questions",
    deadline: 1,
    request: {
      questions: [
        {
          id: "q1",
          question: "Which layout?",
          header: "Layout",
          multiSelect: false,
          options: [
            { id: "o1", label: "grid", description: "a grid", preview: "# Grid\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quote" },
            { id: "o2", label: "list", description: "a list", preview: "- one\n- two" },
          ],
        },
        {
          id: "q2",
          question: "Which parts?",
          header: "Parts",
          multiSelect: true,
          options: [
            { id: "o3", label: "p", description: "q" },
            { id: "o4", label: "r", description: "s" },
          ],
        },
      ],
    },
  },
];
const WARM_KEYS: Key[] = [
  ..."down down up down space tab down tab right left down up tab shift+tab end home pageDown pageUp".split(" ").map((key) => ({ key })),
  { text: "a" },
  { text: "bc" },
  { key: "backspace" },
  { key: "left" },
  { key: "tab" },
  { text: "z" },
  { key: "shift+tab" },
];

// Runs the warm-up one step per event-loop turn (an open, a size, a
// key), so that Pi's loop is never held for long: a function precompile
// did not compile is compiled as it first runs, on this thread.
async function warm(m: DialogModule): Promise<void> {
  const turn = () => new Promise((r) => setImmediate(r));
  for (let round = 0; round < 3; round++) {
    for (const spec of WARM_SPECS) {
      for (const [width, rows] of [[80, 24], [100, 30], [200, 50]] as const) {
        await turn();
        const d = m.open({ ...spec, deadline: (Date.now() + 600_000) * 1000 });
        if (!d) return;
        await turn();
        d.resize(width, rows);
        for (const k of WARM_KEYS) {
          await turn();
          d.key(k);
        }
        // The keys tried between a person's keys (in a text input the
        // longer list), and one that was tried.
        for (let i = 0; i < TEXT_TRIED_KEYS.length + 2; i++) await turn();
        d.key(TRIED_KEYS[round % TRIED_KEYS.length]!);
        for (let i = 0; i < 3; i++) await turn();
        d.close();
      }
    }
  }
  // The component's own key path over the module, as a person's first
  // dialog runs it. Should that fail, the module still draws.
  for (const spec of WARM_SPECS) {
    const d = m.open({ ...spec, deadline: (Date.now() + 600_000) * 1000 });
    if (!d) return;
    await warmView(d, 100, 30, VIEW_KEYS).catch(() => d.close());
  }
}

// Raw keys for warmView: mostly moves, through every question.
const VIEW_KEYS: readonly string[] = Array.from({ length: 40 }, () => ["\x1b[B", "\x1b[B", "\x1b[A", " ", "\x1b[B", "\x1b[A", "\t", "\x1b[B", "x", "\x1b[A", "\x7f", "\x1b[Z", "\x1b[C", "\x1b[D", "\t"]).flat();

const loaded = new Map<string, Promise<DialogModule | undefined>>();

/**
 * The process's dialog module at path (the package's bin folder unless
 * given), loaded once, in the background, and warmed up; undefined when
 * there is none or it cannot load. mark, when given, is called as each
 * step of the first load ends (the bench times them).
 */
export function dialogModule(path = findDialogModule(), mark?: (step: LoadStep) => void): Promise<DialogModule | undefined> {
  if (!path) return Promise.resolve(undefined);
  let p = loaded.get(path);
  if (!p) {
    p = DialogModule.load(path, mark).then(async (m) => {
      if (!(m instanceof DialogModule)) return undefined;
      await warm(m);
      mark?.("warmed");
      return m.broken ? undefined : m;
    });
    loaded.set(path, p);
  }
  return p;
}
