// The askuser child process and the JSON-lines protocol of
// internal/host/pibridge/PROTOCOL.md. Nothing here decides anything: it moves messages.

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readSync, writeSync } from "node:fs";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { StringDecoder } from "node:string_decoder";
import { type CallMessage, type Dead, type Fatal, type FromChild, type Hello, parseMessage, type Ready, type ToChild, type ToolResult } from "./protocol.ts";

export const PROTOCOL_VERSION = 1;

/** What a call hears from the child before its result. */
export interface CallHandlers {
  onMessage(msg: CallMessage): void;
}

/** The end of one call: the result and the text for the model. */
export interface CallEnd {
  result: ToolResult;
  text: string;
  /** The child asks Pi to end the agent's turn after the tool. */
  terminate?: boolean;
}

interface Pending {
  handlers: CallHandlers;
  resolve(end: CallEnd | undefined): void;
}

/** Why a child is gone, for an error message. */
export interface Death {
  code: number | null;
  signal: string | null;
  error?: string;
  /** The child's fatal line: it cannot serve this package at all. */
  fatal?: string;
  stderr: string;
}

let nextCall = 0;

/**
 * How long exchange waits for the child's answer before it leaves the
 * answer to the event loop. The child answers a key in tens of
 * microseconds; this bounds how long a stuck child can hold Pi.
 */
export const EXCHANGE_WAIT_MS = 10;

/**
 * The wait of the children made from now on, EXCHANGE_WAIT_MS unless
 * changed: tests that check that a key's frame comes back synchronously
 * set it long, so that a busy machine cannot fail them.
 */
export const exchangeDefaults = { waitMs: EXCHANGE_WAIT_MS };

/**
 * How long exchange spins on its reads before it naps between them: 50 µs
 * with more than one CPU, and not at all with one. A warm child answers a
 * key within the spin. One woken after a person's pause (keys 50 to 500 ms
 * apart) takes longer, and the scheduler often queues it on exchange's
 * own CPU, the other being busy or asleep: spinning on then makes the
 * child wait for the rest of exchange's time slice, milliseconds, where a
 * nap gives it the CPU at once. On one CPU that is always so.
 */
export const EXCHANGE_SPIN_MS = availableParallelism() > 1 ? 0.05 : 0;

// exchange naps on this cell, which nothing ever wakes: Atomics.wait is
// the one sleep Node has that blocks the thread for a given time. The
// kernel's timer slack makes a nap last about 60 µs or more, however
// short it is asked to be.
const napCell = new Int32Array(new SharedArrayBuffer(4));
const NAP_MS = 0.001;

/** The types of message that answer a key: its frame, or the component's end. */
/** How long a child's output is read after it exits, at most. */
const EXIT_GRACE_MS = 250;

const ANSWERS: ReadonlySet<string> = new Set<FromChild["type"]>(["frame", "close", "result"]);

/**
 * The longest line the child may write, in characters. Its frames are a
 * few hundred kilobytes at the largest terminal it draws on.
 */
export const MAX_LINE = 64 << 20;

/**
 * The times of one exchange, from performance.now(), in milliseconds: for
 * measuring where a key's round trip goes (make pi-bench). Only an
 * exchange that got its answer synchronously is reported.
 */
export interface ExchangeTimes {
  /** exchange was called. */
  start: number;
  /** The key's line was encoded and written to the child. */
  written: number;
  /** The first read that returned any of the child's output. */
  read: number;
  /** The answer was read and handled: the component has its new frame. */
  answered: number;
  /** Reads that found nothing yet. */
  emptyReads: number;
  /** Naps between them, after the spin. */
  naps: number;
}

/** A fresh call id, unique in this process. */
export function newCallId(prefix = "c"): string {
  nextCall++;
  return `${prefix}${nextCall}`;
}

/**
 * One `askuser bridge` child. It is spawned at once and never blocks: the
 * hello is written right away and `ready` settles when the child answers.
 */
