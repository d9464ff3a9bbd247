// A scripted model for end-to-end tests: it calls ask_user with each
// argument object of $ASKUSER_E2E_SCENARIO in turn, writes every tool
// result it is given to $ASKUSER_E2E_OUT (one JSON line each), and ends
// with a text reply.
import { readFileSync, appendFileSync } from "node:fs";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from "@earendil-works/pi-ai";

export default function (pi: any) {
  const scenario = JSON.parse(readFileSync(process.env.ASKUSER_E2E_SCENARIO!, "utf8"));
  const out = process.env.ASKUSER_E2E_OUT!;
  const faux = fauxProvider({ provider: "faux", models: [{ id: "faux-1" }] });
  const record = (context: any) => {
    const last = context.messages.at(-1);
    if (last?.role === "toolResult") {
      const text = (last.content ?? []).map((c: any) => c.text ?? "").join("");
      appendFileSync(out, JSON.stringify({ toolCallId: last.toolCallId, toolName: last.toolName, text, details: last.details }) + "\n");
    }
  };
  const steps = (scenario.calls as unknown[]).map((args, i) => (context: any) => {
    record(context);
    return fauxAssistantMessage(fauxToolCall("ask_user", args as any, { id: `call_${i + 1}` }), { stopReason: "toolUse" });
  });
  steps.push((context: any) => {
    record(context);
    return fauxAssistantMessage(fauxText("done"));
  });
  faux.setResponses(steps);
  pi.registerProvider(faux.provider ?? faux);
}
