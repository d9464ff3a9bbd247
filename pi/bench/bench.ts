// Figures for the Pi package, printed as a table. Run with `make pi-bench`,
// or `make pi-bench BENCH="key call"` for some sections only (key, first,
// pace, typed, shapes, call, screen, child, session, startup).
//
// The key figures stand beside the same figures for the peer extension
// rpiv-ask-user-question 2.11.0, installed from the npm registry into
// bench/peer (make pi-bench-peer) and run in the same Node, with how many
// times faster askuser is: printed, not asserted.
//
//   key to frame      a key given to the component's handleInput until the
//                     new frame is rendered: keyMessage, the pipe to the
//                     child, the dialog, the pipe back, render(width). Beside
//                     it the floor: the same pipe round trip to cat, which
//                     does no work, synchronous as the shim's and through
//                     the event loop. Measured back to back after a
//                     warm-up, with the parts of a key's time as the
//                     shim's exchange reports them.
//   first keys        the same for a session's first 1000 keys, in a fresh
//                     Node each, while V8 still compiles the hot code.
//   keys at pace      the same with the keys 50, 100 and 500 ms apart, as
//                     a person's are, after the same warm-up, each contender
//                     alone in a Node of its own, taking turns; askuser with
//                     its frames drawn by the child, and in process by its
//                     dialog compiled to WebAssembly (bin/askuser-dialog.wasm).
//                     Both draw the likely next keys' frames between keys:
//                     the module in process (src/wasm.ts, LocalDialog), the
//                     child on its side, sending them ahead (the protocol's
//                     try); a key's frame drawn ahead is timed to its
//                     render, as the module's are. The first keys come back
//                     to back, with no turn of the event loop between them:
//                     no key is tried there, and each is drawn as it comes.
//   typed keys        keys as far apart, typed into a text field: letters,
//                     Backspace, a word deleted, the cursor moved inside the
//                     text, Tab between two fields; the peer typing into its
//                     "Type something." row. Beside them the keys that draw
//                     a frame without typing: Enter on the review page with
//                     a question unanswered, Alt+Q stopping the countdown,
//                     and, in AskUserQuestion's dialog, Esc leaving the
//                     Other input and the first Esc on a question, which
//                     asks before it dismisses, each in a dialog opened
//                     again for Alt+Q. The peer's closest keys: Esc closing
//                     its notes editor, and Enter confirming an option,
//                     which goes to its next question (its Enter on the
//                     Submit tab submits); it has no countdown. A key's own
//                     answer ends its wait, never a countdown's tick; a key
//                     that draws nothing new is not counted; a route that
//                     does not answer a key within 5 s fails the bench.
//                     The keys that only bring the dialog where a timed key
//                     is come 30 ms after the key before, the timed key the
//                     whole gap after them. At each pace, over two rounds,
//                     Tab, Enter, Alt+Q and both Esc have 60 keys each,
//                     letters and cursor moves 48, Backspace and a word
//                     deleted 18, in about 15 minutes. Flags focus a run
//                     on some cells:
//                     --gaps=500, --kinds=tab,escAsk, --who=wasm,rpiv,
//                     --rounds, --tabs, --review, --esc and --altq; and
//                     --trace times the parts of each in-process key, how
//                     its frame came (tried ahead, a letter's template, or
//                     drawn by the module on the key), V8's collections,
//                     preemption and page faults during it, and prints
//                     the slow keys.
//   shapes            keys 100 ms apart at 80, 100 and 200 columns, without
//                     and with Markdown previews.
//   call to frame     ask() on a host whose child is running, until the
//                     first rendered frame with the question; and in real
//                     Pi's TUI, from the tool call's start to the dialog
//                     on the terminal.
//   child ready, RSS  spawn of `askuser bridge` until its ready line, and
//                     its resident memory then and after a dialog.
//   Pi startup        real Pi 1.6 in print mode with a scripted model that
//                     answers at once, with and without the package, and
//                     the package's import and factory as Pi times them.
//   session_start     the time the package's session_start handler takes.
//   cost              what each contender costs Pi's own thread and memory,
//                     in a Node of its own: the longest stall of the event
//                     loop (a 1 ms timer's longest gap, and
//                     monitorEventLoopDelay at 1 ms) while it loads, by
//                     step (for askuser's module: read, compile, instantiate,
//                     Go's initialization, warm-up), in its first dialog,
//                     a resize to 200 columns and a dialog with previews at
//                     200 columns; the resident memory it adds, loaded and
//                     with a dialog open; and its size as shipped.
//
// The fake Pi context is the unit tests'; everything else is real.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance, PerformanceObserver } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { getKeybindings } from "@earendil-works/pi-tui";
import { initTheme } from "@earendil-works/pi-coding-agent";
import { createJiti } from "jiti";
import { createAskUser, registerAskUser } from "../index.ts";
import type { Child, ExchangeTimes } from "../src/child.ts";
import { AskUserHost, RELEASE } from "../src/host.ts";
import { DialogModule, dialogModule, LocalDialog, type Key, type LoadStep } from "../src/wasm.ts";
import { nodeBin, piArgs, pkgDir, prepare, Tui } from "../e2e/harness.ts";
import { binary, fakeCtx, fakePi, noConfig, until } from "../test/fake.ts";

const quick = process.argv.includes("--quick");
// With --detail, cost also says what askuser's resident memory is
// (memoryParts).
const detail = process.argv.includes("--detail");
// --NAME=VALUE on the command line, or undefined.
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const list = (name: string) => flag(name)?.split(",");
// The typed keys' focus, for iterating on a few cells: --gaps=500,
// --kinds=tab,escAsk, --who=wasm,rpiv pick paces, kinds and contenders;
// --rounds, --tabs, --review, --esc and --altq set how many; --trace
// times the parts of each in-process key and prints the slow ones.
const pickedGaps = list("gaps")?.map(Number);
const pickedKinds = list("kinds") as TypedKind[] | undefined;
const pickedWho = list("who") as Contender[] | undefined;
const tracing = process.argv.includes("--trace");
// Keys given to a fresh dialog before its steady figures are taken: V8
// compiles the shim's hot code during about the first thousand.
const warmup = quick ? 1000 : 4000;
const question = {
  questions: [{ title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }, { label: "canary" }] }],
};

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const median = (xs: number[]) => pct(xs, 50);
const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const rows: [string, string, string, string, string][] = [];
// Tables printed after the rows, whole (the typed keys').
const tables: string[] = [];
const row = (what: string, value: string, budget = "", peer = "", ratio = "") => {
  rows.push([what, value, peer, ratio, budget]);
  console.error(`${what}: ${value}${peer ? ` (rpiv ${peer})` : ""}`);
};

// The pipe alone, measured as exchange does it: a key-sized line written
// to `cat` with writeSync, and read back, frame-sized, by spinning on
// readSync, or through the event loop. cat answers with no work at all,
// so this is the floor under the bridge's round trip on this machine.
class PipeFloor {
  private proc = spawn("cat", [], { stdio: ["pipe", "pipe", "inherit"] });
  private inFd = (this.proc.stdin as unknown as { _handle: { fd: number } })._handle.fd;
  private outFd = (this.proc.stdout as unknown as { _handle: { fd: number } })._handle.fd;
  private buf = Buffer.alloc(64 << 10);
  private waiting: (() => void) | undefined;
  private got = 0;
  private async = false;
  private line: Buffer;
  constructor(line: Buffer) {
    this.line = line;
    this.proc.stdout!.on("data", (d: Buffer) => {
      if (!this.async) throw new Error("the floor's cat wrote while nobody waited");
      this.got += d.length;
      if (this.got >= this.line.length) this.waiting?.();
    });
  }
  sync(): void {
    writeSync(this.inFd, this.line);
    for (let got = 0; got < this.line.length; ) {
      try {
        got += readSync(this.outFd, this.buf, 0, this.buf.length, null);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      }
    }
  }
  viaLoop(): Promise<void> {
    this.async = true;
    this.got = 0;
    return new Promise((resolve) => {
      this.waiting = () => {
        this.async = false;
        resolve();
      };
      this.proc.stdin!.write(this.line);
    });
  }
  close(): void {
    this.proc.stdin!.end();
  }
}

// A dialog on a fake Pi at 100 columns, for one contender: askuser's
// package, or the peer extension rpiv-ask-user-question (bench/peer, from
// the npm registry) in the same Node. key(i) gives it a down or an up key
// and resolves with the time until the key's frame is rendered: Pi renders
// after handleInput, and askuser's frame is there by then unless its
// child was slow, when the render waits for the frame's requestRender.
// close dismisses the dialog and waits for the call's end.
interface Dialog {
  key(i: number): Promise<number>;
  press(data: string): Promise<number | undefined>;
  screen(width?: number): string[];
  close(): Promise<void>;
  // askuser's only: dismisses the dialog and opens the same one again
  // on the same host.
  reopen(): Promise<void>;
}