export class Child {
  readonly ready: Promise<Ready | Dead>;
  dead: Death | undefined;
  readyMsg: Ready | undefined;
  /** Receives the child's notices for the user, such as a failed notify command. */
  onNotice: ((message: string) => void) | undefined;
  private proc: ChildProcess;
  private buf = "";
  private stderr = "";
  private pending = new Map<string, Pending>();
  private waiters = new Map<string, (msg: FromChild | Dead) => void>();
  private resolveReady!: (m: Ready | Dead) => void;
  private refs = 0;
  private fatal: string | undefined;
  private readonly maxLine: number;
  // Both readers, the event loop's and exchange's, decode through this
  // one decoder, so that a character split between their reads survives.
  private decoder = new StringDecoder("utf8");
  private scratch: Buffer | undefined;
  private awaiting: string | undefined; // the call exchange waits on
  private answered = false;
  private awaited = 0; // the frames exchange still waits for
  private readonly exchangeWaitMs: number;
  private readonly exchangeSpinMs: number;
  /** When set, receives the times of every exchange answered synchronously. */
  onExchange: ((t: ExchangeTimes) => void) | undefined;
  /**
   * When set, hears every message that answers a key or a size, before it
   * is handled: a frame the countdown did not send, the component's close,
   * a call's result. make pi-bench knows by it that a key was answered.
   */
  onAnswer: ((call: string, type: "frame" | "close" | "result") => void) | undefined;

