// Print mode has no dialog-capable UI: ask_user must refuse with
// unsupported_mode and tell the model to ask in ordinary text.
import assert from "node:assert/strict";
import { test } from "node:test";
import { prepare, runPrint } from "./harness.ts";

const deploy = { questions: [{ title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }] }] };

test("print mode: unsupported_mode, and the model is told to ask in text", () => {
  const run = prepare([deploy]);
  const r = runPrint(run);
  assert.equal(r.status, 0, r.stderr);
  const [res] = run.results();
  assert.ok(res, `no tool result; stderr: ${r.stderr}`);
  assert.equal(res.details.status, "error");
  assert.equal(res.details.error.code, "unsupported_mode");
  assert.match(res.text, /ordinary text/);
  assert.match(res.text, /Deploy where\?/);
  assert.match(res.text, /staging/);
  assert.match(res.text, /prod/);
  assert.deepEqual(run.seenEvents(), [], "a refused call emits no event");
});

test("a bad ask-user.json is refused naming the file, the field and the reason", () => {
  const run = prepare([deploy], { config: '{"mode":"fancy","timeoutPerQuestionMs":-5}' });
  const r = runPrint(run);
  assert.equal(r.status, 0, r.stderr);
  const res = run.results()[0]!;
  assert.equal(res.details.error.code, "invalid_config");
  const msg: string = res.details.error.message;
  assert.match(msg, /ask-user\.json/);
  assert.match(msg, /mode/);
  assert.match(msg, /fancy/);
  assert.match(msg, /timeoutPerQuestionMs/);
  assert.match(res.text, /ordinary text/);
  assert.deepEqual(run.seenEvents(), []);
});

test("Pi's loose coercion does not get past askuser's strict check", () => {
  // Pi's validator would turn "false" into false; the request as the model
  // sent it has a string where a boolean belongs.
  const run = prepare([{ allowFreeText: "false", ...deploy }]);
  runPrint(run);
  const res = run.results()[0]!;
  assert.equal(res.details.error?.code, "invalid_request", JSON.stringify(res));
  assert.match(res.details.error.message, /allowFreeText/);
  assert.deepEqual(run.seenEvents(), []);
});
