// RPC mode: the native route through extension_ui_request and
// extension_ui_response, Pi's abort, events, and a child that dies.
import assert from "node:assert/strict";
import { test } from "node:test";
import { askuserChildren, eventsOf, prepare, Rpc, type ToolResult, until } from "./harness.ts";

const env = (label = "Environment") => ({
  allowFreeText: false,
  questions: [{ title: label, kind: "single", options: [{ label: "dev" }, { label: "prod" }] }],
});
const name = { questions: [{ title: "Project name", kind: "input" }] };

async function withRpc(calls: unknown[], body: (rpc: Rpc, run: ReturnType<typeof prepare>) => Promise<void>) {
  const run = prepare(calls);
  const rpc = new Rpc(run);
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    await body(rpc, run);
  } finally {
    rpc.close();
  }
}

const uiRequest = (method: string) => (m: any) => m.type === "extension_ui_request" && m.method === method;

test("rpc: select and input answer through the client, events carry no content", async () => {
  await withRpc([env(), name], async (rpc, run) => {
    const sel = await rpc.next("a select request", uiRequest("select"));
    assert.deepEqual(sel.options, ["dev", "prod"]);
    assert.ok(sel.timeout > 0 && sel.timeout <= 60_000, `timeout ${sel.timeout}`);
    rpc.send({ type: "extension_ui_response", id: sel.id, value: "prod" });
    const inp = await rpc.next("an input request", uiRequest("input"));
    rpc.send({ type: "extension_ui_response", id: inp.id, value: "  Falcon  " });
    await until("two tool results", () => run.results().length >= 2);
    const [a, b] = run.results() as [ToolResult, ToolResult];
    assert.equal(a.details.status, "answered");
    assert.equal(a.details.route, "native");
    assert.deepEqual(a.details.answers[0].selections, ["prod"]);
    assert.match(a.text, /prod/);
    assert.equal(b.details.answers[0].freeText, "Falcon");
    assert.match(b.text, /Falcon/);
    assert.deepEqual(run.modelSaw(), run.results(), "the model is given the results as the session holds them");
    const events = run.seenEvents();
    assert.deepEqual(events, [...eventsOf("call_1", "native", { status: "answered" }), ...eventsOf("call_2", "native", { status: "answered" })]);
    const all = JSON.stringify(events);
    for (const secret of ["Environment", "prod", "Falcon", "Project name"]) assert.ok(!all.includes(secret), `events leak ${secret}: ${all}`);
  });
});

test("rpc: abort ends the call aborted with cancelledReason abort", async () => {
  await withRpc([env()], async (rpc, run) => {
    await rpc.next("a select request", uiRequest("select"));
    rpc.send({ type: "abort" });
    await until("a tool result", () => run.results().length >= 1);
    const r = run.results()[0]!;
    assert.equal(r.details.status, "aborted");
    assert.equal(r.details.cancelledReason, "abort");
    assert.deepEqual(run.seenEvents(), eventsOf("call_1", "native", { status: "aborted", cancelledReason: "abort" }));
  });
});

test("rpc: a dismissed dialog is aborted by the user", async () => {
  await withRpc([env()], async (rpc, run) => {
    const sel = await rpc.next("a select request", uiRequest("select"));
    rpc.send({ type: "extension_ui_response", id: sel.id, cancelled: true });
    await until("a tool result", () => run.results().length >= 1);
    const r = run.results()[0]!;
    assert.equal(r.details.status, "aborted");
    assert.equal(r.details.cancelledReason, "user");
    assert.deepEqual(run.seenEvents(), eventsOf("call_1", "native", { status: "aborted", cancelledReason: "user" }));
  });
});

test("rpc: the child dies mid-dialog, the call fails, Pi lives, the next call works", async () => {
  await withRpc([env("First"), env("Second")], async (rpc, run) => {
    await rpc.next("the first select", uiRequest("select"));
    const kids = askuserChildren(rpc.proc.pid!);
    assert.equal(kids.length, 1, `askuser children: ${kids}`);
    process.kill(kids[0]!, "SIGKILL");
    await until("the first tool result", () => run.results().length >= 1);
    const r = run.results()[0]!;
    assert.equal(r.details.status, "error");
    assert.equal(r.details.error.code, "native_ui_failed");
    assert.match(r.details.error.message, /killed by SIGKILL/);
    assert.match(r.text, /ordinary text/);
    const sel = await rpc.next("the second select, from a fresh child", uiRequest("select"));
    assert.equal(sel.title.includes("Second"), true, sel.title);
    rpc.send({ type: "extension_ui_response", id: sel.id, value: "dev" });
    await until("the second tool result", () => run.results().length >= 2);
    assert.equal(run.results()[1]!.details.status, "answered");
    assert.equal(rpc.proc.exitCode, null, "Pi is still running");
    assert.deepEqual(run.seenEvents(), [
      ...eventsOf("call_1", "native", { status: "error", errorCode: "native_ui_failed" }),
      ...eventsOf("call_2", "native", { status: "answered" }),
    ]);
  });
});
