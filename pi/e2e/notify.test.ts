// Pi's TUI under tmux: the notifications of the custom route reach the
// terminal through Pi's, once each, and Pi's screen stays as it was.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { AUQ, stack } from "./auq-fixtures.ts";
import { prepare, Tui, until } from "./harness.ts";

const DIALOG = "esc dismiss";
const release = { header: "Release", questions: [{ title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }] }] };

function count(s: string, sub: string): number {
  return s.split(sub).length - 1;
}

for (const on of [true, false]) {
  test(`tui: notifications ${on ? "on" : "off"} reach the terminal through Pi's without touching its screen`, async () => {
    const notify = on ? { desktop: "osc9" } : { bell: false, desktop: false, title: false };
    const run = prepare([release], { config: JSON.stringify({ timeoutPerQuestionMs: 600000, notify }) });
    const tui = new Tui(run);
    const bytes = join(run.dir, "pane.bytes");
    tui.pipeTo(bytes);
    try {
      const screen = await tui.waitFor(DIALOG);
      assert.match(screen, /Deploy where\?/);
      const note = "\x1b]9;askuser: question waiting: Release · 10m left\x1b\\";
      if (on) {
        await until("the title to say a question waits", () => tui.format("#{pane_title}") === "askuser: question waiting · Release" || undefined);
        assert.equal(tui.format("#{window_bell_flag}"), "1");
      } else {
        assert.notEqual(tui.format("#{pane_title}"), "askuser: question waiting · Release");
      }
      // Nothing of the sequences is drawn on Pi's screen.
      for (const junk of ["]9;", "question waiting", "22;0t", "]2;"]) assert.ok(!screen.includes(junk), `the screen shows ${junk}:\n${screen}`);
      tui.keys("Enter");
      await until("the answered result", () => run.results().length >= 1);
      assert.equal(run.results()[0]!.details.status, "answered");
      await until("the title back", () => tui.format("#{pane_title}") !== "askuser: question waiting · Release" || undefined);
      const out = readFileSync(bytes, "latin1");
      const utf8 = Buffer.from(out, "latin1").toString("utf8");
      assert.equal(count(utf8, note), on ? 1 : 0, "the desktop notification");
      assert.equal(count(out, "\x1b[22;0t"), on ? 1 : 0, "the title pushed");
      assert.equal(count(utf8, "\x1b]2;askuser: question waiting · Release\x1b\\"), on ? 1 : 0, "the title set");
      assert.equal(count(out, "\x1b[23;0t"), on ? 1 : 0, "the title popped");
      // A bell on its own, not one ending an OSC sequence of Pi's.
      const bells = out.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "").split("\x07").length - 1;
      assert.equal(bells, on ? 1 : 0, "bells");
      for (const secret of ["staging", "prod"]) assert.ok(!utf8.includes(`]9;${secret}`), secret);
      const after = tui.screen();
      for (const junk of ["]9;", "22;0t", "]2;"]) assert.ok(!after.includes(junk), `the screen shows ${junk}:\n${after}`);
    } finally {
      tui.close();
    }
  });
}

test("tui: AskUserQuestion's dialog sends the same notifications, with no question text", async () => {
  const run = prepare([stack], { config: JSON.stringify({ tool: "AskUserQuestion", notify: { desktop: "osc9" } }), tool: AUQ.tool });
  const tui = new Tui(run);
  const bytes = join(run.dir, "pane.bytes");
  tui.pipeTo(bytes);
  try {
    await tui.waitFor("Which database should the service use?");
    await until("the title to say a question waits", () => tui.format("#{pane_title}") === "askuser: question waiting" || undefined);
    tui.keys("C-c");
    await until("the dismissed result", () => run.results().length >= 1);
    await until("the title back", () => tui.format("#{pane_title}") !== "askuser: question waiting" || undefined);
    const out = Buffer.from(readFileSync(bytes, "latin1"), "latin1").toString("utf8");
    const notes = out.match(/\x1b\]9;[^\x1b\x07]*\x1b\\/g) ?? [];
    assert.equal(notes.length, 1, JSON.stringify(notes));
    assert.match(notes[0]!, /^\x1b\]9;askuser: question waiting: \d+m left\x1b\\$/);
    assert.equal(count(out, "\x1b[22;0t"), 1, "the title pushed");
    assert.equal(count(out, "\x1b[23;0t"), 1, "the title popped");
  } finally {
    tui.close();
  }
});
