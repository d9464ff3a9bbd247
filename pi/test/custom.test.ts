// The custom route through a fake ctx.ui.custom and the real askuser
// binary: frames clipped to the width, keys, the cursor marker, the
// overlay toggle and cleanup.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { CURSOR_MARKER, isKittyProtocolActive, setKittyProtocolActive, visibleWidth } from "@earendil-works/pi-tui";
import { createAskUser } from "../index.ts";
import { EXCHANGE_WAIT_MS, exchangeDefaults } from "../src/child.ts";
import type { Frame } from "../src/protocol.ts";
import { TEXT_TRIED_KEYS, TRIED_KEYS } from "../src/tries.ts";
import { CustomView, keyMessage } from "../src/ui.ts";
import { fakeCtx, noConfig, type Shown, until } from "./fake.ts";

const deploy = { questions: [{ title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }] }] };
const named = { questions: [{ title: "Project name", kind: "input" as const }] };

const screen = (s: Shown, width: number) => s.component!.render(width);
const shows = (s: Shown | undefined, width: number, text: string) => s?.component && screen(s, width).join("\n").includes(text);

test("keyMessage: Pi key names, text, Kitty printables, pastes; releases are nothing", () => {
  const cases: [string, string, ReturnType<typeof keyMessage>][] = [
    ["arrow", "\x1b[B", { key: "down" }],
    ["enter", "\r", { key: "enter" }],
    ["escape", "\x1b", { key: "escape" }],
    ["alt+q", "\x1bq", { key: "alt+q" }],
    ["shift+tab", "\x1b[Z", { key: "shift+tab" }],
    ["kitty ctrl+enter", "\x1b[13;5u", { key: "ctrl+enter" }],
    ["backspace", "\x7f", { key: "backspace" }],
    ["letter", "a", { text: "a" }],
    ["wide text", "日本", { text: "日本" }],
    ["kitty printable", "\x1b[97u", { text: "a" }],
    ["kitty shifted printable", "\x1b[97:65;2u", { text: "A" }],
    ["kitty release", "\x1b[97;1:3u", undefined],
    ["paste", "\x1b[200~two\nlines\x1b[201~", { text: "two\nlines" }],
    ["empty paste", "\x1b[200~\x1b[201~", undefined],
  ];
  // Twice: the second time from what the first parsed.
  for (const round of [1, 2]) for (const [name, data, want] of cases) assert.deepEqual(keyMessage(data), want, `${name} (${round})`);
  // What Pi's parse gives as the Kitty keyboard protocol is on or off.
  const kitty = isKittyProtocolActive();
  try {
    for (const [on, want] of [[false, "enter"], [true, "shift+enter"], [false, "enter"]] as const) {
      setKittyProtocolActive(on);
      assert.deepEqual(keyMessage("\n"), { key: want }, `a line feed with the Kitty protocol ${on ? "on" : "off"}`);
    }
  } finally {
    setKittyProtocolActive(kitty);
  }
});

test("custom: an overlay, keys answer it, every line fits the width, and it all goes away", async () => {
  const f = fakeCtx("tui", { cols: 60, rows: 20 });
  const p = createAskUser(f.ctx, noConfig)(deploy);
  const s = await until("the dialog", () => (shows(f.shown[0], 60, "Deploy where?") ? f.shown[0] : undefined));
  assert.equal(s.options.overlay, true);
  assert.equal(typeof s.options.onHandle, "function");
  assert.equal(f.listeners.size, 1, "the overlay listens for its toggle key");
  for (const width of [60, 25, 7, 1]) {
    const lines = screen(s, width);
    assert.ok(lines.length <= 18, `${lines.length} rows`);
    for (const l of lines) assert.ok(visibleWidth(l) <= width, `width ${width}: ${JSON.stringify(l)} is ${visibleWidth(l)} wide`);
  }
  f.type("\x1b[B");
  f.type("\r");
  const res = await p;
  assert.equal(res.status, "answered");
  assert.equal(res.route, "custom");
  assert.deepEqual(res.answers[0]!.selections, ["prod"]);
  assert.equal(s.settled, true, "the component is done");
  assert.equal(f.listeners.size, 0, "the raw listener is gone");
});

