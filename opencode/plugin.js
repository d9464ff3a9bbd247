// askuser's OpenCode plugin: brings OpenCode's own permission prompts and
// the questions of its question tool to askuser, which asks them in its
// popup (inside tmux) and on the user's hub, while OpenCode's own prompt
// stays on screen: whichever the person answers first wins.
//
// It holds no logic of its own. On permission.asked or question.asked it
// runs askuser hook opencode with the event as JSON on standard input,
// and posts what askuser prints as OpenCode's reply. When the prompt is
// answered in OpenCode first (permission.replied, question.replied or
// question.rejected), it stops that askuser with SIGTERM, which closes
// the question on the hub with a note. On any failure it posts nothing:
// OpenCode's own prompt still asks, and nothing is ever allowed for it.
//
// askuser setup opencode writes this file to OpenCode's plugin directory
// with the line below naming its askuser command.
import { spawn } from "node:child_process";

const hook = ["askuser", "hook", "opencode"];

// The routes that take the reply to each kind of request.
const routes = {
  "permission.asked": "/permission/{requestID}/reply",
  "question.asked": "/question/{requestID}/reply",
};
const ended = new Set(["permission.replied", "question.replied", "question.rejected"]);
// The most askuser may print: a reply is small.
const maxReply = 1 << 20;

export const AskUser = async ({ client, directory }) => {
  // The askuser still asking, by OpenCode's request id.
  const asking = new Map();

  const log = (message) => {
    try {
      Promise.resolve(client.app.log({ body: { service: "askuser", level: "warn", message: String(message) } })).catch(() => {});
    } catch {}
  };

  const ask = (event) => {
    const id = event.properties?.id;
    if (typeof id !== "string" || id === "" || asking.has(id)) return;
    let child;
    try {
      child = spawn(hook[0], hook.slice(1), { cwd: directory, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    } catch (err) {
      log(`cannot run askuser: ${err.message}`);
      return;
    }
    asking.set(id, child);
    const out = [];
    let size = 0;
    const errs = [];
    child.stdout.on("data", (b) => {
      size += b.length;
      if (size <= maxReply) out.push(b);
    });
    child.stderr.on("data", (b) => errs.push(b));
    child.stdin.on("error", () => {});
    child.on("error", (err) => {
      asking.delete(id);
      log(`cannot run askuser: ${err.message}`);
    });
    child.on("close", async (code, signal) => {
      const mine = asking.get(id) === child;
      asking.delete(id);
      const said = Buffer.concat(errs).toString("utf8").trim();
      if (said) log(said);
      // Stopped, failed or answered in OpenCode first: nothing to post.
      if (!mine || signal || code !== 0 || size === 0 || size > maxReply) return;
      let body;
      try {
        body = JSON.parse(Buffer.concat(out).toString("utf8"));
      } catch {
        return;
      }
      if (body === null || typeof body !== "object" || Array.isArray(body)) return;
      try {
        const res = await client._client.post({
          url: routes[event.type],
          path: { requestID: id },
          body,
          headers: { "Content-Type": "application/json" },
        });
        if (res?.error) log(`OpenCode did not take askuser's reply: ${JSON.stringify(res.error)}`);
      } catch (err) {
        log(`OpenCode did not take askuser's reply: ${err.message}`);
      }
    });
    child.stdin.end(JSON.stringify({ type: event.type, properties: event.properties }));
  };

  // Whatever still asks when OpenCode exits is stopped, and closed on
  // the hub.
  process.once("exit", () => {
    for (const child of asking.values()) child.kill("SIGTERM");
  });

  return {
    event: async ({ event }) => {
      if (!event || typeof event.type !== "string") return;
      if (routes[event.type]) {
        ask(event);
        return;
      }
      if (ended.has(event.type)) {
        const id = event.properties?.requestID;
        const child = asking.get(id);
        if (!child) return;
        asking.delete(id);
        child.kill("SIGTERM");
      }
    },
  };
};