// askuser draws a key's frame in its child ("askuser"), or in process
// with its dialog compiled to WebAssembly ("wasm", bin/askuser-dialog.wasm).
type Contender = "askuser" | "wasm" | "rpiv";
const contenders: Contender[] = ["askuser", "wasm", "rpiv"];
const wasmPath = new URL("../bin/askuser-dialog.wasm", import.meta.url).pathname;
const peerEntry = new URL("./peer/node_modules/@juicesharp/rpiv-ask-user-question/index.ts", import.meta.url).pathname;
// The peer's own shape of the same question: it needs a header and a
// description for every option.
const peerQuestion = {
  questions: [
    {
      question: "Deploy where?",
      header: "Deploy",
      options: [
        { label: "staging", description: "the staging cluster" },
        { label: "prod", description: "production" },
        { label: "canary", description: "a canary" },
      ],
    },
  ],
};
// Pi's theme colours as SGR sequences, for the peer, which draws with them.
const sgr = (on: string, off: string) => (t: string) => `\x1b[${on}m${t}\x1b[${off}m`;
const peerTheme = {
  fg: (_c: string, t: string) => sgr("38;5;39", "39")(t),
  bg: (_c: string, t: string) => sgr("48;5;236", "49")(t),
  bold: sgr("1", "22"),
  italic: sgr("3", "23"),
  underline: sgr("4", "24"),
  inverse: sgr("7", "27"),
  strikethrough: sgr("9", "29"),
};

// The same question with a Markdown preview for each option, in both
// shapes: Pi's previews go beside the options from 100 columns.
const preview = (what: string) => `## ${what}\n\nDeploys **${what}** from \`main\`:\n\n- build the image\n- run the migrations\n- switch the traffic\n\n\`\`\`sh\nmake deploy ENV=${what}\n\`\`\``;
const questionPreviews = {
  questions: [{ title: "Deploy where?", options: ["staging", "prod", "canary"].map((label) => ({ label, preview: preview(label) })) }],
};

// Two questions answered by typing, for the typed keys: askuser's two
// text inputs, and for the peer the same two questions with options,
// where the typing goes into its "Type something." row.
const questionText = {
  questions: [
    { title: "Release notes?", kind: "input" as const },
    { title: "Who signs off?", kind: "input" as const },
  ],
};
const peerQuestionText = {
  questions: [
    { ...peerQuestion.questions[0]!, question: "Release notes?", header: "Notes" },
    { ...peerQuestion.questions[0]!, question: "Who signs off?", header: "Sign-off" },
  ],
};

// The typed keys, by what they do, as raw terminal input: a cycle that
// leaves the text empty as it found it. "ab cd ef" typed, the cursor
// moved four cells inside it and back, then words deleted and Backspace
// in turn, three of each; Tab and Shift+Tab go between the two fields
// (tabCycle).
type TypedKind = "letter" | "backspace" | "word" | "move" | "tab" | "review" | "altq" | "escInput" | "escAsk";
const typedKinds: TypedKind[] = ["letter", "backspace", "word", "move", "tab", "review", "altq", "escInput", "escAsk"];
const typedNames: Record<TypedKind, string> = {
  letter: "letters typed",
  backspace: "Backspace",
  word: "a word deleted",
  move: "cursor moves in the text",
  tab: "Tab between fields",
  review: "Enter on the review page, a question unanswered (the peer: Enter confirming an option, which goes to the next question)",
  altq: "Alt+Q stopping the countdown, in a dialog opened again (the peer has no countdown)",
  escInput: "Esc leaving a text input (AskUserQuestion's Other; the peer: Esc closing its notes editor)",
  escAsk: "Esc asking before it dismisses (AskUserQuestion; the peer: its Esc closing its notes editor, as above)",
};
const typedCycle: [string, TypedKind][] = [
  ...[..."ab cd ef"].map((c): [string, TypedKind] => [c, "letter"]),
  ...Array.from({ length: 4 }, (): [string, TypedKind] => ["\x1b[D", "move"]),
  ...Array.from({ length: 4 }, (): [string, TypedKind] => ["\x1b[C", "move"]),
  ["\x17", "word"], // Ctrl+W: "ab cd "
  ["\x7f", "backspace"], // "ab cd"
  ["\x17", "word"], // "ab "
  ["\x7f", "backspace"], // "ab"
  ["\x7f", "backspace"], // "a"
  ["\x17", "word"], // ""
];
// The peer's text row takes no Tab (its editor gets it): its Tab is
// measured between its questions' option lists, where it switches them.
const tabCycle = ["\t", "\x1b[Z"];
// askuser's keys on the review page, from the first field and back to
// it: Tab, Tab to the review, Enter on Submit, which goes to the first
// unanswered question. The peer's Enter on its Submit tab submits: its
// Enter that draws is the one confirming an option, which goes to the
// next question; Shift+Tab comes back. It is typed from the option list
// (see typedKeys). Every key of these cycles draws a frame.
const reviewCycle: [string, TypedKind | undefined][] = [
  ["\t", undefined],
  ["\t", undefined],
  ["\r", "review"],
];
const peerReviewCycle: [string, TypedKind | undefined][] = [
  ["\r", "review"],
  ["\x1b[Z", undefined],
];
// Alt+Q stops the countdown once a dialog, and draws "No timeout"; after
// it the key draws nothing new. It is timed in dialogs opened again, one
// for each Alt+Q, after a letter typed the same time before it.
const ALT_Q = "\x1bq";
// Esc in AskUserQuestion's dialog: o opens the Other input, Esc leaves
// it, the next Esc asks before it dismisses, and Down makes the next Esc
// ask again. The peer's: n opens its notes editor, Esc closes it (its
// Esc anywhere else ends the dialog).
const escCycle: [string, TypedKind | undefined][] = [
  ["o", undefined],
  ["\x1b", "escInput"],
  ["\x1b", "escAsk"],
  ["\x1b[B", undefined],
];
const peerEscCycle: [string, TypedKind | undefined][] = [
  ["n", undefined],
  ["\x1b", "escInput"],
];
// The same two questions for AskUserQuestion, as the peer has them.
const auqQuestionText = {
  questions: peerQuestionText.questions.map((q, i) => ({ ...q, id: `q${i}`, multiSelect: false, options: q.options.map((o, j) => ({ ...o, id: `o${i}${j}` })) })),
};

// How long a key's frame, a dialog's first frame or its end may take
// before the bench fails: a route that stops answering fails the bench
// loudly instead of hanging it.
const ANSWER_MS = 5000;

// A key as readable text for an error message.
const keyText = (data: string) => JSON.stringify(data).replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

