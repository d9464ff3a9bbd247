// The in-process dialog (src/wasm.ts, cmd/askuser-dialog-wasm): the
// loader and its failures, which print nothing, and the custom route with
// it, which draws what the child draws and falls back to the child.
import assert from "node:assert/strict";
import { test } from "node:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAskUser } from "../index.ts";
import { EXCHANGE_WAIT_MS, exchangeDefaults } from "../src/child.ts";
import type { ToChild } from "../src/protocol.ts";
import { CustomView, MAX_MISMATCHES } from "../src/ui.ts";
import { TEXT_TRIED_KEYS, TRIED_KEYS } from "../src/tries.ts";
import { DialogModule, dialogModule, findDialogModule, LocalDialog, type LocalFrame, WASM_FILE } from "../src/wasm.ts";
import { fakeCtx, noConfig, pkgDir, type Shown, until } from "./fake.ts";
import { tempDir } from "./tempdir.ts";

const wasm = join(pkgDir, "bin", WASM_FILE);
const built = findDialogModule(pkgDir) !== undefined;
const skip = built ? false : `no ${wasm}: make pi-binary builds it`;

// What a Node of its own prints while it runs code, an ES module.
function printedBy(code: string): string {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", cwd: pkgDir });
  assert.equal(r.status, 0, `the script failed: ${r.stderr}`);
  return r.stdout + r.stderr;
}

test("wasm loader: a missing, a broken and a foreign module are errors, and nothing is printed", async () => {
  const dir = tempDir("askuser-wasm-");
  const notWasm = join(dir, "not.wasm");
  writeFileSync(notWasm, "not a module");
  const empty = join(dir, "empty.wasm");
  writeFileSync(empty, Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])); // a valid module with nothing in it
  const cases: [string, string, RegExp][] = [
    ["missing", join(dir, "none.wasm"), /could not be loaded/],
    ["not WebAssembly", notWasm, /could not be loaded/],
    ["not askuser's", empty, /not askuser's dialog module/],
  ];
  for (const [name, path, want] of cases) {
    const value = await DialogModule.load(path);
    assert.ok(!(value instanceof DialogModule), name);
    assert.match((value as { error: string }).error, want, name);
    assert.equal(await dialogModule(path), undefined, name);
  }
  assert.equal(await dialogModule(""), undefined, "no module");
  assert.equal(findDialogModule(dir), undefined);
  const paths = JSON.stringify(cases.map((c) => c[1]));
  assert.equal(printedBy(`import { dialogModule } from "./src/wasm.ts"; for (const p of ${paths}) await dialogModule(p);`), "");
});

test("wasm loader: the package's module loads without a word on the terminal, and draws", { skip }, async () => {
  const m = await dialogModule(wasm);
  assert.ok(m instanceof DialogModule);
  const d = m.open({ dialog: "ask_user", request: { questions: [{ title: "Deploy where?", kind: "single", options: [{ label: "staging" }, { label: "prod" }] }] } });
  assert.ok(d);
  const f = d.resize(60, 20);
  assert.match(f?.lines.join("\n") ?? "", /Deploy where\?/);
  assert.equal(m.open({ dialog: "nonsense", request: {} }), undefined, "a spec the child never sends");
  assert.equal(m.broken, undefined, "a bad spec breaks nothing");
  d.close();
  assert.equal(d.key({ key: "down" }), undefined, "a closed dialog draws nothing");
  const use = `const d = m.open({ dialog: "ask_user", request: { questions: [{ title: "Q", kind: "input" }] } }); d.resize(80, 24); d.key({ text: "x" });`;
  assert.equal(printedBy(`import { dialogModule } from "./src/wasm.ts"; const m = await dialogModule(${JSON.stringify(wasm)}); ${use}`), "");
});

