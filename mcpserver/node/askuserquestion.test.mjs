// askuser mcp --tool AskUserQuestion, driven by the official TypeScript
// MCP SDK client over stdio (see peer.mjs), on the elicitation route.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect as connectTo } from "./peer.mjs";

const connect = (onForm) => connectTo(onForm, ["--tool", "AskUserQuestion"]);

const request = {
  questions: [
    {
      id: "db",
      question: "Which database?",
      header: "Database",
      options: [
        { id: "pg", label: "Postgres", description: "Relational", preview: "SELECT 1;", recommended: true },
        { id: "lite", label: "SQLite", description: "Embedded" },
      ],
    },
    {
      id: "extras",
      question: "Which extras?",
      header: "Extras",
      multiSelect: true,
      required: false,
      options: [
        { id: "cache", label: "Cache", description: "Redis" },
        { id: "queue", label: "Queue", description: "NATS" },
      ],
    },
  ],
  metadata: { source: "ts", flowId: "f-9", tags: ["peer"] },
};

// A person takes longer than this to read a form.
const readTime = 400;

test("lists AskUserQuestion alone, with its schemas", async () => {
  const client = await connect(async () => ({ action: "cancel" }));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["AskUserQuestion"]);
    const [tool] = tools;
    assert.ok(tool.inputSchema.properties.questions);
    assert.ok(tool.outputSchema.properties.cancelled);
    assert.match(client.getInstructions(), /^Guidelines for AskUserQuestion:/);
  } finally {
    await client.close();
  }
});

test("answers through one form: ids, Other text, a note, the preview and metadata", async () => {
  const forms = [];
  const client = await connect(async (req) => {
    forms.push(req.params);
    return {
      action: "accept",
      content: { q1: "Postgres", q1_note: "we know it", q2: ["Other", "Cache"], q2_other: "Kafka" },
    };
  });
  try {
    // The SDK checks structuredContent against the tool's output schema.
    const res = await client.callTool({ name: "AskUserQuestion", arguments: request });
    assert.equal(forms.length, 1);
    assert.deepEqual(Object.keys(forms[0].requestedSchema.properties), ["q1", "q1_other", "q1_note", "q2", "q2_other", "q2_note"]);
    assert.deepEqual(forms[0].requestedSchema.required, ["q1"]);
    assert.ok(!res.isError);
    const sc = res.structuredContent;
    assert.equal(sc.cancelled, false);
    assert.deepEqual(sc.answers.db, { kind: "single", optionId: "pg", label: "Postgres" });
    assert.deepEqual(sc.answers.extras, {
      kind: "multi",
      selections: [{ optionId: "cache", label: "Cache" }, { label: "Other", other: true, text: "Kafka" }],
      empty: false,
    });
    assert.deepEqual(sc.annotations.db, { questionNotes: "we know it", selectedPreview: "SELECT 1;" });
    assert.deepEqual(sc.metadata, { source: "ts", flowId: "f-9" });
    assert.equal(sc.guidance, res.content[0].text);
    // The whole result is in the text the model reads.
    assert.ok(res.content[0].text.includes(JSON.stringify({ cancelled: false, answers: sc.answers, annotations: sc.annotations, metadata: sc.metadata })));
  } finally {
    await client.close();
  }
});

test("a dismissal is cancelled, and says how", async () => {
  const client = await connect(async () => {
    await new Promise((resolve) => setTimeout(resolve, readTime));
    return { action: "decline" };
  });
  try {
    const res = await client.callTool({ name: "AskUserQuestion", arguments: request });
    assert.deepEqual(res.structuredContent.cancelled, true);
    assert.equal(res.structuredContent.answers, undefined);
    assert.match(res.content[0].text, /dismissed/);
    assert.match(res.content[0].text, /declined/);
  } finally {
    await client.close();
  }
});

test("a dismissal at once is a form nobody saw", async () => {
  const client = await connect(async () => ({ action: "cancel" }));
  try {
    const res = await client.callTool({ name: "AskUserQuestion", arguments: request });
    assert.equal(res.isError, true);
    assert.match(res.content[0].text, /native_ui_failed/);
    assert.match(res.content[0].text, /too soon for anyone to have read it/);
  } finally {
    await client.close();
  }
});

test("a required question left out is asked again, alone", async () => {
  const forms = [];
  const client = await connect(async (req) => {
    forms.push(req.params);
    await new Promise((resolve) => setTimeout(resolve, readTime));
    if (forms.length === 1) {
      return { action: "accept", content: { q1: "Other", q2: ["Queue"] } };
    }
    return { action: "accept", content: { q1: "Other", q1_other: "MariaDB" } };
  });
  try {
    const res = await client.callTool({ name: "AskUserQuestion", arguments: request });
    assert.equal(forms.length, 2);
    assert.deepEqual(Object.keys(forms[1].requestedSchema.properties), ["q1", "q1_other", "q1_note"]);
    assert.match(forms[1].message, /Other is chosen without your own answer/);
    const sc = res.structuredContent;
    assert.deepEqual(sc.answers.db, { kind: "single", label: "Other", other: true, text: "MariaDB" });
    assert.deepEqual(sc.answers.extras.selections, [{ optionId: "queue", label: "Queue" }]);
  } finally {
    await client.close();
  }
});