test("custom: a key's frame is on screen when handleInput returns, and enter closes the component at once", async (t) => {
  // The child's answer is waited for synchronously; a long wait keeps a
  // busy machine from sending it through the event loop instead.
  exchangeDefaults.waitMs = 10_000;
  t.after(() => (exchangeDefaults.waitMs = EXCHANGE_WAIT_MS));
  const f = fakeCtx("tui", { cols: 60, rows: 20 });
  const p = createAskUser(f.ctx, noConfig)(deploy);
  const s = await until("the dialog", () => (shows(f.shown[0], 60, "Deploy where?") ? f.shown[0] : undefined));
  const selected = () => screen(s, 60).find((l) => l.includes("▸"));
  assert.match(selected() ?? "", /staging/);
  f.type("\x1b[B");
  assert.match(selected() ?? "", /prod/, "the frame after down, with no wait");
  f.type("\x1bz"); // a key the dialog ignores still gets its frame
  assert.match(selected() ?? "", /prod/);
  f.type("\x1b[A");
  assert.match(selected() ?? "", /staging/, "the frame after up, with no wait");
  f.type("\r");
  assert.equal(s.settled, true, "the component is done when handleInput returns");
  assert.deepEqual((await p).answers[0]!.selections, ["staging"]);
});

test("custom: the IME cursor marker sits where the text input's cursor is", async () => {
  const f = fakeCtx("tui", { cols: 60, rows: 20 });
  const p = createAskUser(f.ctx, noConfig)(named);
  const s = await until("the dialog", () => (shows(f.shown[0], 60, "Project name") ? f.shown[0] : undefined));
  f.type("abc");
  const line = await until("the marker after abc", () => screen(s, 60).find((l) => l.includes(`abc${CURSOR_MARKER}`)));
  assert.equal(line.split(CURSOR_MARKER).length, 2, "one marker");
  s.component!.focused = false;
  assert.ok(!screen(s, 60).join("").includes(CURSOR_MARKER), "no marker when not focused");
  s.component!.focused = true;
  f.type("\x1b");
  assert.equal((await p).status, "aborted");
});

test("custom: the countdown redraws while no key is pressed", async () => {
  const f = fakeCtx("tui", { cols: 60, rows: 20 });
  const p = createAskUser(f.ctx, { ...noConfig, timeoutPerQuestionMs: 5000 })(deploy);
  const s = await until("the dialog", () => (shows(f.shown[0], 60, "0:0") ? f.shown[0] : undefined));
  const first = screen(s, 60)[0];
  await until("another second on the clock", () => screen(s, 60)[0] !== first, 3000);
  f.type("\x1b");
  await p;
});

test("custom: alt+o hides and shows; Kitty repeat and release are swallowed; one notice", async () => {
  const f = fakeCtx("tui", { cols: 60, rows: 20 });
  const p = createAskUser(f.ctx, noConfig)(deploy);
  const s = await until("the dialog", () => (shows(f.shown[0], 60, "Deploy where?") ? f.shown[0] : undefined));
  const steps: [string, string, boolean][] = [
    ["alt+o", "\x1bo", true],
    ["kitty repeat", "\x1b[111;3:2u", true],
    ["kitty release", "\x1b[111;3:3u", true],
    ["kitty press", "\x1b[111;3u", false],
    ["kitty release", "\x1b[111;3:3u", false],
    ["alt+o", "\x1bo", true],
    ["alt+o", "\x1bo", false],
  ];
  for (const [name, data, hidden] of steps) {
    f.type(data);
    assert.equal(s.handle.hidden, hidden, `after ${name}`);
  }
  assert.equal(f.notices.length, 1, `notices: ${f.notices}`);
  assert.match(f.notices[0]!, /alt\+o/);
  assert.equal(s.handle.focusCalls, 2, "shown again with focus");
  f.type("\x1b");
  assert.equal((await p).cancelledReason, "user");
  assert.equal(f.listeners.size, 0);
});

test("custom: inline registers no listener and has no toggle", async () => {
  const f = fakeCtx("tui", { cols: 60, rows: 20 });
  const p = createAskUser(f.ctx, { ...noConfig, displayMode: "inline" })(deploy);
  const s = await until("the dialog", () => (shows(f.shown[0], 60, "Deploy where?") ? f.shown[0] : undefined));
  assert.equal(s.options.overlay, false);
  assert.equal(f.listeners.size, 0);
  assert.ok(!screen(s, 60).join("\n").includes("alt+o"), "no hide hint");
  f.type("\x1b");
  await p;
});

