// The Pi package joins the person's hub: a real askuser-hub process (the
// embedded NATS server), real Pi in print mode, which has no dialog of its
// own, and in its TUI, where askuser's dialog is on screen at the same
// time, and a program answering with `askuser answer`. The question waits
// on the hub, tagged as Pi's; the answer reaches the model, which is told
// where it came from, and Pi's dialog closes.
// With a remote hub in ask-user.json and no hub running, askuser starts
// one itself, which stops by itself once idle.
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { nodeBin, piArgs, pkgDir, prepare, type Run, Tui, until } from "./harness.ts";

const bin = join(pkgDir, "..", "bin");
const deploy = { questions: [{ title: "Deploy where?", options: [{ label: "staging" }, { label: "prod" }] }] };
const started: ChildProcess[] = [];

after(() => {
  for (const p of started) p.kill("SIGKILL");
});

function askuser(run: Run, input: string | undefined, ...args: string[]) {
  return spawnSync(join(bin, "askuser"), args, { cwd: run.dir, env: run.env, input, encoding: "utf8", timeout: 30_000 });
}

/** Starts askuser-hub for run's home and waits until it serves. */
async function startHub(run: Run): Promise<ChildProcess> {
  assert.ok(existsSync(join(bin, "askuser-hub")), "make build puts askuser-hub in bin/");
  const hub = spawn(join(bin, "askuser-hub"), [], { cwd: run.dir, env: run.env, stdio: "ignore" });
  started.push(hub);
  await until("the hub to serve", () => askuser(run, undefined, "hub", "status").status === 0, 20_000);
  return hub;
}

// Runs Pi in print mode, asking; exited resolves with its exit code, and
// stderr gives what it printed there so far.
function printPi(run: Run) {
  const pi = spawn(nodeBin, [...piArgs, "-p", "ask me"], { cwd: run.dir, env: run.env, stdio: ["ignore", "pipe", "pipe"] });
  started.push(pi);
  let stderr = "";
  pi.stderr!.on("data", (b) => (stderr += b));
  const exited = new Promise<number | null>((r) => pi.on("exit", r));
  return { exited, stderr: () => stderr };
}

// The one question waiting on the hub, once it is there.
function onePending(run: Run, what: string) {
  return until(what, () => {
    const r = askuser(run, undefined, "pending", "--json");
    const list = r.status === 0 ? JSON.parse(r.stdout) : [];
    return list.length === 1 ? list[0] : undefined;
  });
}

// Answers the question id with choice, as the program ci-policy.
function answerWith(run: Run, id: string, choice: string) {
  const answer = {
    status: "answered",
    answers: [{ index: 0, id: "q1", title: "Deploy where?", kind: "single", selections: [choice], usedDefault: false }],
  };
  const a = askuser(run, JSON.stringify(answer), "answer", "--by", "ci-policy", id, "-");
  assert.equal(a.status, 0, a.stderr);
}

test("print mode with a hub: the question waits there, a program answers, and the model is told who", async () => {
  const run = prepare([deploy]);
  const hub = await startHub(run);
  const pi = printPi(run);

  const pending = await onePending(run, "the question on the hub");
  assert.equal(pending.agent, "Pi");
  assert.equal(pending.contract, "ask_user");
  assert.equal(pending.questions, 1);
  answerWith(run, pending.id, "prod");

  assert.equal(await pi.exited, 0, pi.stderr());
  const [res] = run.results();
  assert.ok(res, `no tool result; stderr: ${pi.stderr()}`);
  assert.equal(res.details.status, "answered", JSON.stringify(res));
  assert.deepEqual(res.details.answers[0].selections, ["prod"]);
  assert.match(res.text, /askuser hub/);
  assert.match(res.text, /ci-policy/);
  const left = JSON.parse(askuser(run, undefined, "pending", "--json").stdout);
  assert.deepEqual(left, [], "the answered question left the hub");

  hub.kill("SIGTERM");
  await new Promise((r) => hub.on("exit", r));
});

test("tui with a hub: the dialog is on Pi's screen and the question on the hub; a program's answer closes the dialog", async () => {
  const run = prepare([deploy]);
  const hub = await startHub(run);
  const tui = new Tui(run);
  try {
    await tui.waitFor("esc dismiss");
    const pending = await onePending(run, "the question on the hub");
    assert.equal(pending.agent, "Pi");
    answerWith(run, pending.id, "staging");

    await until("the tool result", () => run.results().length >= 1);
    const [res] = run.results();
    assert.equal(res!.details.status, "answered", JSON.stringify(res));
    assert.deepEqual(res!.details.answers[0].selections, ["staging"]);
    assert.equal(res!.details.route, "custom", "the hub raced askuser's own dialog in Pi");
    assert.match(res!.text, /askuser hub/);
    assert.match(res!.text, /ci-policy/);
    await until("the dialog to leave Pi's screen", () => !tui.screen().includes("esc dismiss"));
    const left = JSON.parse(askuser(run, undefined, "pending", "--json").stdout);
    assert.deepEqual(left, [], "the answered question left the hub");
  } finally {
    tui.close();
    hub.kill("SIGTERM");
    await new Promise((r) => hub.on("exit", r));
  }
});

