// AskUserQuestion in the package: which tool is registered, and the
// custom and native routes through fake Pi contexts and the real askuser
// binary.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import askUserExtension, { configuredTool, registerAskUserQuestion } from "../index.ts";
import { AskUserHost } from "../src/host.ts";
import { STATUS_KEY } from "../src/ui.ts";
import { fakeCtx, fakePi, noConfig, pkgDir, tempDir, until } from "./fake.ts";

const framework = {
  questions: [
    {
      id: "fw",
      question: "Which framework?",
      header: "Framework",
      options: [
        { id: "react", label: "React", description: "Component library", preview: "Broad ecosystem." },
        { id: "vue", label: "Vue", description: "Progressive", recommended: true },
      ],
    },
  ],
  metadata: { source: "plan", flowId: "f-1" },
};

test("configuredTool: AskUserQuestion only when ask-user.json says so exactly", () => {
  const dir = tempDir("askuser-tool-");
  assert.equal(configuredTool(dir), "ask_user", "no file");
  const cases: [string, string][] = [
    ['{"tool":"AskUserQuestion"}', "AskUserQuestion"],
    ['{"tool":"ask_user"}', "ask_user"],
    ['{"tool":"askuserquestion"}', "ask_user"],
    ["{not json", "ask_user"],
    ["null", "ask_user"],
  ];
  for (const [text, want] of cases) {
    writeFileSync(join(dir, "ask-user.json"), text);
    assert.equal(configuredTool(dir), want, text);
  }
});

test("the extension registers exactly one tool: ask_user by default, AskUserQuestion when the config chooses it", () => {
  const dir = tempDir("askuser-ext-");
  const saved = process.env.PI_CODING_AGENT_DIR;
  process.env.PI_CODING_AGENT_DIR = dir;
  try {
    const names = () => {
      const tools: string[] = [];
      const f = fakePi();
      askUserExtension({ ...f.pi, registerTool: (t: any) => void tools.push(t.name) } as never);
      return tools;
    };
    assert.deepEqual(names(), ["ask_user"]);
    writeFileSync(join(dir, "ask-user.json"), '{"tool":"AskUserQuestion"}');
    assert.deepEqual(names(), ["AskUserQuestion"]);
  } finally {
    if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
    else process.env.PI_CODING_AGENT_DIR = saved;
  }
});

test("registerAskUserQuestion: the spec generated from Go (src/auq-tool.json)", () => {
  const f = fakePi();
  registerAskUserQuestion(f.pi, noConfig);
  const tool = f.tool();
  const file = JSON.parse(readFileSync(join(pkgDir, "src", "auq-tool.json"), "utf8"));
  assert.equal(tool.name, "AskUserQuestion");
  assert.equal(tool.executionMode, "sequential");
  assert.equal(tool.description, file.description);
  assert.deepEqual(tool.promptGuidelines, file.promptGuidelines);
  assert.deepEqual(tool.parameters, file.parameters);
  assert.deepEqual(tool.parameters.required, ["questions"]);
});

async function session(mode: "tui" | "rpc" | "print") {
  const f = fakePi();
  registerAskUserQuestion(f.pi, noConfig);
  const ui = fakeCtx(mode, { cols: 100, rows: 30 });
  const statuses: [string, string | undefined][] = [];
  (ui.ctx.ui as any).setStatus = (key: string, text: string | undefined) => void statuses.push([key, text]);
  const working: boolean[] = [];
  (ui.ctx.ui as any).setWorkingVisible = (v: boolean) => void working.push(v);
  await f.fire("session_start", { reason: "startup" }, ui.ctx);
  const updates: any[] = [];
  const run = (params: unknown, signal?: AbortSignal) =>
    f.tool().execute("t1", params, signal, (u: any) => void updates.push(u), ui.ctx);
  const end = () => f.fire("session_shutdown", { reason: "quit" }, ui.ctx);
  return { f, ui, statuses, working, updates, run, end };
}

const screen = (ui: ReturnType<typeof fakeCtx>) => ui.shown.at(-1)?.component?.render(100).join("\n") ?? "";

test("custom: a note on the recommended option reaches the model, milestones go to onUpdate with no content", async () => {
  const s = await session("tui");
  try {
    const p = s.run(framework);
    await until("the dialog", () => screen(s.ui).includes("Which framework?"));
    assert.equal(s.ui.shown[0]!.options.overlay, true);
    assert.equal(s.ui.shown[0]!.options.overlayOptions.width, "100%", "the dialog spans the width");
    assert.deepEqual(s.working, [false], "Pi's working indicator is hidden while the question is pending");
    for (const k of ["n", "f", "a", "s", "t", "\r", "\r"]) s.ui.type(k);
    const res = await p;
    assert.deepEqual(res.details, {
      cancelled: false,
      answers: { fw: { kind: "single", optionId: "vue", label: "Vue" } },
      annotations: { fw: { optionNotes: { vue: "fast" } } },
      metadata: { source: "plan", flowId: "f-1" },
    });
    assert.ok(res.content[0].text.includes(JSON.stringify(res.details)), res.content[0].text);
    assert.equal(res.terminate, undefined);
    await until("the component to close", () => s.ui.shown[0]!.settled);
    assert.deepEqual(s.working, [false, true], "and restored when it closes");
    assert.deepEqual(
      s.updates.map((u) => [u.content, u.details.milestone]),
      [
        [[], "dialog_opened"],
        [[], "question_answered"],
        [[], "submitted"],
      ],
    );
  } finally {
    await s.end();
  }
});