test("custom: a custom() that never draws or resolves still ends at the deadline, and cleans up", async () => {
  const f = fakeCtx("tui");
  let opened = 0;
  f.ctx.ui.custom = () => {
    opened++;
    return new Promise(() => {});
  };
  const res = await createAskUser(f.ctx, { ...noConfig, timeoutPerQuestionMs: 300 })(deploy);
  assert.equal(opened, 1);
  assert.equal(res.status, "timeout");
  assert.equal(f.listeners.size, 0, "the raw listener is removed without custom() resolving");
});

test("custom: custom() that throws or rejects is custom_ui_failed", async () => {
  for (const [name, impl] of [
    ["throws", () => { throw new Error("no room"); }],
    ["rejects", () => Promise.reject(new Error("no room"))],
  ] as const) {
    const f = fakeCtx("tui");
    f.ctx.ui.custom = impl;
    const res = await createAskUser(f.ctx, noConfig)(deploy);
    assert.equal(res.error?.code, "custom_ui_failed", name);
    assert.match(res.error!.message, /no room/, name);
    assert.equal(f.listeners.size, 0, name);
  }
});

test("CustomView: a patch replaces the lines from at on and sets the length; kept lines are drawn as before", () => {
  const f = fakeCtx("tui", { cols: 20, rows: 12 });
  f.ctx.ui.custom = () => new Promise(() => {});
  const view = new CustomView(f.ctx, () => {}, "c1", { type: "open", call: "c1", display: "inline", toggleKey: "" });
  const render = (width: number) => (view as unknown as { render(w: number): string[] }).render(width);
  (view.component as { focused: boolean }).focused = true;
  const steps: [string, Omit<Frame, "type" | "call">, string[]][] = [
    ["whole", { lines: ["a", "b", "c", "d"] }, ["a", "b", "c", "d"]],
    ["one line", { at: 1, length: 4, lines: ["B"] }, ["a", "B", "c", "d"]],
    ["two lines, the rest kept", { at: 0, length: 4, lines: ["A", "b"] }, ["A", "b", "c", "d"]],
    ["nothing changed", { at: 0, length: 4, lines: [] }, ["A", "b", "c", "d"]],
    ["longer", { at: 4, length: 6, lines: ["e", "f"] }, ["A", "b", "c", "d", "e", "f"]],
    ["shorter", { at: 0, length: 2, lines: [] }, ["A", "b"]],
    ["shorter and changed", { at: 1, length: 2, lines: ["x"] }, ["A", "x"]],
    ["a cursor on a kept line", { at: 0, length: 2, lines: [], cursor: { row: 0, col: 1 } }, [`A${CURSOR_MARKER}`, "x"]],
    ["the cursor gone", { at: 0, length: 2, lines: [] }, ["A", "x"]],
    ["whole again", { lines: ["z"] }, ["z"]],
  ];
  for (const [name, msg, want] of steps) {
    view.frame({ type: "frame", call: "c1", ...msg });
    assert.deepEqual(render(20), want, name);
  }
  view.frame({ type: "frame", call: "c1", lines: ["wide line of text"] });
  assert.deepEqual(render(20), ["wide line of text"]);
  view.frame({ type: "frame", call: "c1", at: 0, length: 1, lines: [] });
  const clipped = render(4);
  assert.ok(clipped.length === 1 && clipped[0]!.startsWith("wide") && visibleWidth(clipped[0]!) === 4, `a kept line is clipped again at another width: ${JSON.stringify(clipped)}`);
  view.close();
});

