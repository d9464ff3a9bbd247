// A second extension that listens to ask_user's runtime events and writes
// each one, channel and payload, to $ASKUSER_E2E_EVENTS; and, for the
// figures, the wall-clock time of every tool call's start to
// $ASKUSER_E2E_TIMES.
import { appendFileSync } from "node:fs";

const channels = ["herdr:blocked", "ask:answered", "ask:aborted", "ask:timeout", "ask:error"];

export default function (pi: any) {
  const file = process.env.ASKUSER_E2E_EVENTS;
  if (file) {
    for (const channel of channels) {
      pi.events.on(channel, (payload: unknown) => appendFileSync(file, JSON.stringify({ channel, payload }) + "\n"));
    }
  }
  const times = process.env.ASKUSER_E2E_TIMES;
  if (times) pi.on("tool_execution_start", () => appendFileSync(times, `${Date.now()}\n`));
}
