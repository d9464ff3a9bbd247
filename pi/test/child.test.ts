// The child's synchronous exchange: a key's answer is handled before
// handleInput returns, every message read on the way is handled in order,
// and a child that does not answer leaves the answer to the event loop.
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import { Child, EXCHANGE_WAIT_MS, type ExchangeTimes } from "../src/child.ts";
import type { CallMessage, FromChild, Hello, ToChild } from "../src/protocol.ts";
import { tempDir, until } from "./fake.ts";

// A child that writes back every line it reads: what the test sends is
// what it hears, in order. A line with "big" in it is answered instead
// with a frame for c1 of one line of 120000 wide characters, longer than
// one read; one with "slow" in it is written back after 5 ms.
const wide = "日本語".repeat(40_000);
// waitMs is how long exchange waits: a test that needs the answer gives
// the echo seconds, so a busy machine cannot make it fail. spinMs is how
// long exchange spins before it naps. The echo starts reading after
// deafMs.
function echoChild(waitMs: number, deafMs = 0, spinMs = Infinity): Child {
  const fake = join(tempDir("askuser-echo-"), "askuser");
  const script = `
    const big = JSON.stringify({ type: "frame", call: "c1", lines: [${JSON.stringify(wide)}] }) + "\\n";
    let buf = "";
    process.stdin.setEncoding("utf8");
    setTimeout(() => process.stdin.on("data", (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf("\\n")) >= 0) {
        const line = buf.slice(0, nl + 1);
        buf = buf.slice(nl + 1);
        if (line.includes("slow")) setTimeout(() => process.stdout.write(line), 5);
        else process.stdout.write(line.includes("big") ? big : line);
      }
    }), ${deafMs});`;
  writeFileSync(fake, `#!${process.execPath}\n${script}\n`);
  chmodSync(fake, 0o755);
  return new Child(fake, { type: "hello" } as Hello, undefined, waitMs, spinMs);
}

// The echo writes back what it is sent, so the tests send it the child's
// own messages, to hear them back as the child's.
function wire(m: FromChild): ToChild {
  return m as unknown as ToChild;
}

// An event for call, which the echo makes a message that is not a key's answer.
function event(call: string, channel = "noop"): ToChild {
  return wire({ type: "event", call, channel, payload: null });
}

// Collects the messages of call c, as a call's handlers get them.
function listen(child: Child, call: string): CallMessage[] {
  const got: CallMessage[] = [];
  void child.call(call, event(call), { onMessage: (m) => got.push(m) });
  return got;
}

test("exchange: the answer, and what came before it, are handled before it returns", async (t) => {
  const child = echoChild(10_000);
  t.after(() => child.close());
  const got = listen(child, "c1");
  await until("the echo of the first message", () => got.length === 1);
  got.length = 0;
  // Characters split between reads come out whole.
  assert.equal(child.exchange({ type: "key", call: "c1", key: "big" }, "c1"), true);
  assert.equal(got.length, 1);
  assert.ok(got[0]!.type === "frame" && got[0]!.lines[0] === wide, "the frame, intact");
  // Handlers run as they would from the event loop: with stack traces.
  const limits: number[] = [];
  void child.call("c4", event("c4"), { onMessage: () => limits.push(Error.stackTraceLimit) });
  await until("the echo for c4", () => limits.length === 1);
  const limit = Error.stackTraceLimit;
  child.send(event("c4"));
  assert.equal(child.exchange(wire({ type: "frame", call: "c1", lines: [] }), "c1"), true);
  assert.deepEqual(limits, [limit, limit], "the stack trace limit in a handler");
  assert.equal(Error.stackTraceLimit, limit, "the stack trace limit after");
  got.length = 0;
  for (const m of [{ type: "close", call: "c1" }, { type: "frame", call: "c1", lines: [] }] satisfies FromChild[]) {
    got.length = 0;
    assert.equal(child.exchange(wire(m), "c1"), true, m.type);
    assert.deepEqual(got, [m], m.type);
  }
});

