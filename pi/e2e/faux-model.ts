// A scripted model for end-to-end tests. It calls the scenario's tool
// (ask_user unless it names another) with each argument object of
// $ASKUSER_E2E_SCENARIO in turn and ends with a reply
// that quotes the last tool result. Every tool result is written to
// $ASKUSER_E2E_OUT twice over: as Pi appends it to the session
// ("session"), and as the model is then given it ("model"). An aborted
// run ends before the model is called again, so only the first is there.
// The tools the model is offered on its first turn are written too.
import { appendFileSync, readFileSync } from "node:fs";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from "@earendil-works/pi-ai";

export default function (pi: any) {
  const scenario = JSON.parse(readFileSync(process.env.ASKUSER_E2E_SCENARIO!, "utf8"));
  const out = process.env.ASKUSER_E2E_OUT!;
  const write = (source: string, msg: any) => {
    const text = (msg.content ?? []).map((c: any) => c.text ?? "").join("");
    appendFileSync(out, JSON.stringify({ source, toolCallId: msg.toolCallId, toolName: msg.toolName, text, details: msg.details }) + "\n");
  };
  pi.on("message_end", (event: any) => {
    if (event?.message?.role === "toolResult") write("session", event.message);
  });
  let toldTools = false;
  const lastResult = (context: any) => {
    if (!toldTools) {
      toldTools = true;
      // The tool set is carried by the system messages of the transcript.
      const tools = new Map<string, unknown>();
      for (const m of context.messages) {
        if (m.role !== "system") continue;
        for (const t of m.toolsRemoved ?? []) tools.delete(typeof t === "string" ? t : t.name);
        for (const t of m.toolsAdded ?? []) tools.set(t.name, t.parameters);
      }
      appendFileSync(out, JSON.stringify({ source: "tools", tools: [...tools].map(([name, parameters]) => ({ name, parameters })) }) + "\n");
    }
    const last = context.messages.at(-1);
    if (last?.role !== "toolResult") return undefined;
    write("model", last);
    return last;
  };
  const faux = fauxProvider({ provider: "faux", models: [{ id: "faux-1" }] });
  const steps = (scenario.calls as unknown[]).map((args, i) => (context: any) => {
    lastResult(context);
    return fauxAssistantMessage(fauxToolCall(scenario.tool ?? "ask_user", args as any, { id: `call_${i + 1}` }), { stopReason: "toolUse" });
  });
  steps.push((context: any) => {
    const last = lastResult(context);
    const text = (last?.content ?? []).map((c: any) => c.text ?? "").join("");
    return fauxAssistantMessage(fauxText(`model saw: ${JSON.stringify(text)}`));
  });
  faux.setResponses(steps);
  pi.registerProvider(faux.provider ?? faux);
}