// Resolves with p, or fails with why after ms.
function bounded<T>(p: Promise<T>, ms: number, why: () => string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (t = setTimeout(() => reject(new Error(why())), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(t));
}

// started, when given, runs once askuser's child has been spawned, before
// the dialog is asked for: a caller that times steps charges the spawn,
// which Pi makes at session start, to a step of its own.
async function dialog(who: Contender, cols = 100, previews = false, text = false, auq = false, started?: () => Promise<void>): Promise<Dialog & { child?: Child; split: { start: number; input: number; render: number } }> {
  const f = fakeCtx("tui", { cols, rows: 30, theme: peerTheme, keybindings: getKeybindings() });
  let requested = false;
  // While no key is on its way, a frame asked for (a countdown's tick)
  // is rendered soon after, as Pi renders it; screen is what was
  // rendered last, for telling whether a key drew anything new.
  let pressing = false;
  let screen: string[] = [];
  // The dialog's component, as Pi mounted it.
  let mounted: NonNullable<(typeof f.shown)[number]["component"]> | undefined;
  let renderSoon = false;
  f.tui.requestRender = () => {
    requested = true;
    if (pressing || renderSoon) return;
    renderSoon = true;
    setImmediate(() => {
      renderSoon = false;
      if (!pressing && mounted) screen = mounted.render(cols);
    });
  };
  let done: Promise<unknown>;
  let child: Child | undefined;
  // askuser's calls on one host, so that a dialog opened again (reopen)
  // meets the same warm child and module, as a session's next call does.
  let askAgain: (() => Promise<unknown>) | undefined;
  if ((who === "askuser" || who === "wasm") && auq) {
    const host = new AskUserHost(f.ctx, { ...noConfig, timeoutPerQuestionMs: 600_000, dialogModule: who === "wasm" ? wasmPath : false }, "", "AskUserQuestion");
    if (who === "wasm" && !(await host.loadModule())) throw new Error(`the dialog module ${wasmPath} did not load: make pi-binary builds it`);
    askAgain = () => host.ask(auqQuestionText, {});
    done = askAgain();
    await until("the dialog", () => f.shown[0]?.component && f.shown[0]!.component.render(cols).length > 0, ANSWER_MS);
    child = host.process!;
  } else if (who === "askuser" || who === "wasm") {
    const ask = createAskUser(f.ctx, { ...noConfig, timeoutPerQuestionMs: 600_000, dialogModule: who === "wasm" ? wasmPath : false });
    if (who === "wasm" && !(await ask.host.loadModule())) throw new Error(`the dialog module ${wasmPath} did not load: make pi-binary builds it`);
    if (started) {
      ask.host.start();
      await started();
    }
    askAgain = () => ask(text ? questionText : previews ? questionPreviews : question);
    done = askAgain();
    await until("the dialog", () => f.shown[0]?.component && f.shown[0]!.component.render(cols).length > 0, ANSWER_MS);
    child = ask.host.process!;
  } else {
    // Loaded as Pi loads extensions: through jiti, which compiles it.
    const factory: unknown = await createJiti(import.meta.url, { moduleCache: false }).import(peerEntry, { default: true });
    if (typeof factory !== "function") throw new Error(`the peer at ${peerEntry} exports no extension factory`);
    const p = fakePi();
    factory(p.pi);
    const q = text
      ? peerQuestionText
      : previews
      ? { questions: peerQuestion.questions.map((q) => ({ ...q, options: q.options.map((o) => ({ ...o, preview: preview(o.label) })) })) }
      : peerQuestion;
    done = p.tool().execute("bench", q, new AbortController().signal, () => {}, f.ctx);
    await until("the peer's dialog", () => f.shown[0]?.component, ANSWER_MS);
  }
  let c = f.shown[0]!.component!;
  mounted = c;
  screen = c.render(cols);
  // The child's answers to keys and sizes (not its countdown's ticks):
  // a key of the child's route is drawn once its answer is handled.
  let answered: ((type: string) => void) | undefined;
  if (child) child.onAnswer = (_call, type) => answered?.(type);
  // Gives the component data, as Pi does, and resolves with the time
  // until the key's frame is rendered, or with undefined when the key
  // drew nothing new: its frame is the one on screen already. Only a
  // key's own frame ends the wait, never a countdown's tick; a route
  // that does not answer within ANSWER_MS fails the bench.
  const split = { start: 0, input: 0, render: 0 };
  const answerOf = async (answer: Promise<string>, data: string, before: string[]): Promise<void> => {
    const type = await bounded(answer, ANSWER_MS, () => `bench: ${who}'s child did not answer the key ${keyText(data)} within ${ANSWER_MS} ms; the screen:\n${before.join("\n")}`);
    if (type !== "frame") throw new Error(`bench: the key ${keyText(data)} ended ${who}'s dialog (${type}); the screen before it:\n${before.join("\n")}`);
  };
  const press = async (data: string): Promise<number | undefined> => {
    const before = screen;
    pressing = true;
    let answer: Promise<string> | undefined;
    if (who === "askuser") answer = new Promise((resolve) => (answered = resolve));
    const t0 = performance.now();
    requested = who === "rpiv"; // Pi renders after every key
    if (who === "wasm") {
      c.handleInput!(data);
      // The in-process copy draws every key at once; a key it did not
      // draw ended the dialog, or the copy was dropped: either way the
      // figures are not the in-process route's.
      if (!requested) throw new Error(`bench: the in-process dialog drew no frame for the key ${keyText(data)}: the key ended the dialog or the copy was dropped`);
    } else if (answer) {
      c.handleInput!(data);
      // The key's frame is drawn by the time handleInput returns when the
      // child drew it ahead, or answered it within the exchange's wait;
      // else it comes with the child's answer. A tick handled before the
      // answer does not count: only what the answer draws does.
      if (!requested) await answerOf(answer, data, before);
    } else {
      c.handleInput!(data);
    }
    const t1 = performance.now();
    const after = c.render(cols);
    const t2 = performance.now();
    const t = t2 - t0;
    split.start = t0;
    split.input = t1 - t0;
    split.render = t2 - t1;
    // A frame drawn ahead: the child still answers the key, before the
    // next one comes.
    if (answer) await answerOf(answer, data, before);
    answered = undefined;
    pressing = false;
    screen = answer ? c.render(cols) : after;
    return requested && (after.length !== before.length || after.some((l, i) => l !== before[i])) ? t : undefined;
  };
  // A key that must draw: the arrows always do.
  const drawn = async (data: string): Promise<number> => {
    const t = await press(data);
    if (t === undefined) throw new Error(`bench: the key ${keyText(data)} drew nothing new in ${who}'s dialog`);
    return t;
  };
  // The peer's cursor starts on the first option: Up wraps it to its
  // "Type something." row.
  if (text && who === "rpiv" && !auq) await drawn("\x1b[A");
  const close = async (): Promise<void> => {
    if (child) child.onAnswer = undefined;
    c.handleInput!(auq && who !== "rpiv" ? "\x03" : "\x1b");
    await bounded(done, ANSWER_MS, () => `bench: ${who}'s dialog did not end within ${ANSWER_MS} ms of its dismissal`);
    if (child) child.onAnswer = (_call, type) => answered?.(type);
  };
  return {
    child,
    split,
    key: (i: number) => drawn(i % 2 === 0 ? "\x1b[B" : "\x1b[A"),
    press,
    screen: (width = cols) => c.render(width),
    close,
    async reopen(): Promise<void> {
      if (!askAgain) throw new Error(`bench: ${who}'s dialog cannot be opened again`);
      await close();
      const k = f.shown.length;
      done = askAgain();
      await until("the dialog opened again", () => f.shown[k]?.component && f.shown[k]!.component.render(cols).length > 0, ANSWER_MS);
      c = f.shown[k]!.component!;
      mounted = c;
      screen = c.render(cols);
    },
  };
}

async function keyToFrame() {
  const d = await dialog("askuser");
  const peer = await dialog("rpiv");
  // Where the steady keys' time goes, as the shim's exchange sees it.
  const parts: ExchangeTimes[] = [];
  let tracing = false;
  d.child!.onExchange = (t) => tracing && parts.push(t);
  const frameBytes = 1058; // a frame of the question at 100 columns
  const floor = new PipeFloor(Buffer.from("x".repeat(frameBytes - 1) + "\n"));
  // Other work on the machine comes and goes: the bridge, the peer and
  // the floor take turns, a round each, so that all see the same load.
  // The first keys of a session are slower while V8 compiles the hot
  // code and both processes grow their heaps: they are measured apart
  // (firstKeys), and the steady figures are taken after a warm-up.
  const n = quick ? 500 : 5000;
  const round = 250;
  const times: number[] = [];
  const peerTimes: number[] = [];
  const floorSync: number[] = [];
  const floorLoop: number[] = [];
  for (let done = 0; done < warmup + n; done += round) {
    const steady = done >= warmup;
    tracing = steady;
    for (let i = 0; i < round; i++) {
      const t = await d.key(i);
      if (steady) times.push(t);
    }
    for (let i = 0; i < round; i++) {
      const t = await peer.key(i);
      if (steady) peerTimes.push(t);
    }
    for (let i = 0; i < round; i++) {
      const t0 = performance.now();
      floor.sync();
      if (steady) floorSync.push(performance.now() - t0);
    }
    for (let i = 0; i < round; i++) {
      const t0 = performance.now();
      await floor.viaLoop();
      if (steady) floorLoop.push(performance.now() - t0);
    }
  }
  tracing = false; // the dismissal's key is not one of them
  floor.close();
  await d.close();
  await peer.close();
  versus(`key to frame back to back, p50 / p99 (${n} keys after ${warmup} of warm-up)`, times, peerTimes, [50, 99], "< 30 µs / < 200 µs");
  const part = (f: (t: ExchangeTimes) => number) => pct(parts.map(f), 50);
  row(
    `where a steady key's time goes, p50s: encode and write / wait for the child / read and apply its frame`,
    `${us(part((t) => t.written - t.start))} / ${us(part((t) => t.read - t.written))} / ${us(part((t) => t.answered - t.read))}`,
  );
  row(`  empty reads while waiting, p50 / p99; keys with naps`, `${part((t) => t.emptyReads)} / ${pct(parts.map((t) => t.emptyReads), 99)}; ${parts.filter((t) => t.naps > 0).length} of ${parts.length}`);
  row(`pipe floor, synchronous as the shim reads, p50 / p99 (${frameBytes}-byte line to cat)`, `${us(pct(floorSync, 50))} / ${us(pct(floorSync, 99))}`);
  row(`pipe floor, through the event loop, p50 / p99`, `${us(pct(floorLoop, 50))} / ${us(pct(floorLoop, 99))}`);
}

// A row of askuser's figures beside the peer's, at the percentiles ps,
// with how many times faster askuser is at each.
function versus(what: string, mine: number[], theirs: number[], ps: number[], budget = "") {
  const a = ps.map((p) => pct(mine, p));
  const b = ps.map((p) => pct(theirs, p));
  row(what, a.map(us).join(" / "), budget, b.map(us).join(" / "), a.map((v, i) => `${(b[i]! / v).toFixed(2)}×`).join(" / "));
}

// The first keys of a session, back to back, each contender in a Node of
// its own (bench.ts --first=NAME prints the times), so that nothing the
// other ran has warmed the code they share: for askuser a new child too.
// The runs alternate, and their keys are pooled.
function firstKeys() {
  const runs = quick ? 1 : 3;
  const got: Record<Contender, number[]> = { askuser: [], wasm: [], rpiv: [] };
  for (let r = 0; r < runs; r++) {
    for (const who of contenders) {
      const out = spawnSync(process.execPath, [new URL(import.meta.url).pathname, `--first=${who}`], { encoding: "utf8" });
      if (out.status !== 0) throw new Error(`bench --first=${who} failed: ${out.stderr}`);
      const times: unknown = JSON.parse(out.stdout);
      if (!Array.isArray(times) || !times.every((t) => typeof t === "number")) throw new Error(`bench --first=${who} printed no times: ${out.stdout}`);
      got[who].push(...times);
    }
  }
  versus(`key to frame, a session's first ${firstCount} keys, child, p50 / p90 / p99 (${runs} sessions each)`, got.askuser, got.rpiv, [50, 90, 99], "≤ 1 ms p99");
  versus(`key to frame, a session's first ${firstCount} keys, in process (wasm), p50 / p90 / p99`, got.wasm, got.rpiv, [50, 90, 99], "≤ 1 ms p99");
}
const firstCount = 1000;

async function printFirstKeys(who: Contender) {
  const d = await dialog(who);
  const times: number[] = [];
  for (let i = 0; i < firstCount; i++) times.push(await d.key(i));
  await d.close();
  console.log(JSON.stringify(times));
}

// Keys as far apart as a person's, 50, 100 and 500 ms: between two keys
// the process goes idle, and the next key meets cold caches, an idle CPU
// and, for the child, the scheduler's placement of the woken process.
// Each contender types alone, in a Node of its own, after the same
// warm-up, as in Pi, where one dialog is open at a time: dialogs open
// side by side in one Node disturb each other's keys (the child's
// countdown frames and the peer's timers land between them, and V8
// compiles the component's code for two routes at once). The contenders
// take turns, a round each, so that all see the same load.
async function keysAtPace() {
  const rounds = quick ? 1 : 2;
  const gaps: [number, number][] = [
    [50, quick ? 20 : 50],
    [100, quick ? 20 : 50],
    [500, quick ? 10 : 15],
  ];
  const got = pooled(gaps.length);
  const preempted = Object.fromEntries(contenders.map((who) => [who, gaps.map(() => 0)])) as Record<Contender, number[]>;
  const parts: ExchangeTimes[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const who of turns(r)) {
      const out = alone({ who, cols: 100, previews: false, warm: warmup, gaps });
      out.times.forEach((t, i) => got[who][i]!.push(...t));
      out.preempted.forEach((k, i) => (preempted[who][i]! += k));
      parts.push(...out.parts);
    }
  }
  for (const [i, [gap]] of gaps.entries()) {
    const n = got.askuser[i]!.length;
    const budget = gap === 100 ? "≤ 100 µs / ≤ 250 µs" : "";
    versus(`key to frame, keys ${gap} ms apart, child, p50 / p90 / p99 (${n} keys)`, got.askuser[i]!, got.rpiv[i]!, [50, 90, 99], budget);
    versus(`key to frame, keys ${gap} ms apart, in process (wasm), p50 / p90 / p99 (${n} keys)`, got.wasm[i]!, got.rpiv[i]!, [50, 90, 99], budget);
    row(`  of those keys, how many another process took the CPU during (for the child, its own counts): child / wasm`, `${preempted.askuser[i]} / ${preempted.wasm[i]}`, "", `${preempted.rpiv[i]}`);
  }
  // The keys whose frames the child had not drawn ahead waited for it.
  const part = (f: (t: ExchangeTimes) => number, p: number) => us(pct(parts.map(f), p));
  row(`  of the child's keys 100 ms apart, how many waited for the child (not drawn ahead)`, `${parts.length}`);
  if (parts.length > 0)
    for (const p of [50, 90])
      row(`  where a child's key 100 ms apart waited for it, p${p}s: write / wait for the child / read and apply`, `${part((t) => t.written - t.start, p)} / ${part((t) => t.read - t.written, p)} / ${part((t) => t.answered - t.read, p)}`);
}

