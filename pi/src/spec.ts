// The tool spec generated from Go (tool.json), read once: the tool's name,
// description, guidelines and parameters, and the sentences the shim gives
// the model, so that every word the model reads comes from askuser itself.

import { readFileSync } from "node:fs";

export type TextKey = "unavailable" | "notReady" | "failed" | "notJSON" | "sessionEnded" | "notStarted";

/** The tool's name, description, guidelines and parameters, generated from Go. */
export const toolSpec: {
  name: string;
  label: string;
  description: string;
  promptSnippet: string;
  promptGuidelines: string[];
  parameters: Record<string, unknown>;
  texts: Partial<Record<TextKey, string>>;
} = JSON.parse(readFileSync(new URL("./tool.json", import.meta.url), "utf8"));

/** The text for key, with {reason} filled in. */
export function modelText(key: TextKey, reason = ""): string {
  const t = toolSpec.texts?.[key];
  if (typeof t !== "string") throw new Error(`tool.json has no text "${key}": regenerate it (go test ./internal/pibridge -run TestToolFileIsCurrent -update)`);
  return t.replaceAll("{reason}", reason);
}