// An answer that takes 5 ms, waited for with spinMs: the times exchange
// reports of it.
async function slowAnswer(t: TestContext, spinMs: number): Promise<ExchangeTimes> {
  const child = echoChild(10_000, 0, spinMs);
  t.after(() => child.close());
  const got = listen(child, "c6");
  await until("the echo of the first message", () => got.length === 1);
  got.length = 0;
  const times: ExchangeTimes[] = [];
  child.onExchange = (x) => times.push(x);
  assert.equal(child.exchange(wire({ type: "frame", call: "c6", lines: ["slow"] }), "c6"), true);
  assert.deepEqual(got, [{ type: "frame", call: "c6", lines: ["slow"] }]);
  assert.equal(times.length, 1);
  const [x] = times;
  // The echo may start its 5 ms before exchange notes the write.
  assert.ok(x!.answered - x!.written >= 3, `waited ${x!.answered - x!.written} ms`);
  return x!;
}

test("exchange: with no spin, an answer that takes a while is waited for with naps, and handled before it returns", async (t) => {
  const x = await slowAnswer(t, 0);
  assert.ok(x.naps > 0 && x.naps === x.emptyReads, `${x.naps} naps in ${x.emptyReads} empty reads`);
  // An empty read takes a few microseconds and a nap tens: spinning
  // through those milliseconds would be many hundreds of reads.
  assert.ok(x.emptyReads < 300, `${x.emptyReads} empty reads`);
});

test("exchange: with a short spin, an answer that takes longer is spun for, then napped for", async (t) => {
  // EXCHANGE_SPIN_MS is 50 µs; 2 ms here, so that even a busy machine
  // lets exchange read in the spin before the echo's 5 ms are over.
  const x = await slowAnswer(t, 2);
  // The spin's reads come first and are not naps; the rest of the wait is
  // napped through, so that a child queued on this CPU gets it.
  assert.ok(x.naps > 0 && x.emptyReads > x.naps, `${x.naps} naps in ${x.emptyReads} empty reads`);
});

test("exchange: with a spin, it is waited for without naps", async (t) => {
  const x = await slowAnswer(t, Infinity);
  assert.equal(x.naps, 0);
  assert.ok(x.emptyReads > 0);
});

test("exchange: no answer within the wait leaves it to the event loop, which still hands it on", async (t) => {
  const child = echoChild(EXCHANGE_WAIT_MS);
  t.after(() => child.close());
  const got = listen(child, "c2");
  await until("the echo of the first message", () => got.length === 1);
  got.length = 0;
  // An event is not an answer: exchange gives up after EXCHANGE_WAIT_MS.
  assert.equal(child.exchange(event("c2", "down"), "c2"), false);
  // The echo is handled, on the way or, on a busy machine, after.
  await until("the echo of the event", () => got.length === 1);
  assert.deepEqual(got, [{ type: "event", call: "c2", channel: "down", payload: null }]);
  // An answer for another call does not end the wait either.
  got.length = 0;
  assert.equal(child.exchange(wire({ type: "frame", call: "other", lines: [] }), "c2"), false);
  child.send(wire({ type: "frame", call: "c2", lines: ["later"] }));
  await until("the frame, through the event loop", () => got.length === 1);
  assert.deepEqual(got, [{ type: "frame", call: "c2", lines: ["later"] }]);
});

test("exchange: a line the pipe takes only part of is finished by the stream, its characters whole", async (t) => {
  const child = echoChild(10_000, 500);
  t.after(() => child.close());
  const got = listen(child, "c5");
  // More than the pipe holds while the child does not read yet, in
  // characters of three bytes each.
  const text = "日本語".repeat(100_000);
  assert.equal(child.exchange(wire({ type: "frame", call: "c5", lines: [text] }), "c5"), false);
  await until("the echo of both messages", () => got.length === 2, 20_000);
  assert.deepEqual(got[0], { type: "event", call: "c5", channel: "noop", payload: null });
  assert.ok(got[1]!.type === "frame" && got[1]!.lines[0] === text, "the frame, intact");
});

test("exchange: a dead child is written nothing and waited for not at all", async () => {
  const child = echoChild(10_000);
  child.kill();
  await until("the child's death", () => child.dead);
  assert.equal(child.exchange(wire({ type: "frame", call: "c3", lines: [] }), "c3"), false);
});
