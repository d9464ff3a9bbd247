// `pi install` of the package directory in a fresh Pi home gives the
// model ask_user, with the parameters askuser itself defines.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { pi, pkgDir, prepare, runPrint } from "./harness.ts";

test("pi install ./pi, then the model is offered ask_user and it runs", () => {
  const run = prepare([{ questions: [{ title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }] }] }], {
    install: false,
  });
  const inst = pi(run, "install", pkgDir);
  assert.equal(inst.status, 0, inst.stderr + inst.stdout);
  const list = pi(run, "list");
  assert.equal(list.status, 0, list.stderr);
  assert.ok(list.stdout.includes(pkgDir), `pi list does not show the package:\n${list.stdout}`);

  const r = runPrint(run);
  assert.equal(r.status, 0, r.stderr);
  const tools = run.tools();
  const askUser = tools.find((t) => t.name === "ask_user");
  assert.ok(askUser, `the model was offered ${JSON.stringify(tools.map((t) => t.name))}`);
  const schema = JSON.parse(execFileSync(join(pkgDir, "bin", "askuser"), ["schema"], { encoding: "utf8" }));
  assert.deepEqual(askUser.parameters, schema, "the parameters the model sees are askuser's schema");
  const [res] = run.results();
  assert.ok(res, `no tool result; stderr: ${r.stderr}`);
  assert.equal(res.details.error?.code, "unsupported_mode", "print mode has no dialog, and the tool itself says so");

});