// The worker runs at the lowest priority: beside a whole test run it may
// wait long for the CPU, so the test gives it ten minutes, not the load's
// ten seconds.
test("wasm precompile: the worker runs the dialogs to the end, or fails, with nothing printed and nothing left running", { skip }, async () => {
  const dir = tempDir("askuser-wasm-");
  const empty = join(dir, "empty.wasm");
  writeFileSync(empty, Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  const spec = { dialog: "ask_user", request: { questions: [{ title: "Q", kind: "single", options: [{ label: "a" }, { label: "b" }] }, { title: "Name?", kind: "input" }] } };
  const code = `import { readFileSync } from "node:fs"; import { precompile } from "./src/precompile.ts";
    const ran = [];
    for (const p of ${JSON.stringify([wasm, empty])}) ran.push(await precompile(await WebAssembly.compile(readFileSync(p)), [${JSON.stringify(spec)}], [{ key: "down" }, { key: "tab" }, { text: "x" }], 600_000));
    console.log(JSON.stringify(ran));`;
  assert.equal(printedBy(code), "[true,false]\n");
});

const questions = {
  questions: [
    { title: "Deploy where?", options: [{ label: "staging" }, { label: "prod", description: "production" }, { label: "canary" }] },
    { title: "Release name", kind: "input" as const },
  ],
};
const keys = ["\x1b[B", "\x1b[B", "\x1b[A", " ", "\t", "v", "h", "Q", "1", "\x7f", "\x17", "2", "\x1b[D", "\x1b[Z", "\x1b[B", "\x1bz"];

// Runs f and returns what it gave with how many keys the module drew
// while it ran: the keys whose frames had not been tried before.
async function drawnDuring<T>(f: () => T | Promise<T>): Promise<{ value: T; drawn: number }> {
  let drawn = 0;
  const key = DialogModule.prototype.key;
  DialogModule.prototype.key = function (...a) {
    drawn++;
    return key.apply(this, a);
  };
  try {
    return { value: await f(), drawn };
  } finally {
    DialogModule.prototype.key = key;
  }
}

// A question with a countdown of 3.5 s from now, to open on the module.
const countdownSpec = () =>
  ({ dialog: "ask_user", deadline: Math.round((Date.now() + 3_500) * 1000), request: { questions: [{ title: "Deploy where?", kind: "single", options: [{ label: "staging" }, { label: "prod" }] }] } }) as const;

// A key the module tried, and when (Date.now()).
type Tried = { key: string; at: number };

// Records the keys the module tries (DialogModule.try) while f runs; f
// is given the record, which grows.
async function triedDuring<T>(f: (tried: Tried[]) => Promise<T>): Promise<T> {
  const tried: Tried[] = [];
  const tryKey = DialogModule.prototype.try;
  DialogModule.prototype.try = function (...a) {
    tried.push({ key: JSON.stringify(a[1]), at: Date.now() });
    return tryKey.apply(this, a);
  };
  try {
    return await f(tried);
  } finally {
    DialogModule.prototype.try = tryKey;
  }
}

// Whether the keys tried end with a whole run of tries: each of
// TRIED_KEYS, or of TEXT_TRIED_KEYS in a text input, in order. A key or a
// size during a run starts it over.
const triedAll = (tried: Tried[]) =>
  [TRIED_KEYS, TEXT_TRIED_KEYS].some(
    (keys) =>
      tried
        .slice(-keys.length)
        .map((t) => t.key)
        .join() === keys.map((k) => JSON.stringify(k)).join(),
  );

// Waits until the keys tried end with a whole run of tries, polling, until
// end (Date.now()) at most: should the module not try them, the test goes
// on and the keys it draws when they come tell.
async function untilTried(tried: Tried[], end = Date.now() + 20_000): Promise<void> {
  while (!triedAll(tried) && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}

// Asks questions on a fake Pi at width columns with the given module (or
// false for none), types keys, and returns the screen after each key and
// the call's result, with how many keys went the child's synchronous way
// and how many the module drew when they came. paced types the keys at a
// person's pace: each key comes once Pi is idle, the module having tried
// the likely next keys since the size or the key before; without it, the
// keys come at once.
async function run(module: string | false, width: number, paced = false) {
  return triedDuring(async (tried) => {
    const f = fakeCtx("tui", { cols: width, rows: 30 });
    const ask = createAskUser(f.ctx, { ...noConfig, timeoutPerQuestionMs: 0, dialogModule: module });
    if (module !== false) assert.ok(await ask.host.loadModule(), "the module loaded");
    tried.length = 0; // the warm-up's tries do not count
    const p = ask(questions);
    const views = new Set<{ unanswered: number; expected: unknown[] }>();
    const frame = CustomView.prototype.frame;
    CustomView.prototype.frame = function (...a) {
      views.add(this as unknown as { unanswered: number; expected: unknown[] });
      return frame.apply(this, a);
    };
    const s: Shown = await until("the dialog", () => (f.shown[0]?.component && f.shown[0].component.render(width).length > 0 ? f.shown[0] : undefined));
    let exchanges = 0;
    let posted = 0; // keys sent without waiting for their frames
    const child = ask.host.process!;
    child.onExchange = () => exchanges++;
    const send = child.send.bind(child);
    child.send = (m) => {
      if (m.type === "key") posted++;
      send(m);
    };
    const screens: string[] = [];
    const end = Date.now() + 20_000;
    // The keys the module drew while Pi handled them, not those it drew
    // while Pi was idle.
    let drawn = 0;
    for (const k of keys) {
      if (paced) {
        await untilTried(tried, end);
        tried.length = 0;
      }
      drawn += (await drawnDuring(() => f.type(k))).drawn;
      screens.push(s.component!.render(width).join("\n"));
    }
    // The child's frame for the same keys: once the child has caught up
    // (the view counts no key or size it has not answered), its frame is
    // what is shown.
    await until("the child to answer every key", () => views.size > 0 && [...views].every((v) => v.unanswered === 0 && v.expected.length === 0), 20_000).finally(
      () => (CustomView.prototype.frame = frame),
    );
    const settled = s.component!.render(width).join("\n");
    f.type("\x1b[13;5u"); // ctrl+enter submits
    const res = await p;
    return { screens, settled, res, exchanges, posted, drawn };
  });
}

test("wasm route: every key's frame is drawn in process at once, the same as the child's, and the child answers", { skip }, async (t) => {
  // Without the module each key waits for the child's frame; a long wait
  // keeps a busy machine from sending it through the event loop instead.
  exchangeDefaults.waitMs = 10_000;
  t.after(() => (exchangeDefaults.waitMs = EXCHANGE_WAIT_MS));
  for (const width of [80, 100, 200]) {
    const local = await run(wasm, width);
    const child = await run(false, width);
    assert.deepEqual(local.screens, child.screens, `${width} columns: the frames`);
    assert.equal(local.settled, child.settled, `${width} columns: the child's frame after the keys`);
    assert.equal(local.settled, local.screens.at(-1), `${width} columns: the copy and the child agree`);
    assert.equal(local.exchanges, 1, `${width} columns: only the key that ended the dialog waited for the child`);
    // Without the module, a key waits for the child unless the child drew
    // its frame ahead: for a key that comes when the child has answered
    // every key before it and sent the frames ahead, which the turns of
    // the event loop between these keys may give it time to do.
    assert.equal(child.exchanges + child.posted, keys.length + 1, `${width} columns: every key went to the child once`);
    assert.deepEqual(local.res, child.res, `${width} columns: the result`);
  }
});

test("wasm route: keys at a person's pace show the frames tried while Pi was idle, the same as the child's", { skip }, async (t) => {
  exchangeDefaults.waitMs = 10_000;
  t.after(() => (exchangeDefaults.waitMs = EXCHANGE_WAIT_MS));
  for (const width of [80, 200]) {
    const local = await run(wasm, width, true);
    const child = await run(false, width);
    assert.deepEqual(local.screens, child.screens, `${width} columns: the frames`);
    assert.equal(local.settled, child.settled, `${width} columns: the child's frame after the keys`);
    assert.deepEqual(local.res, child.res, `${width} columns: the result`);
    // Digits ("1", "2") and alt+z are not tried: the module draws those
    // keys when they come, and no other. The letters' frames come from
    // the tried probes' (LETTER_CLASSES).
    assert.equal(local.drawn, 3, `${width} columns: keys the module drew when they came`);
  }
});

test("wasm route: the keys' frames of the countdown's next second are tried before it turns, and a key just after the turn shows one", { skip }, async () => {
  const m = await dialogModule(wasm);
  assert.ok(m);
  const spec = countdownSpec();
  const d = m.open(spec)!;
  d.resize(80, 20);
  // The countdown shows 0:04; from its turn on, 0:03. The key comes just
  // past the turn, with Pi's loop busy until then: no try runs after the
  // turn before it.
  const turn = Date.now() + ((spec.deadline / 1000 - Date.now()) % 1000);
  const { ahead, tried, drawn } = await triedDuring(async (record) => {
    await new Promise((r) => setTimeout(r, turn - Date.now() - 30));
    const ahead = record.filter((t) => t.at > turn - 300).length;
    while (Date.now() < turn + 5) {} // spins past the turn and its room
    const { value, drawn } = await drawnDuring(() => d.key({ key: "down" }));
    return { ahead, tried: value, drawn };
  });
  d.close();
  const fresh = m.open(spec)!;
  fresh.resize(80, 20);
  const want = fresh.key({ key: "down" });
  fresh.close();
  assert.ok(ahead >= TRIED_KEYS.length - 2, `the keys were tried for the next second before it turned (${ahead} tries)`);
  assert.equal(drawn, 0, "the key's frame was tried");
  assert.ok(want && want !== "ended" && want.lines.join("\n").includes("0:03"), "the countdown shows its second");
  assert.deepEqual(tried && tried !== "ended" ? tried.lines : tried, want.lines, "the tried frame shows the countdown as it is now");
});

test("wasm route: a key just after the countdown's second turns still has the next key tried", { skip }, async () => {
  const m = await dialogModule(wasm);
  assert.ok(m);
  const spec = countdownSpec();
  const d = m.open(spec)!;
  d.resize(80, 20);
  // A key a few hundred µs after the turn: the tries after it must wait
  // until the module's clock is clear of the turn, or their frames would
  // be refused for the whole second.
  const turn = Date.now() + ((spec.deadline / 1000 - Date.now()) % 1000);
  await new Promise((r) => setTimeout(r, turn - Date.now() - 20));
  const { drawn } = await triedDuring(async (tried) => {
    while (Date.now() < turn) {} // spins the last milliseconds to the turn
    d.key({ key: "down" });
    tried.length = 0;
    await untilTried(tried);
    return drawnDuring(() => d.key({ key: "up" }));
  });
  assert.equal(drawn, 0, "the key's frame was tried in its second");
  d.close();
});

test("wasm route: without a loadable module the child draws, and its frames drawn ahead show keys at once", async (t) => {
  exchangeDefaults.waitMs = 10_000;
  t.after(() => (exchangeDefaults.waitMs = EXCHANGE_WAIT_MS));
  const dir = tempDir("askuser-wasm-");
  const bad = join(dir, WASM_FILE);
  writeFileSync(bad, "not a module");
  {
    const f = fakeCtx("tui", { cols: 80, rows: 30 });
    const ask = createAskUser(f.ctx, { ...noConfig, dialogModule: bad });
    assert.equal(await ask.host.loadModule(), undefined);
    const p = ask(questions);
    const s = await until("the dialog", () => (f.shown[0]?.component && f.shown[0].component.render(80).join("\n").includes("Deploy where?") ? f.shown[0] : undefined));
    let exchanges = 0;
    ask.host.process!.onExchange = () => exchanges++;
    f.type("\x07"); // ctrl+g: no key of the dialog, and not drawn ahead
    assert.equal(exchanges, 1, "the key waited for the child");
    let tried = 0;
    const tries = CustomView.prototype.tries;
    CustomView.prototype.tries = function (m) {
      tried++;
      return tries.call(this, m);
    };
    t.after(() => (CustomView.prototype.tries = tries));
    await until("the frames drawn ahead", () => tried > 0);
    f.type("\x1b[B");
    assert.match(s.component!.render(80).find((l) => l.includes("▸")) ?? "", /prod/, "the child's frame, drawn ahead");
    assert.equal(exchanges, 1, "the key did not wait for the child");
    f.type("\x1b");
    assert.equal((await p).status, "aborted");
  }
});

test("wasm route: the child's frame wins once it has caught up, ticks show, and a copy that keeps disagreeing is dropped", async () => {
  const f = fakeCtx("tui", { cols: 40, rows: 10 });
  const sent: ToChild[] = [];
  const viaExchange: ToChild[] = [];
  let n = 0;
  const local = {
    closed: false,
    resize: () => ({ lines: ["copy size"] }),
    key: () => ({ lines: [`copy ${++n}`] }),
    close() {
      this.closed = true;
    },
  };
  const view = new CustomView(f.ctx, (m) => sent.push(m), "c1", { type: "open", call: "c1", display: "inline", toggleKey: "" }, (m) => viaExchange.push(m), () => local as unknown as LocalDialog);
  const s = await until("the component", () => (f.shown[0]?.component ? f.shown[0] : undefined));
  const screen = () => s.component!.render(40).join("\n");
  assert.equal(screen(), "copy size", "the copy's first frame, before the child's");
  const frame = (lines: string[], tick = false) => view.frame({ type: "frame", call: "c1", lines, ...(tick ? { tick: true } : {}) });
  frame(["copy size"]); // the child's answer to the size: the same
  f.type("\x1b[B");
  f.type("\x1b[B");
  assert.equal(screen(), "copy 2", "each key's frame at once");
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(sent.map((m) => m.type), ["resize", "key", "key"], "the keys went to the child after the render");
  frame(["copy 1"]);
  assert.equal(screen(), "copy 2", "while the child is behind, the copy's frame stays");
  frame(["tick"], true);
  assert.equal(screen(), "copy 2", "a tick while the child is behind changes nothing");
  frame(["copy 2"]);
  frame(["tick 2"], true);
  assert.equal(screen(), "tick 2", "a tick once the child has caught up shows");
  for (let i = 0; i < MAX_MISMATCHES; i++) {
    f.type("\x1b[B");
    frame([`the child's ${i}`]);
    assert.equal(screen(), `the child's ${i}`, "the child's frame replaces a copy's that differs");
  }
  assert.equal(local.closed, true, "the copy is dropped");
  f.type("\x1b[A");
  assert.equal(viaExchange.length, 1, "keys wait for the child again");
  view.close();
});

test("wasm route: a copy made after the dialog opened is given its sizes and keys, and used only when it draws what the child drew", async () => {
  for (const agrees of [true, false]) {
    const f = fakeCtx("tui", { cols: 40, rows: 10 });
    const viaExchange: ToChild[] = [];
    let ready = false;
    let n = 0;
    const replayed: string[] = [];
    const local = {
      resize: (w: number) => (replayed.push(`size ${w}`), { lines: ["child 0"] }),
      key: (k: { key?: string }) => (replayed.push(`key ${k.key}`), { lines: [agrees ? `child ${++n}` : "something else"] }),
      close: () => {},
    };
    const view = new CustomView(f.ctx, () => {}, "c1", { type: "open", call: "c1", display: "inline", toggleKey: "" }, (m) => viaExchange.push(m), () =>
      ready ? (local as unknown as LocalDialog) : undefined,
    );
    const frame = (lines: string[]) => view.frame({ type: "frame", call: "c1", lines });
    const s = await until("the component", () => (f.shown[0]?.component ? f.shown[0] : (frame(["child 0"]), undefined)));
    const screen = () => s.component!.render(40).join("\n");
    f.type("\x1b[B");
    frame(["child 1"]);
    ready = true;
    f.type("\x1b[B");
    if (agrees) {
      assert.deepEqual(replayed, ["size 40", "key down", "key down"], "the size and the first key, then the new key");
      assert.equal(screen(), "child 2", "the copy's frame at once");
      assert.equal(viaExchange.length, 1, "only the key before the copy waited for the child");
    } else {
      assert.deepEqual(replayed, ["size 40", "key down"], "the copy drew otherwise, and was not used");
      assert.equal(viaExchange.length, 2, "every key waits for the child");
    }
    view.close();
  }
});

test("wasm route: a typed letter's frame comes from the two probes' tried frames, and a frame the module then draws otherwise is shown, and ends that", async () => {
  // A module whose text input shows "ab" and the letter typed; it draws
  // "x" with a warning, as no template can know.
  const drawn: string[] = [];
  const tried: string[] = [];
  const frameOf = (text: string): LocalFrame => ({
    lines: ["Name?", `> ab${text}`, text === "x" ? "no x here" : "enter confirm"],
    cursor: { row: 1, col: 4 + [...text].length },
  });
  const fake = {
    resize: () => frameOf(""),
    try: (_id: number, k: { text?: string; key?: string }) => (tried.push(k.text ?? k.key!), frameOf(k.text ?? "")),
    key: (_id: number, k: { text?: string; key?: string }) => (drawn.push(k.text ?? k.key!), frameOf(k.text ?? "")),
    adopt: () => true,
    close: () => {},
  };
  const d = new LocalDialog(fake as unknown as DialogModule, 1);
  const corrected: LocalFrame[] = [];
  d.onCorrected = (f) => corrected.push(f);
  const triedAllText = async () => {
    tried.length = 0;
    await until("the text keys tried", () => tried.length === TEXT_TRIED_KEYS.length);
  };
  d.resize(40, 10);
  await triedAllText();
  const cases: [string, string, boolean][] = [
    // letter, the line shown, whether the module drew it as it came
    ["k", "> abk", false],
    ["Z", "> abZ", false],
    ["7", "> ab7", true], // a digit is no letter of a class
    ["x", "> abx", false], // shown from the template; the module then corrects it
    ["k", "> abk", true], // no template is used after that
  ];
  for (const [letter, line, cold] of cases) {
    drawn.length = 0;
    const f = d.key({ text: letter });
    assert.ok(f && f !== "ended");
    assert.equal(f.lines[1], line, letter);
    assert.deepEqual(drawn, cold ? [letter] : [], `${letter}: drawn by the module as it came`);
    await triedAllText();
    assert.deepEqual(drawn, [letter], `${letter}: the module has the letter once Pi is idle`);
  }
  assert.deepEqual(
    corrected.map((f) => f.lines[2]),
    ["no x here"],
    "the module's own frame for the letter the template drew otherwise",
  );
  d.close();
});

// Types keys into a dialog of the module at a person's pace (each once
// the keys after the last are tried) and the same keys into another at
// once (none tried), and returns both frames' lines for each key and how
// many keys the module drew as they came at pace.
async function pacedAndCold(m: DialogModule, spec: Parameters<DialogModule["open"]>[0], keys: { key: string }[] | ({ key: string } | { text: string })[]) {
  const lines = (f: LocalFrame | "ended" | undefined) => (f && f !== "ended" ? f.lines.join("\n") : String(f));
  // The cold dialog's keys all at once, and closed before its first try.
  const cold = m.open(spec)!;
  cold.resize(100, 30);
  const want = keys.map((k) => lines(cold.key(k)));
  cold.close();
  const paced = m.open(spec)!;
  paced.resize(100, 30);
  const frames: { paced: string; cold: string }[] = [];
  let drawn = 0;
  await triedDuring(async (tried) => {
    for (const [i, k] of keys.entries()) {
      await untilTried(tried);
      tried.length = 0;
      const got = await drawnDuring(() => paced.key(k));
      drawn += got.drawn;
      frames.push({ paced: lines(got.value), cold: want[i]! });
    }
  });
  paced.close();
  return { frames, drawn };
}

test("wasm route: Esc and Enter on a review page, at a person's pace, show frames tried while Pi was idle, the same as the module's", { skip }, async () => {
  const m = await dialogModule(wasm);
  assert.ok(m);
  const spec = {
    dialog: "questions",
    request: {
      questions: [
        { id: "q1", question: "Which layout?", header: "Layout", multiSelect: false, options: [{ id: "o1", label: "grid", description: "a grid" }, { id: "o2", label: "list", description: "a list" }] },
        { id: "q2", question: "Which parts?", header: "Parts", multiSelect: true, options: [{ id: "o3", label: "p", description: "q" }, { id: "o4", label: "r", description: "s" }] },
      ],
    },
  } as const;
  // To the review; Enter there says what is unanswered; Esc asks before
  // it dismisses; Enter on a question's row goes to it; Esc leaves the
  // Other input.
  const keys = ["tab", "tab", "enter", "escape", "enter", "down", "down", "down", "enter", "escape", "escape", "down"].map((key) => ({ key }));
  const { frames, drawn } = await pacedAndCold(m, spec, keys);
  for (const [i, f] of frames.entries()) assert.equal(f.paced, f.cold, `after ${keys[i]!.key} (key ${i})`);
  assert.match(frames[2]!.paced, /Answer “Layout”/, "Enter on the review says what is unanswered");
  assert.match(frames[3]!.paced, /Press Esc again to dismiss/, "the first Esc asks");
  assert.equal(drawn, 0, "every key's frame was tried");
});

test("wasm route: Alt+Q at a person's pace shows the stopped countdown tried while Pi was idle, and only the key stops it", { skip }, async () => {
  const m = await dialogModule(wasm);
  assert.ok(m);
  const spec = { ...countdownSpec(), deadline: Math.round((Date.now() + 600_000) * 1000) };
  const { frames, drawn } = await pacedAndCold(m, spec, [{ key: "down" }, { key: "alt+q" }, { key: "up" }]);
  assert.match(frames[0]!.paced, /\d:\d\d/, "the countdown runs after Alt+Q was tried and another key came");
  assert.doesNotMatch(frames[0]!.paced, /No timeout/, "a tried Alt+Q is not shown for another key");
  assert.match(frames[1]!.paced, /No timeout/, "Alt+Q's frame");
  assert.equal(frames[1]!.paced, frames[1]!.cold, "the tried frame is the module's");
  assert.equal(frames[2]!.paced, frames[2]!.cold, "the countdown stays stopped after Alt+Q was adopted");
  assert.equal(drawn, 0, "every key's frame was tried");
});
