// askuser mcp --tool AskUserQuestion, driven by the official TypeScript
// MCP SDK client over stdio (see peer.mjs), on the elicitation route.
import { test } from "node:test";
import assert from "node:assert/strict";
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

test("milestones arrive as progress, without content", async () => {
  const client = await connect(async () => ({ action: "accept", content: { q1: "SQLite", q1_note: "secret" } }));
  try {
    const messages = [];
    const res = await client.callTool({ name: "AskUserQuestion", arguments: request }, undefined, {
      onprogress: (p) => messages.push(p.message),
    });
    assert.equal(res.structuredContent.cancelled, false);
    // A notification may be handled after the result that followed it.
    for (let i = 0; i < 100 && !messages.includes("submitted"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(messages.filter((m) => !m.startsWith("waiting")), ["dialog_opened", "submitted"]);
    assert.ok(!messages.some((m) => /secret|SQLite/.test(m)));
  } finally {
    await client.close();
  }
});

test("a bad request is a tool error listing every problem", async () => {
  const client = await connect(async () => ({ action: "cancel" }));
  try {
    const res = await client.callTool({ name: "AskUserQuestion", arguments: { questions: [{ title: "Deploy?" }] } });
    assert.equal(res.isError, true);
    assert.equal(res.structuredContent, undefined);
    for (const path of ["questions[0].title", "questions[0].id", "questions[0].options"]) {
      assert.ok(res.content[0].text.includes(path), `${path} in ${res.content[0].text}`);
    }
  } finally {
    await client.close();
  }
});