/** Reports whether process pid runs: it exists and is not a zombie that no parent reaps. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 1).trim().startsWith("Z");
  } catch {
    return true;
  }
}

test("print mode with a remote hub in ask-user.json and no hub: askuser starts one, a program answers there, and it stops when idle", async (t) => {
  const run = prepare([deploy]);
  // askuser-hub on PATH, where npm i -g @askuser/askuser-hub puts it.
  run.env.PATH = `${bin}:${run.env.PATH}`;
  const creds = join(run.dir, "agent.creds");
  writeFileSync(creds, "agent:secret\n");
  chmodSync(creds, 0o600);
  const remote = "nats://127.0.0.1:9";
  writeFileSync(join(run.dir, "agent", "ask-user.json"), JSON.stringify({
    hub: { url: remote, credentials: creds, recipients: ["askuser-pub-PwAxMkIhRrYfpdxky-KNzmaHmdSh_1NOEgqW7iO2WJx9_KcMfvVsQ7ytnYjPgKEXdAXPIesKYqt2eFVSrZSr1kCgZcjCvcEnp5o_PRWl0RYJLVUF3oJ16go1wyBoLTHOvHGLpVI3b0RTnrOUoMtIsONJuvW8f-HKR5eWnUVB-Pi-YIgRUsVY0gKw8-uEbFmiVfufBtdcN0HIDTp80ozL_xRxw8x2oGsVlYBGBMFjBtI3utQwOzAPnjqd3QnPNIaPI1s02xSA42ipYUaEy3ad7eFV3oiS8kkVztYkxJxH3kZxMwkfORhEp5OCzWOFI9wSOkRuoZiE0WpH1We51XeSFgXEemGmUwyqqLbG08o2rKOmGatCG-w0hZuE5gq4BcDOSCUamXMwdhAaumBaGBCc7fs3h4ga_glbRAGx4ndK1Nc4l8x_q9ltoerEw4dZnaW8sFFe3qhfKZU4wTRoezt_cEZ8NAe0KyVW3FWU15JkSemsPctVmTCrJLQn6Eu-NCNHK3w6tlRV_ChHZmhM1VFu-SumwzFZwPmofQCiKIdxB9GyOXy1ClQA3hUnI3NzM8e25uCEzLA00IWWRiQ6rLA9RJWu_jETTXiip-c-jKiIpYY8odQF52obNlAGIIWs7ZZCkjlAkCc6fzOAZrOYCJOsnJBZxjh345dpDkqgSTAcimKhYot0XuKNx5ml4oYruSMeWHNL4jdo0SxzotSXa7ZGFRB-yktkWpORS5MKefK3DRNCsCycoMO5ZLtWVktNqCoohXCiSsshd0B9veBzxhJZIfnOl0pzuni2JdSIYbaS3vrMaUtG1-W1U0GGnoQPN4wQMdjCPXZ9nNc7fHwV8AA_lrVyd8vJmBt6jkm6gMmrTqEgAQCFVMx27fc2wzdgxGhvMKMe4pZJPBqykgKK94YfB7tDWJyqAcm0SbyXfXdnJPQ2V8hjInGTU2qtguUQBKmQGJKmCEZKLeNUcpMeGcIPVVuAkfQnWUJZzxBYpIUnmaCJ3gBtU9a5XTODYvOeGHBSzoZqcZpsuNsW5QQCmviBZNJoEZpClmEcn_lkd6lPQbkBoPNfuqJKTZKNEFBHSkKAACbKN-Ma85ZJzAmFH5vJu1m3W0SWAbWLIZQJdgHF2hQ3sGt3tHME6bBeb-HHFDcwoceW1YCAUoqfpfZhdylVHiQrxorMPXoX_nu7oqxX68gf-EMs4NIdLfFmsPWcpiYQT6Fm3qwMdoNITBCRLLe7MCQocgpAe-ZRwmmVJZXG2kdUkVkaLsUDGLhDXWIsE3CcD7MrCbp2IGCRl0y55uFhH6VebOkpHPGCk3jJEJC1aNRyGSVK7uu7RPJsf3WYASVSpHdMGUEc2Qus0lghGFQrACR7t5Gf4qTExbUWF-CBzxaDQ2ACcwY2l4euaYhuLJCM_CgKjTm45_UdylkEtDtIdHnKowfFwFKnmHtIgZYVUJyR6YXEK7Ut1woHa7y_gYOHufiUhooHOhZTItin_JOsBegFncrKKwQ3qTEbZDkARmRsSus2pdM87ElR8TdfweOOI3sZQB93YKNZveBhfJw4ck2ccrhsDvDSKpzxQn2xoQe0Dgo7sZEcLGA7K9VMTh9TtIz7RdKkEdvOmDON8pXDcEVIUBmYc4Zvuar4r1aw0GH-TdQ-b5dKL-W87GBpv50M"], idleMs: 1500 },
  }));
  assert.equal(askuser(run, undefined, "hub", "status").status, 1, "no hub runs before Pi asks");

  const pi = printPi(run);

  const pending = await onePending(run, "the question on the hub askuser started");
  assert.equal(pending.agent, "Pi");
  const status = askuser(run, undefined, "hub", "status");
  assert.equal(status.status, 0, status.stderr);
  assert.match(status.stdout, new RegExp(`^relays with the remote hub at ${remote.replaceAll(".", "\\.")}$`, "m"));
  const pid = Number(/process (\d+)/.exec(status.stdout)![1]);
  t.after(() => {
    if (running(pid)) process.kill(pid, "SIGKILL");
  });

  answerWith(run, pending.id, "prod");
  assert.equal(await pi.exited, 0, pi.stderr());
  const [res] = run.results();
  assert.ok(res, `no tool result; stderr: ${pi.stderr()}`);
  assert.equal(res.details.status, "answered", JSON.stringify(res));
  assert.deepEqual(res.details.answers[0].selections, ["prod"]);

  await until("the started hub to stop when idle", () => !running(pid) && askuser(run, undefined, "hub", "status").status === 1, 20_000);
  const log = readFileSync(join(run.env.HOME!, ".local", "state", "askuser", "hub", "hub.log"), "utf8");
  assert.match(log, /stopping: idle for 1\.5s/);
});