  /**
   * maxLine is the longest line the child may write, MAX_LINE unless set;
   * exchangeWaitMs is how long exchange waits for an answer, and
   * exchangeSpinMs how long of that it spins before it naps.
   */
  constructor(
    binary: string,
    hello: Hello,
    maxLine = MAX_LINE,
    exchangeWaitMs = exchangeDefaults.waitMs,
    exchangeSpinMs = EXCHANGE_SPIN_MS,
  ) {
    this.maxLine = maxLine;
    this.exchangeWaitMs = exchangeWaitMs;
    this.exchangeSpinMs = exchangeSpinMs;
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.proc = spawn(binary, ["bridge"], { stdio: ["pipe", "pipe", "pipe"] });
    this.proc.stdout!.on("data", (chunk: Buffer) => this.read(this.decoder.write(chunk)));
    this.proc.stderr!.setEncoding("utf8");
    this.proc.stderr!.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2000);
    });
    this.proc.stdin!.on("error", () => {}); // a dead child shows in "exit"
    this.proc.on("error", (err) => this.die({ code: null, signal: null, error: spawnError(binary, err), stderr: this.stderr }));
    // "exit" can come before the last of the child's output is read: what
    // it wrote just before it died (an event, a result) is read first,
    // within a short grace, so that a grandchild holding the pipe open
    // cannot delay the death.
    this.proc.on("exit", (code, signal) => {
      const out = this.proc.stdout!;
      const die = () => this.die({ code, signal, stderr: this.stderr });
      if (out.readableEnded || out.destroyed) return die();
      const grace = setTimeout(die, EXIT_GRACE_MS);
      out.once("end", () => {
        clearTimeout(grace);
        die();
      });
    });
    this.unref();
    this.send(hello);
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** Writes one message. Writing to a dead child does nothing. */
  send(msg: ToChild): void {
    if (this.dead) return;
    this.proc.stdin!.write(JSON.stringify(msg) + "\n");
  }

  /**
   * Sends msg, a message the child answers for call with a frame (a key),
   * and reads the child's output at once, synchronously, until that
   * answer or the component's close or the call's result is handled
   * (answers, when keys or sizes sent before msg are still unanswered, is
   * how many frames that takes, msg's own the last; a countdown's tick
   * answers nothing):
   * render(width) then already has the new frame, with no trip through
   * the event loop. Every message read on the way is handled as the event
   * loop would have handled it, in order.
   *
   * It writes and reads the pipes' descriptors directly, and so only
   * when nothing is queued on either stream, and where Node exposes the
   * descriptors (not on Windows); otherwise, and when the child has not
   * answered within its wait (EXCHANGE_WAIT_MS unless the constructor
   * was given another), it leaves the answer to the event
   * loop, as send does. It returns whether the answer was handled.
   * After its spin (EXCHANGE_SPIN_MS unless the constructor was given
   * another) it naps between reads, so that a child waiting for this CPU
   * gets it.
   */
  exchange(msg: ToChild, call: string, answers = 1): boolean {
    if (this.dead) return false;
    const stdin = this.proc.stdin!;
    const stdout = this.proc.stdout!;
    const inFd = descriptor(stdin);
    const outFd = descriptor(stdout);
    if (inFd === undefined || outFd === undefined || stdin.writableLength > 0 || stdout.readableLength > 0) {
      this.send(msg);
      return false;
    }
    const trace = this.onExchange;
    const start = trace ? performance.now() : 0;
    const line = Buffer.from(JSON.stringify(msg) + "\n");
    let written: number;
    try {
      written = writeSync(inFd, line);
    } catch {
      written = 0; // the pipe is full (EAGAIN) or broken: the stream deals with it
    }
    if (written < line.length) {
      stdin.write(line.subarray(written));
      return false;
    }
    this.awaiting = call;
    this.answered = false;
    this.awaited = answers;
    const scratch = (this.scratch ??= Buffer.allocUnsafe(64 << 10));
    const sent = performance.now();
    const deadline = sent + this.exchangeWaitMs;
    let read = 0;
    let emptyReads = 0;
    let naps = 0;
    const limit = Error.stackTraceLimit;
    try {
      while (!this.answered && !this.dead) {
        let n: number;
        // Each empty read throws; without a stack trace that costs a
        // third less. The limit is back before any other code runs.
        Error.stackTraceLimit = 0;
        try {
          n = readSync(outFd, scratch, 0, scratch.length, null);
        } catch (err) {
          const now = performance.now();
          if ((err as NodeJS.ErrnoException).code === "EAGAIN" && now < deadline) {
            emptyReads++;
            if (now - sent >= this.exchangeSpinMs) {
              Atomics.wait(napCell, 0, 0, NAP_MS);
              naps++;
            }
            continue;
          }
          return false; // nothing yet, or an error the stream reports
        } finally {
          Error.stackTraceLimit = limit;
        }
        if (n === 0) return false; // the end: the stream sees it too
        if (trace && read === 0) read = performance.now();
        this.read(this.decoder.write(scratch.subarray(0, n)));
      }
      if (trace && this.answered) trace({ start, written: sent, read, answered: performance.now(), emptyReads, naps });
      return this.answered;
    } finally {
      this.awaiting = undefined;
    }
  }

  /**
   * Runs one call: sends `ask` (or another message that ends in a result),
   * passes every message for it to handlers, and resolves with its result,
   * or undefined when the child died first.
   */
  call(call: string, msg: ToChild, handlers: CallHandlers): Promise<CallEnd | undefined> {
    if (this.dead) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.ref();
      this.pending.set(call, {
        handlers,
        resolve: (end) => {
          this.unrefSoon();
          resolve(end);
        },
      });
      this.send(msg);
    });
  }

  /**
   * Sends msg and resolves with the first reply of type `reply` for call,
   * or undefined when the child is dead or dies first.
   */
  request<T extends FromChild["type"]>(call: string, msg: ToChild, reply: T): Promise<Extract<FromChild, { type: T }> | undefined> {
    if (this.dead) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.ref();
      this.waiters.set(`${reply}:${call}`, (m) => {
        this.unrefSoon();
        resolve(m.type === reply ? (m as Extract<FromChild, { type: T }>) : undefined);
      });
      this.send(msg);
    });
  }

  /** Ends the child: closes its stdin, and kills it if it lingers. Idempotent. */
  close(): void {
    if (this.dead) return;
    this.proc.stdin!.end();
    const t = setTimeout(() => this.proc.kill("SIGKILL"), 2000);
    t.unref();
  }

  /** Kills the child at once (tests use it to simulate a crash). */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.proc.kill(signal);
  }

  private read(chunk: string): void {
    let from = this.buf.length; // no newline before this: it was searched
    this.buf += chunk;
    let nl: number;
    while ((nl = this.buf.indexOf("\n", from)) >= 0) {
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
      from = 0;
      if (line.length === 0) continue;
      const msg = parseMessage(line);
      if (msg) this.dispatch(msg);
    }
    if (this.buf.length > this.maxLine) {
      // A child that writes this much without a newline is broken: it
      // is ended, and every call waiting on it gets its death.
      this.fatal ??= `the askuser child wrote a line of over ${this.maxLine} characters; it was stopped`;
      this.buf = "";
      this.proc.kill("SIGKILL");
    }
  }

  private dispatch(msg: FromChild): void {
    switch (msg.type) {
      case "ready":
        this.readyMsg = msg;
        this.resolveReady(msg);
        return;
      case "fatal":
        this.fatal = msg.message;
        return;
      case "notice":
        this.onNotice?.(msg.message);
        return;
      case "error":
        return; // error lines are for people: they are on stderr too
    }
    // A key's or size's frame, the close or the result; not a tick.
    const answer = ANSWERS.has(msg.type) && !(msg.type === "frame" && msg.tick === true);
    if (answer && msg.call === this.awaiting && --this.awaited <= 0) this.answered = true;
    if (answer && this.onAnswer) this.onAnswer(msg.call, msg.type as "frame" | "close" | "result");
    const waiter = this.waiters.get(`${msg.type}:${msg.call}`);
    if (waiter) {
      this.waiters.delete(`${msg.type}:${msg.call}`);
      waiter(msg);
      return;
    }
    const p = this.pending.get(msg.call);
    if (!p) return;
    switch (msg.type) {
      case "result":
        this.pending.delete(msg.call);
        p.resolve({ result: msg.result, text: msg.text, ...(msg.terminate === true ? { terminate: true } : {}) });
        return;
      case "explained":
        return; // only a request waits for one
      default:
        p.handlers.onMessage(msg);
    }
  }

  private die(d: Death): void {
    if (this.dead) return;
    this.dead = this.fatal ? { ...d, fatal: this.fatal } : d;
    this.resolveReady({ type: "dead" });
    for (const p of this.pending.values()) p.resolve(undefined);
    this.pending.clear();
    for (const w of this.waiters.values()) w({ type: "dead" });
    this.waiters.clear();
  }

  // The child must not keep Pi alive on its own, but it must while a call
  // waits on it (print mode has nothing else holding the event loop).
  private ref(): void {
    if (this.refs++ === 0) this.setRef(true);
  }

  private unrefSoon(): void {
    if (--this.refs === 0) this.setRef(false);
  }

  private unref(): void {
    this.setRef(false);
  }

  private setRef(on: boolean): void {
    const items = [this.proc, this.proc.stdout, this.proc.stderr, this.proc.stdin] as unknown as {
      ref?(): void;
      unref?(): void;
    }[];
    for (const it of items) (on ? it?.ref : it?.unref)?.call(it);
  }
}

