// The native route through a fake ctx.ui and the real askuser binary:
// Pi's select and input with the deadline and an abort signal.
import assert from "node:assert/strict";
import { chmodSync, copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createAskUser } from "../index.ts";
import { binary, fakeCtx, noConfig, tempDir, until } from "./fake.ts";

const env = { allowFreeText: false, questions: [{ title: "Environment", options: [{ label: "dev" }, { label: "prod" }] }] };
const flag = { questions: [{ title: "Migrate?", kind: "bool" as const }] };

test("native: select with the time left and a signal; the answer and the events", async () => {
  const f = fakeCtx("rpc");
  f.answers.push("prod");
  const seen: string[] = [];
  const ask = createAskUser(f.ctx, {
    ...noConfig,
    timeoutPerQuestionMs: 30_000,
    events: {
      waitStarted: (e) => seen.push(`start ${JSON.stringify(e)}`),
      outcome: (ch, e) => seen.push(`${ch} ${JSON.stringify(e)}`),
      waitEnded: (e) => seen.push(`end ${JSON.stringify(e)}`),
    },
  });
  const res = await ask(env);
  assert.equal(res.status, "answered");
  assert.equal(res.route, "native");
  assert.deepEqual(res.answers[0]!.selections, ["prod"]);
  const [call] = f.calls;
  assert.equal(call!.method, "select");
  assert.equal(call!.args[0], "Environment");
  assert.deepEqual(call!.args[1], ["dev", "prod"]);
  const { signal, timeout } = call!.args[2];
  assert.ok(signal instanceof AbortSignal);
  assert.ok(timeout > 25_000 && timeout <= 30_000, `timeout ${timeout}`);
  assert.deepEqual(seen, [
    'start {"active":true,"label":"Waiting for user response"}',
    'ask:answered {"route":"native","status":"answered"}',
    'end {"active":false}',
  ]);
});

test("native: a bool is a True/False selector, never confirm", async () => {
  const f = fakeCtx("rpc");
  f.ctx.ui.confirm = () => assert.fail("confirm must not be used");
  f.answers.push((_title: string, options: string[]) => Promise.resolve(options.find((o) => /false/i.test(o))));
  const res = await createAskUser(f.ctx, noConfig)({ ...flag, allowFreeText: false });
  assert.equal(res.status, "answered", JSON.stringify(res));
  assert.equal(res.answers[0]!.value, false);
  assert.equal(f.calls[0]!.method, "select");
});

test("native: the caller's abort closes Pi's dialog and ends aborted/abort", async () => {
  const f = fakeCtx("rpc");
  let dialogSignal: AbortSignal | undefined;
  f.answers.push(
    (_t: string, _o: string[], opts: { signal: AbortSignal }) =>
      new Promise((resolve) => {
        dialogSignal = opts.signal;
        opts.signal.addEventListener("abort", () => resolve(undefined));
      }),
  );
  const ac = new AbortController();
  const p = createAskUser(f.ctx, noConfig)(env, { signal: ac.signal });
  await until("the dialog", () => dialogSignal);
  ac.abort();
  const res = await p;
  assert.equal(res.status, "aborted");
  assert.equal(res.cancelledReason, "abort");
  assert.equal(dialogSignal!.aborted, true, "Pi's dialog was told to close");
});

test("native: an already aborted signal never opens a dialog", async () => {
  const f = fakeCtx("rpc");
  const res = await createAskUser(f.ctx, noConfig)(env, { signal: AbortSignal.abort() });
  assert.equal(res.status, "aborted");
  assert.deepEqual(f.calls, []);
});

test("native: a dialog that never answers ends timeout at the deadline, and is closed", async () => {
  const f = fakeCtx("rpc");
  let dialogSignal: AbortSignal | undefined;
  f.answers.push((_t: string, _o: string[], opts: { signal: AbortSignal }) => {
    dialogSignal = opts.signal;
    return new Promise(() => {}); // ignores its signal and its timeout
  });
  const res = await createAskUser(f.ctx, { ...noConfig, timeoutPerQuestionMs: 300 })(env);
  assert.equal(res.status, "timeout", JSON.stringify(res));
  assert.equal(dialogSignal?.aborted, true);
});

test("native: a dismissed dialog is aborted by the user; a throwing one is native_ui_failed", async () => {
  const f = fakeCtx("rpc");
  f.answers.push(undefined);
  const dismissed = await createAskUser(f.ctx, noConfig)(env);
  assert.equal(dismissed.status, "aborted");
  assert.equal(dismissed.cancelledReason, "user");
  f.answers.push(() => Promise.reject(new Error("the client went away")));
  const failed = await createAskUser(f.ctx, noConfig)(env);
  assert.equal(failed.error?.code, "native_ui_failed");
  assert.match(failed.error!.message, /the client went away/);
  f.answers.push(() => {
    throw new Error("sync throw");
  });
  const threw = await createAskUser(f.ctx, noConfig)(env);
  assert.equal(threw.error?.code, "native_ui_failed");
});

test("native: the child dies mid-dialog: an error result, the wait is closed, and the next call works", async () => {
  const f = fakeCtx("rpc");
  const seen: string[] = [];
  const ask = createAskUser(f.ctx, {
    ...noConfig,
    events: {
      waitStarted: () => seen.push("start"),
      outcome: (ch, e) => seen.push(`${ch} ${e.errorCode ?? e.status}`),
      waitEnded: () => seen.push("end"),
    },
  });
  let opened = false;
  f.answers.push(() => {
    opened = true;
    return new Promise(() => {});
  });
  const p = ask(env);
  await until("the dialog", () => opened);
  ask.host.process!.kill();
  const res = await p;
  assert.equal(res.status, "error");
  assert.equal(res.error?.code, "native_ui_failed");
  assert.match(res.error!.message, /killed by SIGKILL/);
  assert.deepEqual(seen, ["start", "ask:error native_ui_failed", "end"]);
  f.answers.push("dev");
  const next = await ask(env);
  assert.deepEqual(next.answers[0]?.selections, ["dev"], JSON.stringify(next));
});

test("native: the child dies and no new one can start: the wait is still closed", async () => {
  const dir = tempDir("askuser-gone-");
  const copy = join(dir, "askuser");
  copyFileSync(binary, copy);
  chmodSync(copy, 0o755);
  const f = fakeCtx("rpc");
  const seen: string[] = [];
  const ask = createAskUser(f.ctx, {
    ...noConfig,
    binary: copy,
    events: {
      waitStarted: () => seen.push("start"),
      outcome: (ch, e) => seen.push(`${ch} ${e.errorCode}`),
      waitEnded: () => seen.push("end"),
    },
  });
  let opened = false;
  f.answers.push(() => {
    opened = true;
    return new Promise(() => {});
  });
  const p = ask(env);
  await until("the dialog", () => opened);
  rmSync(copy);
  ask.host.process!.kill();
  const res = await p;
  assert.equal(res.error?.code, "native_ui_failed");
  assert.deepEqual(seen, ["start", "ask:error native_ui_failed", "end"]);
});
