// Pi's TUI under tmux: the custom route drawn inside Pi, answered with
// keys, and the tool result the model is given.
import assert from "node:assert/strict";
import { test } from "node:test";
import { eventsOf, prepare, settle, Tui, until } from "./harness.ts";

// The key hints end every frame of the dialog; nothing else on Pi's
// screen says "esc dismiss".
const DIALOG = "esc dismiss";

async function withTui(calls: unknown[], body: (tui: Tui, run: ReturnType<typeof prepare>) => Promise<void>, opts: { noModule?: boolean } = {}) {
  const run = prepare(calls, opts);
  const tui = new Tui(run);
  try {
    await body(tui, run);
  } finally {
    tui.close();
  }
}

const deploy = { questions: [{ title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }] }] };

test("tui: a single, a bool and a simple-form question answered with keys reach the model", async () => {
  const release = {
    header: "Release",
    questions: [
      { title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }] },
      { title: "Run migrations?", kind: "bool" },
      {
        title: "Settings",
        kind: "simple-form",
        fields: [
          { name: "region", label: "Region", kind: "single", required: true, options: [{ label: "eu" }, { label: "us" }] },
          { name: "note", label: "Note", kind: "input" },
          { name: "notify", label: "Notify", kind: "bool" },
        ],
      },
    ],
  };
  // The first call is invalid: it is refused without a dialog or an event.
  const invalid = { questions: [{ title: "Pick one", kind: "single" }] };
  await withTui([invalid, release], async (tui, run) => {
    await tui.waitFor(DIALOG);
    const [refused] = run.results();
    assert.equal(refused?.details.error?.code, "invalid_request", JSON.stringify(refused));
    tui.keys("Down", "Enter"); // single: prod, next
    await tui.waitFor("▸ [ ] True");
    tui.keys("Right", "Enter"); // bool: False, next
    await tui.waitFor("Region");
    tui.keys("Down", "Enter"); // region: us, on to the note
    tui.type("ship it");
    tui.keys("Enter", "Enter", "Enter"); // note done; notify: True; Continue
    await tui.waitFor("Review your answers");
    tui.keys("Enter"); // Submit
    await until("the answered result", () => run.results().length >= 2);
    const res = run.results()[1]!;
    assert.equal(res.details.status, "answered", res.text);
    assert.equal(res.details.route, "custom");
    assert.deepEqual(
      res.details.answers.map((a: any) => [a.kind, a.selections, a.value]),
      [
        ["single", ["prod"], undefined],
        ["bool", [], false],
        ["simple-form", [], { region: "us", note: "ship it", notify: true }],
      ],
    );
    await until("the model to be given the result", () => run.modelSaw().length >= 2);
    assert.deepEqual(run.modelSaw(), run.results());
    for (const want of ['Selected: "prod"', "Answer: no", '"us"', '"ship it"', "(notify): yes"]) {
      assert.ok(res.text.includes(want), `${want} in ${res.text}`);
    }
    await tui.waitFor("model saw:");
    assert.deepEqual(run.seenEvents(), eventsOf("call_2", "custom", { status: "answered" }), "only the call that reached the user emits");
  });
});

test("tui: without the in-process module the child draws every frame, and draws the next keys' ahead: keys and text at a person's pace reach the model", async () => {
  const settings = {
    questions: [
      { title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }, { label: "canary" }] },
      { title: "Release name", kind: "input" },
    ],
  };
  await withTui(
    [settings],
    async (tui, run) => {
      await tui.waitFor(DIALOG);
      const pace = () => new Promise((r) => setTimeout(r, 100));
      for (const k of ["Down", "Down", "Up"]) {
        tui.keys(k);
        await pace();
      }
      tui.keys("Enter"); // prod, on to the name
      await tui.waitFor("Release name");
      for (const c of "v2 final") {
        tui.type(c);
        await pace();
      }
      tui.keys("BSpace");
      await tui.waitFor("v2 fina");
      tui.keys("Enter");
      await tui.waitFor("Review your answers");
      tui.keys("Enter"); // Submit
      await until("the answered result", () => run.results().length >= 1);
      const res = run.results()[0]!;
      assert.equal(res.details.status, "answered", res.text);
      assert.equal(res.details.route, "custom");
      assert.deepEqual(res.details.answers[0].selections, ["prod"]);
      assert.equal(res.details.answers[1].freeText, "v2 fina");
    },
    { noModule: true },
  );
});