// Typed keys at a person's pace, beside the arrows of keysAtPace: letters,
// Backspace, a word deleted, the cursor moved inside the text and Tab
// between two text fields, each contender alone in its Node as there,
// with the figures by kind of key. The peer types into its own text row,
// "Type something.", and tabs between its questions' option lists (its
// text row gives Tab to its editor).
async function typedAtPace() {
  const rounds = Number(flag("rounds") ?? (quick ? 1 : 2));
  const gaps: [number, number][] = (
    [
      [50, quick ? 22 : 66],
      [100, quick ? 22 : 66],
      [500, quick ? 22 : 66],
    ] as [number, number][]
  ).filter(([gap]) => pickedGaps === undefined || pickedGaps.includes(gap));
  const kinds = typedKinds.filter((k) => pickedKinds === undefined || pickedKinds.includes(k));
  const escKinds = kinds.filter((k) => k === "escInput" || k === "escAsk");
  const tabs = Number(flag("tabs") ?? (quick ? 6 : 30));
  const review = Number(flag("review") ?? (quick ? 3 : 30));
  const esc = Number(flag("esc") ?? (quick ? 3 : 30));
  const altq = Number(flag("altq") ?? (quick ? 2 : 30));
  const got = Object.fromEntries(contenders.map((who) => [who, gaps.map(() => new Map<TypedKind, number[]>())])) as Record<Contender, Map<TypedKind, number[]>[]>;
  const undrawn = Object.fromEntries(contenders.map((who) => [who, 0])) as Record<Contender, number>;
  const collect = (who: Contender, out: AloneTimes) => {
    out.times.forEach((times, i) =>
      times.forEach((t, j) => {
        const kind = out.kinds![i]![j]!;
        const m = got[who][i]!;
        m.set(kind, [...(m.get(kind) ?? []), t]);
      }),
    );
    undrawn[who] += out.undrawn ?? 0;
  };
  const traces: KeyTrace[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const who of turns(r).filter((w) => pickedWho === undefined || pickedWho.includes(w))) {
      const trace = tracing && who === "wasm";
      if (kinds.length > escKinds.length) {
        const out = alone({ who, cols: 100, previews: false, warm: warmup / 2, gaps, text: { tabs, review, altq }, trace });
        collect(who, out);
        traces.push(...(out.trace ?? []));
      }
      // Esc in AskUserQuestion's dialog: its keys only, esc rounds a gap.
      const escGaps = gaps.map(([gap]): [number, number] => [gap, 0]);
      if (escKinds.length > 0) {
        const out = alone({ who, cols: 100, previews: false, warm: warmup / 8, gaps: escGaps, text: { tabs: 0, esc }, auq: true, trace });
        collect(who, out);
        traces.push(...(out.trace ?? []));
      }
    }
  }
  if (tracing) tables.push(traceTable(traces));
  // One table: each kind of key at each pace, in process, in the child
  // and in the peer, with how many times faster askuser is in process
  // (and in the child) at p50 and p90.
  const fig = (xs: number[]) => (xs.length ? `${(pct(xs, 50) * 1000).toFixed(0)} / ${(pct(xs, 90) * 1000).toFixed(0)}` : "none");
  const ratio = (mine: number[], peer: number[]) =>
    mine.length && peer.length ? `${(pct(peer, 50) / pct(mine, 50)).toFixed(1)}× / ${(pct(peer, 90) / pct(mine, 90)).toFixed(1)}×` : "none";
  const lines = [
    "| key, p50 / p90 µs | gap | n | in process | child | rpiv 2.11.0 | in process vs rpiv | child vs rpiv |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const kind of kinds) {
    for (const [i, [gap]] of gaps.entries()) {
      const of = (who: Contender, k = kind) => got[who][i]!.get(k) ?? [];
      const wasm = of("wasm");
      // The peer's Esc outside its notes ends the dialog: its one Esc
      // that draws, closing the notes, stands beside both of askuser's.
      const peer = of("rpiv", kind === "escAsk" ? "escInput" : kind);
      lines.push(`| ${typedNames[kind]} | ${gap} ms | ${wasm.length} | ${fig(wasm)} | ${fig(of("askuser"))} | ${fig(peer)} | ${ratio(wasm, peer)} | ${ratio(of("askuser"), peer)} |`);
      const budget = pct(wasm, 50) <= 0.1 && pct(wasm, 90) <= 0.25 ? "" : " (over ≤ 100 / ≤ 250 µs)";
      row(`${typedNames[kind]}, keys ${gap} ms apart, in process / child / rpiv, p50 / p90 µs`, `${fig(wasm)} / ${fig(of("askuser"))}${budget}`, "≤ 100 µs / ≤ 250 µs in process", fig(peer), ratio(wasm, peer));
    }
  }
  lines.push(`keys that drew nothing new, not counted: askuser ${undrawn.askuser}, in process ${undrawn.wasm}, rpiv ${undrawn.rpiv}`);
  tables.push(lines.join("\n"));
}

// Keys 100 ms apart at 80, 100 and 200 columns, without and with
// previews, each contender alone in its Node as in keysAtPace.
async function shapesAtPace() {
  const n = quick ? 10 : 40;
  for (const previews of [false, true]) {
    for (const cols of [80, 100, 200]) {
      const got = pooled(1);
      for (const who of turns(cols)) got[who][0]!.push(...alone({ who, cols, previews, warm: warmup / 4, gaps: [[100, n]] }).times[0]!);
      const shape = `${cols} columns${previews ? ", previews" : ""}`;
      versus(`key to frame 100 ms apart, ${shape}, child, p50 / p90 / p99 (${n} keys)`, got.askuser[0]!, got.rpiv[0]!, [50, 90, 99]);
      versus(`key to frame 100 ms apart, ${shape}, in process (wasm), p50 / p90 / p99`, got.wasm[0]!, got.rpiv[0]!, [50, 90, 99]);
    }
  }
}

// The contenders in the order of round r: each goes first in turn.
const turns = (r: number) => contenders.map((_, i) => contenders[(i + r) % contenders.length]!);

// Empty lists of times, k per contender.
const pooled = (k: number) =>
  Object.fromEntries(contenders.map((who) => [who, Array.from({ length: k }, () => [] as number[])])) as Record<Contender, number[][]>;

