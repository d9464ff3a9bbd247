// AskUserQuestion in Pi's RPC mode: one question at a time through Pi's
// select and input dialogs, with notes and an Other text still possible;
// a dismissal ends the turn and Pi's abort ends the call. Print mode
// refuses it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AUQ, answered, stack } from "./auq-fixtures.ts";
import { prepare, Rpc, runPrint, until } from "./harness.ts";

async function withRpc(calls: unknown[], body: (rpc: Rpc, run: ReturnType<typeof prepare>) => Promise<void>) {
  const run = prepare(calls, AUQ);
  const rpc = new Rpc(run);
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    await body(rpc, run);
  } finally {
    rpc.close();
  }
}

const uiRequest = (method: string) => (m: any) => m.type === "extension_ui_request" && m.method === method;

test("rpc: notes, an Other text on a multi-select question and the review, through select and input, reach the model exactly", async () => {
  await withRpc([stack], async (rpc, run) => {
    const answer = async (method: string, pick: (m: any) => string) => {
      const m = await rpc.next(`a ${method} request`, uiRequest(method));
      rpc.send({ type: "extension_ui_response", id: m.id, value: pick(m) });
      return m;
    };
    const choose = (want: string) =>
      answer("select", (m) => {
        const o = (m.options as string[]).find((o) => o.startsWith(want));
        assert.ok(o, `no ${want} in ${JSON.stringify(m.options)}`);
        return o!;
      });
    const first = await choose("Add a note…");
    assert.match(first.title, /Database \(1 of 2\): Which database should the service use\?/);
    assert.deepEqual(first.options, ["SQLite — Embedded, one file", "Postgres (recommended) — A server of its own", "Other…", "Add a note…"]);
    await choose("Option: Postgres");
    await answer("input", () => "managed please");
    await choose("Add a note…");
    await choose("This question");
    await answer("input", () => "for prod");
    await choose("Postgres");
    await choose("[ ] Auth");
    await choose("[ ] Other…");
    await answer("input", () => "Search");
    const ticks = await choose("Done");
    assert.deepEqual(ticks.options.slice(0, 3), ["[x] Auth — Log in and out", "[ ] Payments — Cards and invoices", "[x] Other… (Search)"]);
    const review = await choose("Submit");
    assert.match(review.title, /Features: Auth, Other: Search/);
    await until("the result", () => run.results().length >= 1);
    const [res] = run.results();
    assert.deepEqual(res!.details, answered, res!.text);
    assert.ok(res!.text.includes(JSON.stringify(answered)), res!.text);
    await until("the model to be given the result", () => run.modelSaw().length >= 1);
    assert.deepEqual(run.modelSaw(), run.results());
    assert.deepEqual(run.tools().map((t) => t.name), ["AskUserQuestion"]);
    const events = JSON.stringify(run.seenEvents());
    for (const secret of ["Postgres", "managed", "Search", "Which database"]) assert.ok(!events.includes(secret), `events leak ${secret}: ${events}`);
  });
});

test("rpc: a dismissed select is cancelled and ends the turn: the model is not called again", async () => {
  await withRpc([stack], async (rpc, run) => {
    const sel = await rpc.next("a select request", uiRequest("select"));
    rpc.send({ type: "extension_ui_response", id: sel.id, cancelled: true });
    await rpc.next("the end of the agent's turn", (m) => m.type === "agent_end");
    const [res] = run.results();
    assert.deepEqual(res!.details, { cancelled: true, metadata: { source: "planning", flowId: "flow-7" } });
    assert.match(res!.text, /dismissed/);
    assert.deepEqual(run.modelSaw(), [], "the model was called after a dismissal");
  });
});

test("rpc: Pi's abort ends the call as cancelled, and says so to the model", async () => {
  await withRpc([stack], async (rpc, run) => {
    await rpc.next("a select request", uiRequest("select"));
    rpc.send({ type: "abort" });
    await until("the result", () => run.results().length >= 1);
    const [res] = run.results();
    assert.equal(res!.details.cancelled, true);
    assert.match(res!.text, /aborted/);
  });
});

test("print mode: AskUserQuestion is refused with unsupported_mode and the model is told to ask in text", () => {
  const run = prepare([stack], AUQ);
  const r = runPrint(run);
  assert.equal(r.status, 0, r.stderr);
  const [res] = run.results();
  assert.ok(res, `no tool result; stderr: ${r.stderr}`);
  assert.equal(res.details.cancelled, true);
  assert.equal(res.details.error.code, "unsupported_mode");
  assert.match(res.text, /ordinary text/);
  assert.match(res.text, /Which database should the service use\?/);
  assert.match(res.text, /Postgres/);
  assert.deepEqual(run.seenEvents(), [], "a refused call emits no event");
});