test("tui: Esc dismisses the dialog: aborted by the user", async () => {
  await withTui([deploy], async (tui, run) => {
    await tui.waitFor(DIALOG);
    tui.keys("Escape");
    await until("a result", () => run.results().length >= 1);
    const [res] = run.results();
    assert.equal(res!.details.status, "aborted");
    assert.equal(res!.details.cancelledReason, "user");
    await tui.waitGone(DIALOG);
    assert.deepEqual(run.seenEvents(), eventsOf("call_1", "custom", { status: "aborted", cancelledReason: "user" }));
  });
});

test("tui: a short timeout ends the call with timeout and closes the dialog", async () => {
  await withTui([{ ...deploy, timeoutPerQuestionMs: 2500 }], async (tui, run) => {
    await tui.waitFor(DIALOG);
    await until("a result", () => run.results().length >= 1);
    const [res] = run.results();
    assert.equal(res!.details.status, "timeout");
    await tui.waitGone(DIALOG);
    assert.deepEqual(run.seenEvents(), eventsOf("call_1", "custom", { status: "timeout" }));
  });
});

test("tui: Alt+Q stops the countdown and the call outlives its deadline", async () => {
  const timeout = 4000;
  await withTui([{ ...deploy, timeoutPerQuestionMs: timeout }], async (tui, run) => {
    await tui.waitFor(DIALOG);
    // The deadline started before the dialog was first on screen.
    const deadline = Date.now() + timeout;
    tui.keys("M-q");
    await tui.waitFor("No timeout");
    await until("the original deadline to pass", () => Date.now() > deadline + 1500);
    assert.deepEqual(run.results(), [], "no result after the deadline");
    const s = await tui.waitFor(DIALOG);
    assert.match(s, /No timeout/);
    tui.keys("Enter");
    await until("a result", () => run.results().length >= 1);
    const [res] = run.results();
    assert.equal(res!.details.status, "answered");
    assert.deepEqual(res!.details.answers[0].selections, ["staging"]);
  });
});

// Kitty's keyboard protocol: alt+o with an explicit event type.
const kittyAltO = (event: 1 | 2 | 3) => `\x1b[111;3:${event}u`;
const NOTICE = "press alt+o to show it again";

test("tui: alt+o hides and restores the overlay; Kitty repeat and release do not toggle; one notice", async () => {
  await withTui([deploy], async (tui, run) => {
    await tui.waitFor(DIALOG);
    tui.keys("M-o");
    await tui.waitGone(DIALOG);
    await tui.waitFor(NOTICE);
    tui.keys("M-o");
    await tui.waitFor(DIALOG);

    tui.raw(kittyAltO(1)); // press: hide
    await tui.waitGone(DIALOG);
    tui.raw(kittyAltO(2)); // repeat
    await settle();
    assert.ok(!tui.screen().includes(DIALOG), "a repeat toggled the overlay back");
    tui.raw(kittyAltO(3)); // release
    await settle();
    assert.ok(!tui.screen().includes(DIALOG), "a release toggled the overlay back");
    tui.raw(kittyAltO(1)); // the next press restores
    await tui.waitFor(DIALOG);
    tui.raw(kittyAltO(3));
    await settle();
    const s = tui.screen();
    assert.ok(s.includes(DIALOG), "a release hid the overlay again");
    assert.equal(s.split(NOTICE).length - 1, 1, `the restore notice shows once:\n${s}`);

    assert.deepEqual(run.results(), [], "hiding does not end the call");
    tui.keys("Down", "Enter"); // the restored overlay has the keys again
    await until("a result", () => run.results().length >= 1);
    assert.deepEqual(run.results()[0]!.details.answers[0].selections, ["prod"]);
  });
});

test("tui: inline display registers no toggle; a narrower terminal reflows the dialog and Pi keeps going", async () => {
  await withTui([{ ...deploy, displayMode: "inline" }], async (tui, run) => {
    let s = await tui.waitFor(DIALOG);
    assert.ok(!s.includes("alt+o"), "no hide hint inline");
    tui.keys("M-o");
    await settle();
    assert.ok(tui.screen().includes(DIALOG), "alt+o does nothing inline");
    tui.resize(44, 24);
    // The dialog's rule spans the new width, and its hints wrap to it.
    await tui.waitFor(/^─{44}$/m);
    await tui.waitFor(/^ ctrl\+enter submit · esc dismiss$/m);
    tui.keys("Down", "Enter");
    await until("a result", () => run.results().length >= 1);
    assert.deepEqual(run.results()[0]!.details.answers[0].selections, ["prod"]);
    await tui.waitFor("model saw:");
  });
});