test("custom: ctrl+shift+q hides the dialog with a footer reminder and restores it with everything kept; ctrl+c terminates", async () => {
  const s = await session("tui");
  try {
    const p = s.run(framework);
    await until("the dialog", () => screen(s.ui).includes("Which framework?"));
    s.ui.type("o");
    s.ui.type("Svel");
    await until("the draft", () => screen(s.ui).includes("Svel"));
    const hide = "\x1b[113;6u"; // Kitty: ctrl+shift+q
    s.ui.type(hide);
    const h = s.ui.shown[0]!.handle;
    assert.equal(h.hidden, true);
    assert.equal(s.statuses.length, 1);
    assert.equal(s.statuses[0]![0], STATUS_KEY);
    assert.match(s.statuses[0]![1]!, /ctrl\+shift\+q/);
    s.ui.type(hide);
    assert.equal(h.hidden, false);
    assert.deepEqual(s.statuses[1], [STATUS_KEY, undefined], "the reminder goes with the restore");
    await until("the draft to be shown again", () => screen(s.ui).includes("Svel"));
    s.ui.type("\x03"); // ctrl+c
    const res = await p;
    assert.deepEqual(res.details, { cancelled: true, metadata: { source: "plan", flowId: "f-1" } });
    assert.equal(res.terminate, true);
    assert.match(res.content[0].text, /End your turn/);
    assert.deepEqual(s.updates.map((u) => u.details.milestone), ["dialog_opened", "dismissed"]);
  } finally {
    await s.end();
  }
});

test("custom: the caller's abort ends the dialog as cancelled, without terminate", async () => {
  const s = await session("tui");
  try {
    const ac = new AbortController();
    const p = s.run(framework, ac.signal);
    await until("the dialog", () => screen(s.ui).includes("Which framework?"));
    ac.abort();
    const res = await p;
    assert.equal(res.details.cancelled, true);
    assert.equal(res.terminate, undefined);
    assert.match(res.content[0].text, /aborted/);
    await until("the component to close", () => s.ui.shown[0]!.settled);
  } finally {
    await s.end();
  }
});

test("native: an Other answer and a question note through select and input", async () => {
  const s = await session("rpc");
  try {
    s.ui.answers.push((_t: string, options: string[]) => {
      assert.deepEqual(options, ["React — Component library", "Vue (recommended) — Progressive", "Other…", "Add a note…"]);
      return Promise.resolve("Add a note…");
    });
    s.ui.answers.push("This question", "needs SSR", "Other…", "Svelte");
    const res = await s.run(framework);
    assert.deepEqual(res.details, {
      cancelled: false,
      answers: { fw: { kind: "single", label: "Other", other: true, text: "Svelte" } },
      annotations: { fw: { questionNotes: "needs SSR" } },
      metadata: { source: "plan", flowId: "f-1" },
    });
    assert.deepEqual(s.updates.map((u) => u.details.milestone), ["dialog_opened", "question_answered", "submitted"]);
  } finally {
    await s.end();
  }
});

test("print mode: refused with unsupported_mode, and the model is told to ask in text", async () => {
  const s = await session("print");
  try {
    const res = await s.run(framework);
    assert.equal(res.details.cancelled, true);
    assert.equal(res.details.error.code, "unsupported_mode");
    assert.match(res.content[0].text, /ordinary text/);
    assert.match(res.content[0].text, /Which framework\?/);
    assert.deepEqual(s.updates, []);
  } finally {
    await s.end();
  }
});

test("native: the child dies mid-dialog: a failed AskUserQuestion result worded by a fresh child, the wait closed, the next call works", async () => {
  const ui = fakeCtx("rpc");
  const host = new AskUserHost(ui.ctx, noConfig, "", "AskUserQuestion");
  try {
    const seen: string[] = [];
    const emit = (channel: string, payload: any) => void seen.push(`${channel} ${payload.active ?? payload.errorCode ?? ""}`);
    let opened = false;
    ui.answers.push(() => {
      opened = true;
      return new Promise(() => {});
    });
    const p = host.ask(framework, { callId: "t1", emit });
    await until("the dialog", () => opened);
    host.process!.kill();
    const end = await p;
    const res = end.result as any;
    assert.equal(res.cancelled, true);
    assert.equal(res.error.code, "native_ui_failed");
    assert.match(res.error.message, /killed by SIGKILL.*next AskUserQuestion call starts a new one/);
    assert.match(end.text, /ordinary text/);
    assert.match(end.text, /Which framework\?/, "the fresh child lists the questions for a plain-text fallback");
    assert.deepEqual(seen, ["herdr:blocked true", "ask:error native_ui_failed", "herdr:blocked false"]);
    ui.answers.push("Vue (recommended) — Progressive");
    const next = await host.ask(framework, {});
    assert.deepEqual((next.result as any).answers, { fw: { kind: "single", optionId: "vue", label: "Vue" } }, next.text);
  } finally {
    host.close();
  }
});
