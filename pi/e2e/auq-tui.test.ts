// AskUserQuestion in Pi's TUI under tmux: the package registers it when
// ask-user.json chooses it, askuser's dialog answers it with keys, and
// the model is given the complete result.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AUQ, answered, stack } from "./auq-fixtures.ts";
import { prepare, settle, Tui, until } from "./harness.ts";

async function withTui(calls: unknown[], body: (tui: Tui, run: ReturnType<typeof prepare>) => Promise<void>) {
  const run = prepare(calls, AUQ);
  const tui = new Tui(run);
  try {
    await body(tui, run);
  } finally {
    tui.close();
  }
}

test("tui: AskUserQuestion alone is offered; notes, an Other text and the recommended option reach the model exactly", async () => {
  await withTui([stack], async (tui, run) => {
    await tui.waitFor("Which database should the service use?");
    // The dialog's first frame may come while Pi still shows the call
    // and its editor, with no room for the hints: the screen is read
    // once the dialog has Pi's space.
    let s = await tui.waitFor(/navigate/);
    assert.match(s, /Which database should the service use\?/);
    assert.match(s, /Postgres \(recommended\)/);
    assert.match(s, /Runs everywhere; needs a server\./, "the focused recommended option's preview is shown");
    assert.deepEqual(run.tools().map((t) => t.name), ["AskUserQuestion"], "the model sees one ask tool");
    assert.doesNotMatch(s, /Working/, "Pi's working indicator is hidden while the question is pending");
    tui.keys("n"); // a note on the focused option, Postgres
    await tui.waitFor("Postgres");
    tui.type("managed please");
    tui.keys("Enter");
    tui.keys("N"); // a note on the question
    tui.type("for prod");
    tui.keys("Enter");
    await tui.waitFor("for prod");
    tui.keys("Enter"); // answer with Postgres
    s = await tui.waitFor("Which features should ship first?");
    tui.keys("Space"); // tick Auth
    tui.keys("o");
    tui.type("Search");
    tui.keys("Enter"); // save the Other text, which ticks Other
    await tui.waitFor("“Search”");
    tui.keys("Up", "Enter"); // off the Other row, whose Enter edits it: confirm the ticks
    await tui.waitFor("Review your answers");
    tui.keys("Enter"); // Submit
    await until("the result", () => run.results().length >= 1);
    const [res] = run.results();
    assert.deepEqual(res!.details, answered, res!.text);
    assert.ok(res!.text.includes(JSON.stringify(answered)), `the complete result is in the text:\n${res!.text}`);
    await until("the model to be given the result", () => run.modelSaw().length >= 1);
    assert.deepEqual(run.modelSaw(), run.results(), "the model reads exactly what the session holds");
    await tui.waitFor("model saw:");
  });
});

// Kitty's keyboard protocol: ctrl+shift+q, pressed.
const HIDE = "\x1b[113;6u";

test("tui: ctrl+shift+q hides the dialog with a footer reminder and brings it back with the draft; ctrl+c dismisses and ends the turn", async () => {
  await withTui([stack], async (tui, run) => {
    await tui.waitFor("Which database should the service use?");
    tui.keys("o");
    tui.type("Mongo");
    await tui.waitFor("Mongo");
    tui.raw(HIDE);
    await tui.waitGone("Which database should the service use?");
    await tui.waitFor("AskUserQuestion is waiting");
    tui.type("typed into Pi");
    await tui.waitFor("typed into Pi"); // Pi's editor has the input while the dialog is hidden
    assert.deepEqual(run.results(), [], "hiding does not end the call");
    tui.raw(HIDE);
    // The dialog shown again is read once it is drawn whole, down to the
    // draft's row: under load a frame can show its title first.
    const s = await tui.waitFor(/Which database should the service use\?[^]*Mongo/);
    assert.match(s, /Mongo/, "the draft survived hiding");
    await tui.waitGone("AskUserQuestion is waiting");
    tui.keys("C-c");
    await until("the result", () => run.results().length >= 1);
    const [res] = run.results();
    assert.deepEqual(res!.details, { cancelled: true, metadata: { source: "planning", flowId: "flow-7" } });
    assert.match(res!.text, /dismissed/);
    await tui.waitGone("Which database should the service use?");
    // terminate: Pi ends the turn with the tool result, and the model is
    // not called again.
    await settle(1500);
    assert.deepEqual(run.modelSaw(), [], "the model was called after a dismissal");
    assert.ok(!tui.screen().includes("model saw:"));
  });
});

test("tui: Pi's own interrupt, pressed while the dialog is hidden, aborts the call: cancelled, and the model is told so", async () => {
  await withTui([stack], async (tui, run) => {
    await tui.waitFor("Which database should the service use?");
    tui.raw(HIDE);
    await tui.waitFor("AskUserQuestion is waiting");
    tui.keys("Escape"); // Pi's interrupt
    await until("the result", () => run.results().length >= 1);
    const [res] = run.results();
    assert.equal(res!.details.cancelled, true);
    assert.match(res!.text, /aborted/);
    await tui.waitGone("AskUserQuestion is waiting");
    tui.raw(HIDE);
    await settle();
    assert.ok(!tui.screen().includes("Which database should the service use?"), "the key brings back no dialog once the call has ended");
  });
});