// What one contender types alone (bench.ts --alone=JSON): a dialog of
// cols columns, warm keys back to back, 1 s of rest, then for each
// [gap, n] of gaps, n keys gap ms apart.
interface Alone {
  who: Contender;
  cols: number;
  previews: boolean;
  warm: number;
  // Typed keys instead of arrows: for each gap, keys of typedCycle, then
  // tabs keys of tabCycle and review rounds of reviewCycle (see
  // typedKeys); with auq, AskUserQuestion's dialog and esc rounds of
  // escCycle instead.
  // altq dialogs opened again at each gap, each for one Alt+Q (askuser
  // only).
  text?: { tabs: number; review?: number; esc?: number; altq?: number };
  auq?: boolean;
  gaps: [number, number][];
  // Trace each in-process key's parts (KeyTrace).
  trace?: boolean;
}

// The keys' times, a list per gap; how many of those keys another process
// took the CPU from (the kernel's count of involuntary context switches
// grew during the key: on a busy machine, the slowest keys); and for the
// child the exchanges' times of the keys 100 ms apart.
interface AloneTimes {
  times: number[][];
  // With text, each key's kind, as times.
  kinds?: TypedKind[][];
  preempted: number[];
  parts: ExchangeTimes[];
  // Keys of a kind that drew nothing new, and so were not counted.
  undrawn?: number;
  trace?: KeyTrace[];
}

// The parts of one in-process key (--trace): how its frame came (tried
// ahead, from a letter's template, or drawn by the module on the key),
// the time in handleInput, in the module, in render, V8's collections
// during it, whether the process lost the CPU, its page faults, and
// whether the tries after the last key were still under way.
interface KeyTrace {
  kind: TypedKind;
  gap: number;
  t: number;
  input: number;
  module: number;
  render: number;
  path: string;
  gc: number;
  preempted: boolean;
  faults: number;
  trying: boolean;
  // The try the run was at, ms since it started, ms since the
  // countdown's second turned, and the time in LocalDialog.key.
  step: number;
  sinceRun: number;
  phase: number;
  local: number;
  // The run of tries and timers as the key found them, for a key the
  // module drew.
  state?: string;
}

// Instruments the in-process route for KeyTrace: the module's calls are
// timed, and LocalDialog.key tells how its frame came.
function instrument(): { path: string; module: number; trying: boolean; step: number; sinceRun: number; phase: number; local: number; state: string } {
  const now = { path: "", module: 0, trying: false, step: 0, sinceRun: 0, runStart: 0, phase: 0, local: 0, state: "" };
  const mp = DialogModule.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const name of ["key", "adopt", "try", "resize"]) {
    const f = mp[name]!;
    mp[name] = function (this: unknown, ...a: unknown[]) {
      const t0 = performance.now();
      try {
        return f.apply(this, a);
      } finally {
        now.module += performance.now() - t0;
      }
    };
  }
  const lp = LocalDialog.prototype as unknown as { key: (k: Key) => unknown };
  const key = lp.key;
  const tl = (LocalDialog.prototype as unknown as { tryLater: () => void }).tryLater;
  (LocalDialog.prototype as unknown as { tryLater: () => void }).tryLater = function (this: unknown) {
    if (!(this as { running: boolean }).running) now.runStart = performance.now();
    tl.call(this);
  };
  lp.key = function (this: { pending?: Key; pendingFrame?: unknown; running: boolean; deadline: number }, k: Key) {
    now.trying = this.running;
    const me = this as unknown as { now: { next: number; frames: Map<string, unknown> }; ahead: { next: number; frames: Map<string, unknown> }; second: number; secondAt(t: number): number; timer: unknown; hold: unknown };
    now.step = me.now.next;
    now.state = `now ${me.now.next}/${me.now.frames.size} ahead ${me.ahead.next}/${me.ahead.frames.size} second ${me.second} at ${me.secondAt((performance.timeOrigin + performance.now()) * 1000)} timer ${me.timer !== undefined} hold ${me.hold !== undefined}`;
    now.sinceRun = performance.now() - now.runStart;
    now.phase = this.deadline > 0 ? (1e6 - ((this.deadline - (performance.timeOrigin + performance.now()) * 1000) % 1e6)) / 1000 : -1;
    const m0 = now.module;
    const t0 = performance.now();
    const r = key.call(this, k);
    now.local = performance.now() - t0;
    now.path = this.pending === k ? (this.pendingFrame ? "letter" : "ready") : now.module > m0 ? "module" : "none";
    return r;
  };
  return now;
}

// The slow in-process keys of a trace, and how the keys' frames came.
function traceTable(traces: KeyTrace[]): string {
  const f = (v: number) => (v * 1000).toFixed(0);
  const lines = ["| key | gap | µs | handleInput | module | render | frame | V8 GC µs | preempted | faults | tries running (step, ms) | ms after the second | LocalDialog.key |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"];
  const slow = traces.filter((t) => t.t > 0.1).sort((a, b) => b.t - a.t);
  for (const t of slow)
    lines.push(`| ${t.kind} | ${t.gap} | ${f(t.t)} | ${f(t.input)} | ${f(t.module)} | ${f(t.render)} | ${t.path} | ${f(t.gc)} | ${t.preempted} | ${t.faults} | ${t.trying ? `${t.step}, ${t.sinceRun.toFixed(1)}` : "no"} | ${t.phase.toFixed(1)} | ${f(t.local)} | ${t.path === "module" ? t.state : ""} |`);
  const count = (pred: (t: KeyTrace) => boolean) => traces.filter(pred).length;
  lines.push(`${traces.length} keys traced, ${slow.length} over 100 µs; frames: ${["ready", "letter", "module", "none"].map((p) => `${p} ${count((t) => t.path === p)}`).join(", ")}; of the slow: ${["ready", "letter", "module"].map((p) => `${p} ${slow.filter((t) => t.path === p).length}`).join(", ")}, with a V8 GC ${slow.filter((t) => t.gc > 0).length}, preempted ${slow.filter((t) => t.preempted).length}, with faults ${slow.filter((t) => t.faults > 0).length}`);
  const med = (xs: number[]) => (xs.length ? f(pct(xs, 50)) : "-");
  for (const p of ["ready", "letter", "module"]) {
    const of = traces.filter((t) => t.path === p);
    lines.push(`${p}: ${of.length} keys, p50 / p90 µs ${med(of.map((t) => t.t))} / ${of.length ? f(pct(of.map((t) => t.t), 90)) : "-"}; p50 handleInput ${med(of.map((t) => t.input))}, LocalDialog.key ${med(of.map((t) => t.local))}, render ${med(of.map((t) => t.render))}`);
  }
  return lines.join("\n");
}

