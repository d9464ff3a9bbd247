// askuser mcp, driven by the official TypeScript MCP SDK client over
// stdio (see peer.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "./peer.mjs";

const release = {
  header: "Release",
  questions: [
    { title: "Channel", options: [{ label: "stable" }, { label: "beta", description: "early users" }] },
    { title: "Publish now?", kind: "bool" },
    {
      id: "meta",
      title: "Details",
      kind: "simple-form",
      fields: [
        { name: "version", label: "Version", kind: "input", required: true },
        { name: "arches", label: "Architectures", kind: "multi", options: [{ label: "amd64" }, { label: "arm64" }] },
      ],
    },
  ],
};

test("lists ask_user with its schemas and annotations", async () => {
  const client = await connect(async () => ({ action: "cancel" }));
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 1);
    const [tool] = tools;
    assert.equal(tool.name, "ask_user");
    assert.equal(tool.inputSchema.type, "object");
    assert.ok(tool.inputSchema.properties.questions);
    assert.equal(tool.outputSchema.type, "object");
    assert.equal(tool.annotations.readOnlyHint, true);
    assert.equal(tool.annotations.destructiveHint, false);
  } finally {
    await client.close();
  }
});

test("answers a whole questionnaire through one form", async () => {
  const forms = [];
  const client = await connect(async (req) => {
    forms.push(req.params);
    return {
      action: "accept",
      content: { q1: "beta", q2: true, "q3.version": "2.0", "q3.arches": ["arm64", "amd64"] },
    };
  });
  try {
    // The SDK checks structuredContent against the tool's output schema.
    const res = await client.callTool({ name: "ask_user", arguments: release });
    assert.equal(forms.length, 1, "one form for the whole questionnaire");
    const props = Object.keys(forms[0].requestedSchema.properties);
    assert.deepEqual(props, ["q1", "q1_note", "q2", "q3.version", "q3.arches"]);
    assert.ok(!res.isError);
    const sc = res.structuredContent;
    assert.equal(sc.status, "answered");
    assert.equal(sc.route, "native");
    assert.deepEqual(sc.answers[0].selections, ["beta"]);
    assert.equal(sc.answers[1].value, true);
    assert.deepEqual(sc.answers[2].value, { version: "2.0", arches: ["amd64", "arm64"] });
    assert.match(res.content[0].text, /beta/);
  } finally {
    await client.close();
  }
});

// A person takes longer than this to read a form and dismiss it; askuser
// takes anything sooner for a client that could not show it.
const readTime = 400;

for (const action of ["decline", "cancel"]) {
  test(`${action} is aborted by the user`, async () => {
    const client = await connect(async () => {
      await new Promise((resolve) => setTimeout(resolve, readTime));
      return { action };
    });
    try {
      const res = await client.callTool({ name: "ask_user", arguments: release });
      assert.equal(res.structuredContent.status, "aborted");
      assert.equal(res.structuredContent.cancelledReason, "user");
      assert.match(res.content[0].text, action === "decline" ? /declined/ : /cancelled/);
      assert.equal(res.structuredContent.guidance, res.content[0].text);
    } finally {
      await client.close();
    }
  });

  test(`${action} at once is a form nobody saw`, async () => {
    const client = await connect(async () => ({ action }));
    try {
      const res = await client.callTool({ name: "ask_user", arguments: release });
      assert.equal(res.isError, true);
      assert.equal(res.structuredContent.status, "error");
      assert.equal(res.structuredContent.error.code, "native_ui_failed");
      assert.match(res.structuredContent.error.message, new RegExp(`"${action}" \\d+ ms after it was sent, too soon for anyone to have read it`));
      assert.match(res.content[0].text, /Ask the user yourself, in ordinary text in your reply/);
      assert.equal(res.structuredContent.guidance, res.content[0].text);
    } finally {
      await client.close();
    }
  });
}

test("a form left incomplete is asked again for only what is missing", async () => {
  const forms = [];
  const client = await connect(async (req) => {
    forms.push(req.params);
    await new Promise((resolve) => setTimeout(resolve, readTime));
    if (forms.length === 1) {
      return { action: "accept", content: { q2: false, "q3.version": "1.0" } };
    }
    return { action: "accept", content: { q1: "stable" } };
  });
  try {
    const res = await client.callTool({ name: "ask_user", arguments: release });
    assert.equal(forms.length, 2);
    assert.deepEqual(forms[0].requestedSchema.required, ["q2", "q3.version"]);
    assert.deepEqual(Object.keys(forms[1].requestedSchema.properties), ["q1", "q1_note"]);
    assert.match(forms[1].message, /still missing: question 1 \("Channel"\)/);
    const sc = res.structuredContent;
    assert.equal(sc.status, "answered");
    assert.deepEqual(sc.answers[0].selections, ["stable"]);
    assert.equal(sc.answers[1].value, false);
    assert.deepEqual(sc.answers[2].value, { version: "1.0" });
  } finally {
    await client.close();
  }
});

test("a bad questionnaire is a tool error listing every problem", async () => {
  const client = await connect(async () => ({ action: "cancel" }));
  try {
    const res = await client.callTool({
      name: "ask_user",
      arguments: { questions: [{ title: "", kind: "multi" }], extra: 1 },
    });
    assert.equal(res.isError, true);
    assert.equal(res.structuredContent.error.code, "invalid_request");
    for (const path of ["extra", "questions[0].title", "questions[0].options"]) {
      assert.ok(res.content[0].text.includes(path), `${path} in ${res.content[0].text}`);
    }
  } finally {
    await client.close();
  }
});

test("progress arrives while the user thinks, and cancelling withdraws the form", async () => {
  let withdrawn;
  const gotWithdrawn = new Promise((resolve) => (withdrawn = resolve));
  let shown;
  const gotShown = new Promise((resolve) => (shown = resolve));
  const client = await connect(async (_req, extra) => {
    shown();
    await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
    withdrawn();
    return { action: "cancel" };
  });
  try {
    const abort = new AbortController();
    const messages = [];
    let progressed;
    const gotProgress = new Promise((resolve) => (progressed = resolve));
    const call = client.callTool({ name: "ask_user", arguments: release }, undefined, {
      signal: abort.signal,
      resetTimeoutOnProgress: true,
      onprogress: (p) => {
        messages.push(p.message);
        progressed();
      },
    });
    const outcome = call.then(
      () => "answered",
      (err) => err,
    );
    await gotShown;
    await gotProgress;
    abort.abort();
    assert.ok((await outcome) instanceof Error, "the cancelled call rejects");
    assert.match(messages[0], /^waiting for the user, \d+ s left$/);
    await gotWithdrawn;
  } finally {
    await client.close();
  }
});