test("CustomView: without an in-process copy, a frame the child drew ahead shows the moment its key comes; stale or bad ones are not used", async () => {
  const f = fakeCtx("tui", { cols: 20, rows: 12 });
  f.ctx.ui.custom = () => new Promise(() => {});
  const sent: any[] = [];
  const exchanged: [any, number][] = [];
  const view = new CustomView(f.ctx, (m) => sent.push(m), "c1", { type: "open", call: "c1", display: "inline", toggleKey: "" }, (m, n) => exchanged.push([m, n]));
  const render = () => (view as unknown as { render(w: number): string[] }).render(20);
  const type = (data: string) => view.component.handleInput(data);
  const settle = () => new Promise((r) => setImmediate(r));
  assert.deepEqual(sent[0], { type: "try", call: "c1", keys: [...TRIED_KEYS], typing: [...TEXT_TRIED_KEYS] }, "the child is asked first");
  (view.component as { focused: boolean }).focused = true;
  render(); // the size goes to the child; the frame answers it
  view.frame({ type: "frame", call: "c1", lines: ["q", "> a", "  b"] });
  view.tries({
    type: "tries",
    call: "c1",
    frames: [
      { key: "down", at: 1, length: 3, lines: ["  a", "> b"] },
      { key: "up", at: 0, length: 3, lines: [] },
      { text: "e", at: 0, length: 4, lines: ["q: e"], cursor: { row: 0, col: 4 } },
      { text: "t", at: 0, length: 4, lines: ["q: t"], cursor: { row: 0, col: 4 } },
      { key: "bad", at: 99, length: 3, lines: [] }, // past the frame's end: not used
      { key: "both", text: "x", at: 0, length: 3, lines: [] } as any,
    ],
  });
  type("\x1b[B");
  assert.deepEqual(render(), ["q", "  a", "> b"], "down's frame, drawn ahead, is on screen when handleInput returns");
  assert.equal(exchanged.length, 0, "the key did not wait for the child");
  assert.equal(sent.filter((m) => m.type === "key").length, 0, "the key goes to the child after Pi has rendered");
  await settle();
  assert.deepEqual(sent.at(-1), { type: "key", call: "c1", key: "down" });
  // A key before the child answered: the frames ahead were of the frame
  // before, so it waits for both answers.
  type("\x1b[A");
  assert.deepEqual(exchanged, [[{ type: "key", call: "c1", key: "up" }, 2]], "up waits for the child's two frames");
  view.frame({ type: "frame", call: "c1", at: 1, length: 3, lines: ["  a", "> b"] });
  view.frame({ type: "frame", call: "c1", at: 1, length: 3, lines: ["> a", "  b"] });
  assert.deepEqual(render(), ["q", "> a", "  b"]);
  // Tries that come while a key is unanswered are stale.
  type("\x1b[B");
  view.tries({ type: "tries", call: "c1", frames: [{ key: "down", at: 0, length: 1, lines: ["stale"] }] });
  view.frame({ type: "frame", call: "c1", at: 1, length: 3, lines: ["  a", "> b"] });
  exchanged.length = 0;
  type("\x1b[B");
  assert.equal(exchanged.length, 1, "no frame ahead: the key waits for the child");
  view.frame({ type: "frame", call: "c1", at: 0, length: 3, lines: [] });
  // A letter of a class whose probes were drawn ahead comes from their
  // template; once one is not the child's, letters are not drawn so again.
  const letters = [
    { text: "e", at: 0, length: 1, lines: ["> e"], cursor: { row: 0, col: 3 } },
    { text: "t", at: 0, length: 1, lines: ["> t"], cursor: { row: 0, col: 3 } },
  ];
  view.frame({ type: "frame", call: "c1", lines: ["> "], cursor: { row: 0, col: 2 } });
  view.tries({ type: "tries", call: "c1", frames: letters });
  exchanged.length = 0;
  type("k");
  assert.equal(exchanged.length, 0, "k is drawn from the template");
  assert.deepEqual(render().map((l) => l.replace(CURSOR_MARKER, "|")), ["> k|"]);
  view.frame({ type: "frame", call: "c1", lines: ["> K"], cursor: { row: 0, col: 3 } }); // the child drew otherwise
  assert.deepEqual(render().map((l) => l.replace(CURSOR_MARKER, "|")), ["> K|"], "the child's frame wins");
  view.tries({ type: "tries", call: "c1", frames: letters.map((l) => ({ ...l, lines: [`> K${l.text}`], cursor: { row: 0, col: 4 } })) });
  type("j");
  assert.equal(exchanged.length, 1, "no letter is drawn from a template again");
  view.close();
});

test("CustomView.close is idempotent, and works before and after the component exists", async () => {
  for (const when of ["before", "after"]) {
    const f = fakeCtx("tui");
    const sent: any[] = [];
    let factory: any;
    let dones = 0;
    f.ctx.ui.custom = (fn: any) => {
      factory = fn;
      return new Promise(() => {});
    };
    const view = new CustomView(f.ctx, (m) => sent.push(m), "c1", { type: "open", call: "c1", display: "overlay", toggleKey: "alt+o" });
    assert.equal(f.listeners.size, 1);
    const make = () => factory(f.tui, {}, {}, () => dones++);
    if (when === "after") await Promise.race([make(), new Promise((r) => setTimeout(r, 100))]);
    view.close();
    view.close();
    if (when === "before") await make();
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(f.listeners.size, 0, when);
    assert.equal(dones, 1, `${when}: done once`);
    view.close();
    assert.equal(dones, 1, when);
    assert.deepEqual(
      sent.filter((m) => m.type !== "resize"),
      [{ type: "try", call: "c1", keys: [...TRIED_KEYS], typing: [...TEXT_TRIED_KEYS] }],
      `${when}: nothing else sent than the keys to draw ahead`,
    );
  }
});