// Runs a in a Node of its own and returns what it printed. A run that
// does not end within its bound (the keys' gaps and a few minutes more;
// each key has its own bound, ANSWER_MS, inside) is killed and fails the
// bench.
function alone(a: Alone): AloneTimes {
  const planned = a.gaps.reduce((sum, [gap, n]) => sum + gap * (n + 200), 0);
  const timeout = 180_000 + 2 * planned;
  const out = spawnSync(process.execPath, [new URL(import.meta.url).pathname, `--alone=${JSON.stringify(a)}`], {
    encoding: "utf8",
    timeout,
    killSignal: "SIGKILL",
    maxBuffer: 64 << 20,
  });
  if (out.error || out.signal) throw new Error(`bench --alone=${JSON.stringify(a)} did not finish within ${timeout / 1000} s (${out.error?.message ?? out.signal}): ${out.stderr}`);
  if (out.status !== 0) throw new Error(`bench --alone=${JSON.stringify(a)} failed: ${out.stderr}`);
  const got = JSON.parse(out.stdout) as AloneTimes;
  const numbers = (xs: unknown) => Array.isArray(xs) && xs.every((t) => typeof t === "number");
  if (!Array.isArray(got?.times) || got.times.length !== a.gaps.length || !got.times.every(numbers) || !numbers(got.preempted) || !Array.isArray(got.parts))
    throw new Error(`bench --alone=${a.who} printed no times: ${out.stdout}`);
  return got;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// How long after the key before a key comes that is not timed, only
// bringing the dialog where the next timed key is (typedKeys).
const HELPER_MS = 30;

async function printAlone(a: Alone) {
  if (!contenders.includes(a.who)) throw new Error(`bench: --alone takes a contender of ${contenders.join(", ")}, not ${a.who}`);
  initTheme(undefined, false); // the peer draws its previews with Pi's Markdown theme
  const traced = a.trace && a.who === "wasm" ? instrument() : undefined;
  const gcs: { start: number; end: number }[] = [];
  const observer = traced ? new PerformanceObserver((l) => l.getEntries().forEach((e) => gcs.push({ start: e.startTime, end: e.startTime + e.duration }))) : undefined;
  observer?.observe({ entryTypes: ["gc"] });
  const trace: (KeyTrace & { start: number })[] = [];
  const d = await dialog(a.who, a.cols, a.previews, a.text !== undefined, a.auq === true);
  const typed = a.text ? typedKeys(a.who, a.text, a.auq === true) : undefined;
  if (typed && a.auq) {
    const cycle = a.who === "rpiv" ? peerEscCycle : escCycle;
    for (let i = 0; i < a.warm; i++) await d.press(cycle[i % cycle.length]![0]);
  } else if (typed) {
    await typedWarmup(d, a.who, a.warm);
  } else {
    for (let i = 0; i < a.warm; i++) await d.key(i);
  }
  await sleep(1000);
  const out: AloneTimes = { times: [], preempted: [], parts: [], kinds: typed ? [] : undefined, undrawn: 0 };
  const switches = () => process.resourceUsage().involuntaryContextSwitches;
  for (const [gap, n] of a.gaps) {
    const times: number[] = [];
    const kinds: TypedKind[] = [];
    let preempted = 0;
    if (a.who === "askuser" && gap === 100 && !typed) d.child!.onExchange = (t) => out.parts.push(t);
    const keys = typed ? typed(n) : Array.from({ length: n }, (_, i): [string, TypedKind | undefined] => [i % 2 === 0 ? "\x1b[B" : "\x1b[A", undefined]);
    const time = async (data: string, kind: TypedKind | undefined) => {
      // A key that only brings the dialog where the next key is timed
      // comes soon after the key before; the timed key comes the gap
      // after it.
      await sleep(kind === undefined && typed ? HELPER_MS : gap);
      const before = switches();
      const faults = process.resourceUsage().minorPageFault;
      if (traced) traced.module = 0;
      const t = await d.press(data);
      if (traced && kind && t !== undefined)
        trace.push({ kind, gap, t, start: d.split.start, input: d.split.input, render: d.split.render, module: traced.module, path: traced.path, gc: 0, preempted: switches() > before, faults: process.resourceUsage().minorPageFault - faults, trying: traced.trying, state: traced.state, step: traced.step, sinceRun: traced.sinceRun, phase: traced.phase, local: traced.local });
      if (kind === undefined && typed) return; // a key that only brings the dialog where the next keys are typed
      // A key that drew nothing new is not one of the figures.
      if (t === undefined) {
        out.undrawn!++;
        return;
      }
      times.push(t);
      if (kind) kinds.push(kind);
      if (switches() > before) preempted++;
    };
    for (const [data, kind] of keys) await time(data, kind);
    if (d.child) d.child.onExchange = undefined;
    out.times.push(times);
    out.kinds?.push(kinds);
    out.preempted.push(preempted);
  }
  // Alt+Q, in the dialog opened again for each: a letter, then Alt+Q the
  // gap after it (the letter is not timed, and comes HELPER_MS after the
  // dialog opened).
  const altq = a.text?.altq ?? 0;
  if (altq > 0 && a.who !== "rpiv" && !a.auq) {
    for (const [i, [gap]] of a.gaps.entries()) {
      for (let k = 0; k < altq; k++) {
        await d.reopen();
        await sleep(HELPER_MS);
        if ((await d.press("a")) === undefined) throw new Error(`bench: a letter drew nothing in ${a.who}'s dialog opened again`);
        await sleep(gap);
        const before = switches();
        const faults = process.resourceUsage().minorPageFault;
        if (traced) traced.module = 0;
        const t = await d.press(ALT_Q);
        if (traced && t !== undefined)
          trace.push({ kind: "altq", gap, t, start: d.split.start, input: d.split.input, render: d.split.render, module: traced.module, path: traced.path, gc: 0, preempted: switches() > before, faults: process.resourceUsage().minorPageFault - faults, trying: traced.trying, state: traced.state, step: traced.step, sinceRun: traced.sinceRun, phase: traced.phase, local: traced.local });
        if (!d.screen().join("\n").includes("No timeout")) throw new Error(`bench: Alt+Q did not stop the countdown in ${a.who}'s dialog:\n${d.screen().join("\n")}`);
        if (t === undefined) {
          out.undrawn!++;
          continue;
        }
        out.times[i]!.push(t);
        out.kinds![i]!.push("altq");
      }
    }
  }
  await d.close();
  if (traced) {
    await sleep(100);
    observer!.disconnect();
    for (const k of trace) {
      const end = k.start + k.t;
      k.gc = gcs.reduce((sum, g) => sum + Math.max(0, Math.min(end, g.end) - Math.max(k.start, g.start)), 0);
    }
    out.trace = trace;
  }
  console.log(JSON.stringify(out));
}

// The typed keys for one gap: n keys of typedCycle, whole cycles, then
// tabs keys of tabCycle, then review rounds of reviewCycle (the peer's
// peerReviewCycle). The peer leaves its text row for its Tabs and its
// Enter (Down wraps from it to the first option) and comes back after
// (Up wraps to it): those keys have no kind, and are not counted. With
// auq, esc rounds of escCycle (the peer's peerEscCycle), and nothing
// else. Every key leaves the text as the cycle expects it: the keys that
// fill the last cycle are counted as theirs.
function typedKeys(who: Contender, text: { tabs: number; review?: number; esc?: number }, auq = false): (n: number) => [string, TypedKind | undefined][] {
  const { tabs, review = 0, esc = 0 } = text;
  return (n) => {
    const keys: [string, TypedKind | undefined][] = [];
    if (auq) {
      for (let i = 0; i < esc; i++) keys.push(...(who === "rpiv" ? peerEscCycle : escCycle));
      return keys;
    }
    const cycles = Math.ceil(n / typedCycle.length);
    for (let i = 0; i < cycles; i++) keys.push(...typedCycle);
    if (tabs === 0 && review === 0) return keys;
    if (who === "rpiv") keys.push(["\x1b[B", undefined]);
    for (let i = 0; i < tabs; i++) keys.push([tabCycle[i % 2]!, "tab"]);
    if (tabs % 2 === 1) keys.push([tabCycle[1]!, undefined]);
    for (let i = 0; i < review; i++) keys.push(...(who === "rpiv" ? peerReviewCycle : reviewCycle));
    if (who === "rpiv") keys.push(["\x1b[A", undefined]);
    return keys;
  };
}

// Warms a dialog up with typed keys, back to back, and checks that they
// reach the text: the peer's typing lands in its text row, askuser's in
// its input.
async function typedWarmup(d: Dialog, who: Contender, warm: number) {
  const keys = typedKeys(who, { tabs: 10, review: 2 });
  for (let done = 0; done < warm; ) {
    for (const [data] of keys(typedCycle.length * 5)) {
      await d.press(data);
      done++;
    }
  }
  const before = d.screen().join("\n");
  if (before.includes("ab c")) throw new Error(`bench: a cycle of typed keys leaves text in ${who}'s dialog:\n${before}`);
  for (const c of "hello") await d.press(c);
  const screen = d.screen().join("\n");
  if (!screen.includes("hello")) throw new Error(`bench: typing does not reach ${who}'s text:\n${screen}`);
  await d.press("\x17");
  // The peer's Enter on an option goes to its next question, and
  // Shift+Tab comes back.
  if (who === "rpiv") {
    const asked = (q: string) => d.screen().some((l) => l.includes(q));
    await d.press("\x1b[B");
    await d.press(peerReviewCycle[0]![0]);
    if (!asked("Who signs off?") || asked("Release notes?")) throw new Error(`bench: the peer's Enter on an option did not go to its next question:\n${d.screen().join("\n")}`);
    await d.press(peerReviewCycle[1]![0]);
    if (!asked("Release notes?")) throw new Error(`bench: the peer's Shift+Tab did not come back:\n${d.screen().join("\n")}`);
    await d.press("\x1b[A");
  }
}

async function callToFrame() {
  const f = fakeCtx("tui", { cols: 100, rows: 30 });
  let rendered: (() => void) | undefined;
  f.tui.requestRender = () => rendered?.();
  const ask = createAskUser(f.ctx, { ...noConfig, timeoutPerQuestionMs: 600_000 });
  await ask.host.start()!.ready;
  const n = quick ? 10 : 50;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const shown = new Promise<void>((resolve) => {
      // The first frame also resolves the component Pi waits for, which
      // the fake mounts a moment later.
      const check = () => {
        const c = f.shown[i]?.component;
        if (c?.render(100).some((l) => l.includes("Deploy where?"))) resolve();
        else setImmediate(check);
      };
      rendered = check;
    });
    const p = ask(question);
    await shown;
    times.push(performance.now() - t0);
    rendered = undefined;
    f.type("\x1b");
    await p;
  }
  row(`tool call to first frame p50 (${n} calls, child running)`, ms(median(times)), "< 50 ms");
  row(`tool call to first frame max`, ms(Math.max(...times)));
}

function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function childReady() {
  const hello = JSON.stringify({ type: "hello", version: 1, release: RELEASE, mode: "tui", hasUI: true, ui: { custom: true, input: true, select: true }, agentDir: "", configFile: false });
  const n = quick ? 10 : 40;
  const times: number[] = [];
  const mem: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const child = spawn(binary, ["bridge"], { stdio: ["pipe", "pipe", "inherit"] });
    child.stdin.write(hello + "\n");
    let buf = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (d: string) => {
        buf += d;
        if (buf.includes('"type":"ready"')) resolve();
        else if (buf.includes('"type":"fatal"')) reject(new Error(`the bridge refused the hello: ${buf}`));
      });
    });
    times.push(performance.now() - t0);
    mem.push(rss(child.pid!));
    child.stdin.end();
    await new Promise((r) => child.on("exit", r));
  }
  row(`child spawn to ready p50 (${n} runs)`, ms(median(times)), "");
  row(`child RSS at ready`, `${median(mem).toFixed(1)} MiB`);

  // Memory after a dialog has been drawn and answered.
  const f = fakeCtx("tui", { cols: 100, rows: 30 });
  const ask = createAskUser(f.ctx, noConfig);
  const p = ask(question);
  await until("the dialog", () => f.shown[0]?.component?.render(100).some((l) => l.includes("Deploy where?")), 5000);
  for (let i = 0; i < 50; i++) f.type(i % 2 ? "\x1b[A" : "\x1b[B");
  f.type("\r");
  await p;
  row(`child RSS after a dialog`, `${rss(ask.host.process!.pid!).toFixed(1)} MiB`);
}