/**
 * The file descriptor under a child's pipe stream, where Node has one.
 * `_handle.fd` is not a documented API: anything but a descriptor means
 * exchange cannot use it.
 */
function descriptor(stream: unknown): number | undefined {
  const fd = (stream as { _handle?: { fd?: unknown } } | null)?._handle?.fd;
  return typeof fd === "number" && Number.isInteger(fd) && fd >= 0 ? fd : undefined;
}

/**
 * Asks a short-lived child for the ready report of hello, synchronously,
 * for APIs that must answer at once. Returns undefined when the child
 * cannot run.
 */
export function probe(binary: string, hello: Hello): Ready | Fatal | Dead | undefined {
  const out = spawnSync(binary, ["bridge"], { input: JSON.stringify(hello) + "\n", encoding: "utf8", timeout: 5000 });
  if (out.error) return { type: "dead", error: spawnError(binary, out.error) };
  if (typeof out.stdout !== "string") return undefined;
  for (const line of out.stdout.split("\n")) {
    const msg = parseMessage(line);
    if (msg?.type === "ready" || msg?.type === "fatal") return msg;
  }
  return undefined;
}

/**
 * Says why binary could not be run, in words for the person who must fix
 * it; the system's code stays at the end.
 */
export function spawnError(binary: string, err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case "EACCES":
      return `${binary} is not executable (${code}): give it the exec bit (chmod +x), or reinstall the package`;
    case "ENOEXEC":
      return `${binary} is not a program for this platform (${process.platform}-${process.arch}, ${code}): reinstall the package, or install the binary built for this platform`;
    case "ENOENT":
      return `${binary} is gone (${code})`;
    default:
      return err.message;
  }
}

/** Whether a child's death means its binary can never serve this package. */
export function isPermanent(d: Death): boolean {
  return d.fatal !== undefined || /\((EACCES|ENOEXEC|ENOENT)[,)]/.test(d.error ?? "");
}

/** Describes a dead child for a person. */
export function describeDeath(d: Death): string {
  if (d.fatal) return `the askuser binary refused this package: ${d.fatal}`;
  const how = d.error
    ? `could not run: ${d.error}`
    : d.signal
      ? `was killed by ${d.signal}`
      : `exited with status ${d.code}`;
  const tail = d.stderr.trim().split("\n").slice(-3).join(" | ");
  return `the askuser bridge process ${how}${tail ? `: ${tail}` : ""}`;
}