test("custom: the child dies with the dialog open: custom_ui_failed, the dialog and its listener go, the wait is closed", async () => {
  const f = fakeCtx("tui", { cols: 60, rows: 20 });
  const seen: string[] = [];
  const ask = createAskUser(f.ctx, {
    ...noConfig,
    events: {
      waitStarted: () => seen.push("start"),
      outcome: (ch, e) => seen.push(`${ch} ${e.errorCode ?? e.status}`),
      waitEnded: () => seen.push("end"),
    },
  });
  const p = ask(deploy);
  const s = await until("the dialog", () => (shows(f.shown[0], 60, "Deploy where?") ? f.shown[0] : undefined));
  ask.host.process!.kill();
  const res = await p;
  assert.equal(res.error?.code, "custom_ui_failed");
  assert.match(res.error!.message, /killed by SIGKILL.*next ask_user call starts a new one/);
  assert.equal(s.settled, true);
  assert.equal(f.listeners.size, 0);
  assert.deepEqual(seen, ["start", "ask:error custom_ui_failed", "end"]);
  const again = ask(deploy);
  const s2 = await until("a new dialog", () => (shows(f.shown[1], 60, "Deploy where?") ? f.shown[1] : undefined));
  f.type("\r");
  assert.equal((await again).status, "answered");
  assert.equal(s2.settled, true);
});

test("CustomView.notify writes through Pi's terminal, holds what comes before the TUI, and restoreTitle pops a title left pushed", async () => {
  const f = fakeCtx("tui");
  const written: string[] = [];
  (f.tui.terminal as any).write = (data: string) => written.push(data);
  let factory: any;
  f.ctx.ui.custom = (fn: any) => {
    factory = fn;
    return new Promise(() => {});
  };
  const view = new CustomView(f.ctx, () => {}, "c1", { type: "open", call: "c1", display: "inline", toggleKey: "" });
  view.notify({ type: "notify", call: "c1", data: "\x07\x1b[22;0t\x1b]2;askuser: question waiting\x1b\\" });
  assert.deepEqual(written, [], "nothing before Pi gives the TUI");
  factory(f.tui, {}, {}, () => {});
  assert.deepEqual(written, ["\x07\x1b[22;0t\x1b]2;askuser: question waiting\x1b\\"]);
  view.close();
  view.restoreTitle();
  assert.deepEqual(written.slice(1), ["\x1b[23;0t"], "a title left pushed is popped at the call's end");
  view.notify({ type: "notify", call: "c1", data: "\x1b[23;0t" });
  view.restoreTitle();
  assert.deepEqual(written.slice(1), ["\x1b[23;0t", "\x1b[23;0t"], "the child's late pop is written, and restoreTitle adds none");
});

test("custom: the notify sequences reach Pi's terminal, and a failing notify command is shown as a Pi notification", async () => {
  const f = fakeCtx("tui", { cols: 60, rows: 20 });
  const written: string[] = [];
  (f.tui.terminal as any).write = (data: string) => written.push(data);
  const release = { header: "Release", ...deploy };
  // Outside tmux, the sequences go as they are, not passed through.
  const tmux = process.env.TMUX;
  delete process.env.TMUX;
  after(() => {
    if (tmux !== undefined) process.env.TMUX = tmux;
  });
  const p = createAskUser(f.ctx, {
    ...noConfig,
    timeoutPerQuestionMs: 600000,
    notify: { desktop: "osc777", command: ["/bin/sh", "-c", "exit 3"] },
  })(release);
  await until("the dialog", () => (shows(f.shown[0], 60, "Deploy where?") ? f.shown[0] : undefined));
  await until("the opening notifications", () => written.length >= 1 || undefined);
  assert.ok(written[0]!.startsWith("\x07\x1b]777;notify;askuser: question waiting;Release · 10m left\x1b\\"), JSON.stringify(written[0]));
  assert.ok(!written.join("").includes("Deploy"), "no question text");
  await until("the notice", () => f.notices.some((n) => n.includes('"/bin/sh" failed: exit status 3')) || undefined);
  f.type("\r");
  assert.equal((await p).status, "answered");
  await until("the title restored", () => written.at(-1) === "\x1b[23;0t" || undefined);
  assert.equal(written.join("").split("\x1b[23;0t").length - 1, 1, "popped once");
});