// Real Pi's TUI under tmux: from Pi starting the tool call to the dialog
// on the screen, seen by polling the terminal. The poll itself takes a
// few milliseconds, so this is an upper bound.
async function callToScreen() {
  const n = quick ? 4 : 11;
  const calls = Array.from({ length: n }, (_, i) => ({ questions: [{ title: `Question ${i + 1}`, options: [{ label: "a" }, { label: "b" }] }] }));
  const r = prepare(calls);
  const times = `${r.dir}/times`;
  r.env.ASKUSER_E2E_TIMES = times;
  const tui = new Tui(r);
  const got: number[] = [];
  try {
    for (let i = 1; i <= n; i++) {
      const title = `Question ${i}`;
      let seen = 0;
      const end = Date.now() + 30_000;
      while (Date.now() < end) {
        const s = tui.screen();
        if (s.includes(title) && s.includes("esc dismiss")) {
          seen = Date.now();
          break;
        }
      }
      if (!seen) throw new Error(`${title} never showed:\n${tui.screen()}`);
      const started = Number(readFileSync(times, "utf8").trim().split("\n")[i - 1]);
      got.push(seen - started);
      tui.keys("Escape");
    }
  } finally {
    tui.close();
  }
  // The first call comes while Pi is still starting, and starts the child.
  row(`tool call to dialog on screen in Pi's TUI, first call (tmux poll)`, ms(got[0]!));
  row(`tool call to dialog on screen in Pi's TUI, median of the next ${n - 1}`, ms(median(got.slice(1))), "< 50 ms");
}

function sessionStart() {
  const n = quick ? 10 : 50;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const f = fakePi();
    registerAskUser(f.pi, noConfig);
    const ctx = fakeCtx("tui").ctx;
    const t0 = performance.now();
    void f.fire("session_start", { reason: "startup" }, ctx);
    times.push(performance.now() - t0);
    void f.fire("session_shutdown", { reason: "quit" }, ctx);
  }
  row(`session_start handler p50 (the child starts after it)`, ms(median(times)));
}