test("milestones arrive as progress, without content, before the result", async () => {
  const client = await connect(async () => ({ action: "accept", content: { q1: "SQLite", q1_note: "secret" } }));
  try {
    const handed = [];
    const res = await client.callTool({ name: "AskUserQuestion", arguments: request }, undefined, {
      onprogress: (p) => handed.push(p.message),
    });
    assert.equal(res.structuredContent.cancelled, false);
    // What the server sent, in order: the milestones, then the result.
    const sent = client.wire.filter((m) => m.method === "notifications/progress" || "result" in m);
    const said = sent.map((m) => ("result" in m ? "(result)" : m.params.message)).filter((m) => !m.startsWith("waiting"));
    assert.deepEqual(said, ["dialog_opened", "submitted", "(result)"]);
    assert.ok(!sent.some((m) => "method" in m && /secret|SQLite/.test(JSON.stringify(m.params))));
    // The SDK hands the caller every milestone it handles before the
    // result; the first comes long before.
    assert.ok(handed.includes("dialog_opened"), `handed: ${handed}`);
  } finally {
    await client.close();
  }
});

test("a bad request is a tool error listing every problem", async () => {
  const client = await connect(async () => ({ action: "cancel" }));
  try {
    const res = await client.callTool({ name: "AskUserQuestion", arguments: { questions: [{ title: "Deploy?" }] } });
    assert.equal(res.isError, true);
    // The error's structured content fits the output schema too, as the
    // SDK checks; it has no answers and carries the error.
    assert.equal(res.structuredContent.cancelled, true);
    assert.equal(res.structuredContent.error.code, "invalid_request");
    assert.equal(res.structuredContent.guidance, res.content[0].text);
    for (const path of ["questions[0].title", "questions[0].id", "questions[0].options"]) {
      assert.ok(res.content[0].text.includes(path), `${path} in ${res.content[0].text}`);
    }
  } finally {
    await client.close();
  }
});

// waitFor polls ok every 25 ms, for up to 20 s.
async function waitFor(what, ok) {
  for (let i = 0; i < 800; i++) {
    if (ok()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`waiting for ${what}`);
}

test("the tmux popup asks it, and the result comes back the same", async (t) => {
  if (spawnSync("tmux", ["-V"]).status !== 0 || spawnSync("script", ["--version"]).status !== 0) {
    t.skip("tmux and script (util-linux) are needed for a real tmux with a client attached");
    return;
  }
  // A short directory: the popup's socket path must fit a unix address.
  const dir = mkdtempSync("/tmp/aq");
  const sock = `${dir}/tmux.sock`;
  const tmux = (...args) => spawnSync("tmux", ["-S", sock, ...args]).stdout.toString().trim();
  tmux("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "sh");
  const pane = tmux("display", "-p", "-t", "0", "#{pane_id}");
  const pid = tmux("display", "-p", "#{pid}");
  // A client attached on a pty of script's, as a user's terminal; its
  // output is what the user sees.
  const env = { ...process.env, TERM: "xterm-256color" };
  delete env.TMUX;
  delete env.TMUX_PANE;
  const attach = spawn("script", ["-qfec", `stty cols 100 rows 30; exec tmux -S ${sock} attach -t 0`, "/dev/null"], { env });
  let screen = "";
  attach.stdout.on("data", (d) => (screen += d.toString()));
  let client;
  try {
    await waitFor("an attached client", () => tmux("list-clients") !== "");
    client = await connectTo(async () => ({ action: "cancel" }), ["--tool", "AskUserQuestion"], {
      TMUX: `${sock},${pid},0`,
      TMUX_PANE: pane,
      TMPDIR: dir,
    });
    const call = client.callTool({ name: "AskUserQuestion", arguments: request });
    await waitFor("the popup", () => screen.includes("Which database?"));
    attach.stdin.write("\r"); // Postgres, recommended and focused; the other question is optional
    await waitFor("the review", () => screen.includes("Submit"));
    attach.stdin.write("\r");
    const res = await call;
    const sc = res.structuredContent;
    assert.equal(sc.cancelled, false);
    assert.deepEqual(sc.answers, { db: { kind: "single", optionId: "pg", label: "Postgres" } });
    assert.deepEqual(sc.annotations, { db: { selectedPreview: "SELECT 1;" } });
    assert.deepEqual(sc.metadata, { source: "ts", flowId: "f-9" });
    assert.equal(sc.guidance, res.content[0].text);
  } finally {
    if (client) await client.close();
    attach.kill();
    tmux("kill-server");
    rmSync(dir, { recursive: true, force: true });
  }
});