function piStartup() {
  const n = quick ? 5 : 15;
  // PI_TIMING=1 makes Pi print how long each extension's import and
  // factory took: the package's own share of startup, free of the noise
  // of the whole run.
  const own: number[] = [];
  const piTotal = { with: [] as number[], without: [] as number[] };
  // Pi's extension loader caches the compiled package in TMPDIR, as it
  // does on a user's machine from one run to the next: every run shares
  // one, so that the runs after the first two measure a warm start.
  const cache = mkdtempSync(join(tmpdir(), "askuser-bench-"));
  const run = (install: boolean) => {
    const r = prepare([], { install });
    const t0 = performance.now();
    const out = spawnSync(nodeBin, [...piArgs, "-p", "hi"], { cwd: r.dir, env: { ...r.env, PI_TIMING: "1", TMPDIR: cache }, encoding: "utf8" });
    const t = performance.now() - t0;
    if (out.status !== 0) throw new Error(`pi failed: ${out.stderr}`);
    if (!out.stdout.includes("model saw")) throw new Error(`pi did not answer: ${out.stdout}`);
    const total = Number(/Startup Timings: main[\s\S]*?TOTAL: (\d+)ms/.exec(out.stderr)?.[1]);
    if (Number.isNaN(total)) throw new Error(`Pi printed no startup timings:\n${out.stderr}`);
    (install ? piTotal.with : piTotal.without).push(total);
    if (install) {
      const entry = `${pkgDir}/index.ts`;
      const part = (what: string) => Number(new RegExp(`${entry.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} ${what}: (\\d+)ms`).exec(out.stderr)?.[1]);
      const sum = part("module import") + part("factory");
      if (Number.isNaN(sum)) throw new Error(`Pi's timings do not list the package:\n${out.stderr}`);
      own.push(sum);
    }
    return t;
  };
  const without: number[] = [];
  const withPkg: number[] = [];
  try {
    run(false);
    run(true);
    for (let i = 0; i < n; i++) {
      without.push(run(false));
      withPkg.push(run(true));
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
  // Other work on the machine only ever adds time: the minimum is the
  // steadiest estimate, the median is shown beside it.
  row(`Pi print run without the package, min / median of ${n}`, `${ms(Math.min(...without))} / ${ms(median(without))}`);
  row(`Pi print run with the package, min / median of ${n}`, `${ms(Math.min(...withPkg))} / ${ms(median(withPkg))}`);
  row(`the package's import + factory, Pi's own timing, median`, ms(median(own)));
  row(`Pi's own startup total without / with the package, medians`, `${ms(median(piTotal.without))} / ${ms(median(piTotal.with))}`);
  row(`added by the package to Pi's own startup total`, ms(median(piTotal.with) - median(piTotal.without)), "< 20 ms");
  row(`added by the package to the whole run (noisy), min / median`, `${ms(Math.min(...withPkg) - Math.min(...without))} / ${ms(median(withPkg) - median(without))}`);
}

// Watches Pi's thread as a person would notice: a 1 ms timer whose gaps
// beyond 1 ms are stalls, and monitorEventLoopDelay at 1 ms (but while
// the bench collects garbage to read memory: aside). Each step
// ends with mark, which keeps the step's longest stall; a stall under way
// when a step ends counts in that step (clipped at its start) and, in
// whole, in longest.
class StallWatch {
  private h = monitorEventLoopDelay({ resolution: 1 });
  private last = performance.now();
  private stepStart = this.last;
  private worst = 0;
  private timer: ReturnType<typeof setTimeout>;
  longest = 0;
  steps: { step: string; ms: number; stall: number; delay: number }[] = [];
  constructor() {
    this.h.enable();
    const tick = () => {
      const now = performance.now();
      this.worst = Math.max(this.worst, now - Math.max(this.last, this.stepStart) - 1);
      this.longest = Math.max(this.longest, now - this.last - 1);
      this.last = now;
      this.timer = setTimeout(tick, 1);
    };
    this.timer = setTimeout(tick, 1);
  }
  mark(step: string): void {
    const now = performance.now();
    const open = now - Math.max(this.last, this.stepStart) - 1;
    this.longest = Math.max(this.longest, now - this.last - 1);
    this.steps.push({ step, ms: now - this.stepStart, stall: Math.max(0, this.worst, open), delay: this.h.max / 1e6 });
    this.h.reset();
    this.worst = 0;
    this.stepStart = now;
  }
  // Runs f, the bench's own work (a collection before memory is read),
  // which no step is charged with.
  aside<T>(f: () => T): T {
    const r = f();
    this.last = performance.now();
    this.h.reset();
    return r;
  }
  stop(): number {
    clearTimeout(this.timer);
    this.h.disable();
    return Math.max(0, this.longest, this.h.max / 1e6);
  }
}

// What loading a contender costs, as printCost prints it.
interface Cost {
  steps: { step: string; ms: number; stall: number; delay: number }[];
  longest: number;
  rssLoaded: number;
  rssDialog: number;
  parts?: Record<string, number>;
}

// What the process's resident memory is, in bytes, by kind (from
// /proc/self/smaps, where there is one): the dialog module's linear memory
// (its Go heap and data, as large as it has grown), machine code (V8's
// executable anonymous mappings: the module's compiled functions, and
// JavaScript's), V8's JavaScript heap, and the rest of the anonymous
// memory (malloc's: compilers' zones, the module's bytes V8 keeps).
function memoryParts(m: DialogModule | undefined): Record<string, number> {
  const parts: Record<string, number> = {};
  const linear = (m as unknown as { x?: { memory?: WebAssembly.Memory } } | undefined)?.x?.memory?.buffer.byteLength;
  if (linear !== undefined) parts["module's linear memory (size)"] = linear;
  parts["V8's JavaScript heap (total)"] = process.memoryUsage().heapTotal;
  let smaps: string;
  try {
    smaps = readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return parts;
  }
  let code = 0;
  let anon = 0;
  for (const map of smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = map.slice(0, map.indexOf("\n")).split(/\s+/);
    const rss = Number(/\nRss:\s+(\d+) kB/.exec(map)?.[1] ?? 0) * 1024;
    const file = head[5] !== undefined && head[5] !== "" && head[5] !== "[heap]";
    if (file) continue;
    if (head[1]!.includes("x")) code += rss;
    else anon += rss;
  }
  parts["machine code, resident (V8's executable memory)"] = code;
  parts["anonymous memory, resident (all the rest: heaps, malloc)"] = anon;
  return parts;
}

// The bytes a contender ships and their gzip: askuser's module, the peer's
// package folder (its own files, without its dependencies).
function shipped(who: Contender): [number, number] {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.name === "node_modules" ? [] : e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
  const paths = who === "rpiv" ? files(join(peerEntry, "..")) : [wasmPath];
  let size = 0;
  let gz = 0;
  for (const p of paths) {
    size += statSync(p).size;
    gz += gzipSync(readFileSync(p), { level: 9 }).length;
  }
  return [size, gz];
}

// Loads the contender as Pi would, then opens its first dialog and
// types, resizes it to 200 columns, and opens a dialog with previews at
// 200 columns, under a StallWatch; prints the Cost. Run with
// --expose-gc, so that resident memory is taken after a collection.
async function printCost(who: Contender) {
  if (!contenders.includes(who)) throw new Error(`bench: --cost takes a contender of ${contenders.join(", ")}, not ${who}`);
  initTheme(undefined, false);
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const rss = () => {
    gc();
    return process.memoryUsage().rss;
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await sleep(50);
  const before = rss();
  const w = new StallWatch();
  let module: DialogModule | undefined;
  if (who === "rpiv") {
    const factory: unknown = await createJiti(import.meta.url, { moduleCache: false }).import(peerEntry, { default: true });
    if (typeof factory === "function") factory(fakePi().pi);
    w.mark("load");
  } else if (who === "wasm") {
    module = await dialogModule(wasmPath, (step: LoadStep) => w.mark(step));
    if (!module) throw new Error(`the dialog module ${wasmPath} did not load: make pi-binary builds it`);
  }
  await sleep(20);
  w.mark("idle");
  const rssLoaded = w.aside(rss) - before;
  // Pi's session starts the child a moment after the package loads.
  const d = await dialog(who, 100, false, false, false, async () => {
    await sleep(20);
    w.mark("child spawned (in Pi, at session start)");
  });
  for (let i = 0; i < 20; i++) {
    await sleep(20);
    await d.key(i);
  }
  w.mark("first dialog, 20 keys");
  const rssDialog = w.aside(rss) - before;
  const parts = detail ? w.aside(() => memoryParts(module)) : undefined;
  await sleep(20);
  d.screen(200);
  await d.key(0);
  await sleep(20);
  w.mark("resize to 200 columns");
  await d.close();
  const p = await dialog(who, 200, true);
  for (let i = 0; i < 20; i++) {
    await sleep(20);
    await p.key(i);
  }
  w.mark("previews at 200 columns, 20 keys");
  await p.close();
  const longest = w.stop();
  const cost: Cost = { steps: w.steps, longest, rssLoaded, rssDialog, parts };
  console.log(JSON.stringify(cost));
}

// What each contender costs Pi (printCost), each in a fresh Node, runs
// taking turns; the longest stall is the worst of the runs, memory and
// steps' times the median.
function loadCost() {
  const runs = quick ? 1 : 3;
  const got: Partial<Record<Contender, Cost[]>> = {};
  for (let r = 0; r < runs; r++) {
    for (const who of ["wasm", "askuser", "rpiv"] as const) {
      const out = spawnSync(process.execPath, ["--expose-gc", new URL(import.meta.url).pathname, `--cost=${who}`, ...(detail ? ["--detail"] : [])], { encoding: "utf8" });
      if (out.status !== 0) throw new Error(`bench --cost=${who} failed: ${out.stderr}`);
      (got[who] ??= []).push(JSON.parse(out.stdout) as Cost);
    }
  }
  const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
  const max = (xs: number[]) => Math.max(...xs);
  const a = got.wasm!;
  const b = got.rpiv!;
  const [size, gz] = shipped("wasm");
  const [psize, pgz] = shipped("rpiv");
  row(`shipped size (gzip): askuser's dialog module / the peer's package`, `${(size / 1e6).toFixed(2)} MB (${(gz / 1e6).toFixed(2)} MB)`, "≤ 3 MB (≤ 1 MB)", `${(psize / 1e6).toFixed(2)} MB (${(pgz / 1e6).toFixed(2)} MB)`);
  row(`longest stall of Pi's event loop, load to previews at 200 columns, worst of ${runs}`, ms(max(a.map((c) => c.longest))), "≤ 8 ms", ms(max(b.map((c) => c.longest))));
  for (const [i, s] of a[0]!.steps.entries()) {
    const stall = max(a.map((c) => c.steps[i]!.stall));
    const peer = b[0]!.steps.find((t) => t.step === s.step);
    const peerStall = peer ? ms(max(b.map((c) => { const t = c.steps.find((t) => t.step === s.step)!; return t.stall; }))) : "";
    row(`  ${s.step}: step's time, median / longest stall in it`, `${ms(median(a.map((c) => c.steps[i]!.ms)))} / ${ms(stall)}`, "", peer ? `${ms(median(b.map((c) => c.steps.find((t) => t.step === s.step)!.ms)))} / ${peerStall}` : "");
  }
  const peerLoad = b[0]!.steps.find((t) => t.step === "load");
  if (peerLoad) row(`  the peer's load (jiti import and factory): step's time, median / longest stall`, "", "", `${ms(median(b.map((c) => c.steps[0]!.ms)))} / ${ms(max(b.map((c) => c.steps[0]!.stall)))}`);
  row(`resident memory added to Pi, loaded / with a dialog open, medians`, `${mib(median(a.map((c) => c.rssLoaded)))} / ${mib(median(a.map((c) => c.rssDialog)))}`, "≤ 20 MiB", `${mib(median(b.map((c) => c.rssLoaded)))} / ${mib(median(b.map((c) => c.rssDialog)))}`);
  printParts(a, b, mib);
  // The child route alone: no module, every frame drawn by the child,
  // the likely next keys' ahead of them.
  const c = got.askuser!;
  row(`without the module (the child draws): longest stall, worst of ${runs}`, ms(max(c.map((x) => x.longest))), "≤ 8 ms", ms(max(b.map((x) => x.longest))));
  for (const [i, s] of c[0]!.steps.entries()) {
    row(`  ${s.step}: step's time, median / longest stall in it`, `${ms(median(c.map((x) => x.steps[i]!.ms)))} / ${ms(max(c.map((x) => x.steps[i]!.stall)))}`, "", "");
  }
  row(`without the module: resident memory added to Pi, loaded / with a dialog open, medians`, `${mib(median(c.map((x) => x.rssLoaded)))} / ${mib(median(c.map((x) => x.rssDialog)))}`, "≤ 20 MiB", `${mib(median(b.map((x) => x.rssLoaded)))} / ${mib(median(b.map((x) => x.rssDialog)))}`);
}

// The rows of --detail: each of memoryParts with a dialog open, medians.
function printParts(a: Cost[], b: Cost[], mib: (n: number) => string) {
  for (const name of Object.keys(a[0]!.parts ?? {})) {
    const of = (cs: Cost[]) => (cs.every((c) => c.parts?.[name] !== undefined) ? mib(median(cs.map((c) => c.parts![name]!))) : "");
    row(`  in the whole process, with a dialog open: ${name}, median`, of(a), "", of(b));
  }
}

// The children are unref'd so that they never keep Pi alive; this keeps
// the bench alive while it waits on them.
const keepAlive = setInterval(() => {}, 1000);
const sections: [string, () => unknown][] = [
  ["key", keyToFrame],
  ["first", firstKeys],
  ["pace", keysAtPace],
  ["typed", typedAtPace],
  ["shapes", shapesAtPace],
  ["call", callToFrame],
  ["screen", callToScreen],
  ["child", childReady],
  ["session", sessionStart],
  ["startup", piStartup],
  ["cost", loadCost],
];
// Names given on the command line (`node bench/bench.ts key`) pick the
// sections to run; none runs them all.
const first = process.argv.find((a) => a.startsWith("--first="))?.slice("--first=".length);
if (first !== undefined) {
  if (!contenders.includes(first as Contender)) throw new Error(`bench: --first takes ${contenders.join(", ")}, not ${first}`);
  await printFirstKeys(first as Contender);
  process.exit(0);
}
const costOf = process.argv.find((a) => a.startsWith("--cost="))?.slice("--cost=".length);
if (costOf !== undefined) {
  await printCost(costOf as Contender);
  process.exit(0);
}
const paced = process.argv.find((a) => a.startsWith("--alone="))?.slice("--alone=".length);
if (paced !== undefined) {
  await printAlone(JSON.parse(paced) as Alone);
  process.exit(0);
}
const picked = process.argv.slice(2).filter((a) => !a.startsWith("--"));
for (const name of picked) {
  if (!sections.some(([n]) => n === name)) {
    console.error(`bench: unknown section ${JSON.stringify(name)}; the sections are ${sections.map(([n]) => n).join(", ")}`);
    process.exit(2);
  }
}
for (const [name, run] of sections) if (picked.length === 0 || picked.includes(name)) await run();

const head: [string, string, string, string, string] = ["figure", "askuser", "rpiv 2.11.0", "askuser faster by", "budget"];
const w = [0, 1, 2, 3].map((i) => Math.max(head[i]!.length, ...rows.map((r) => r[i]!.length)));
for (const r of [head, ...rows]) console.log(r.map((c, i) => (i < 4 ? c.padEnd(w[i]!) : c)).join("  "));
for (const t of tables) console.log(`\n${t}`);
clearInterval(keepAlive);
process.exit(0);
