// The tool specs generated from Go (tool.json for ask_user, auq-tool.json
// for AskUserQuestion), read once: each tool's name, description,
// guidelines and parameters, and the sentences the shim gives the model,
// so that every word the model reads comes from askuser itself.

import { readFileSync } from "node:fs";

export type TextKey = "unavailable" | "notReady" | "failed" | "notJSON" | "sessionEnded" | "notStarted";

/** A tool's name, description, guidelines and parameters, generated from Go. */
export interface ToolSpec {
  name: string;
  label: string;
  description: string;
  promptSnippet: string;
  promptGuidelines: string[];
  parameters: Record<string, unknown>;
  texts: Partial<Record<TextKey, string>>;
}

function load(file: string): ToolSpec {
  return JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8"));
}

/** The spec of ask_user. */
export const toolSpec: ToolSpec = load("./tool.json");

/** The spec of AskUserQuestion. */
export const questionSpec: ToolSpec = load("./auq-tool.json");

/** The text for key, with {reason} filled in, in the words of spec's tool. */
export function modelText(key: TextKey, reason = "", spec: ToolSpec = toolSpec): string {
  const t = spec.texts?.[key];
  if (typeof t !== "string") throw new Error(`${spec.name}'s spec has no text "${key}": regenerate it (go test ./internal/host/pibridge -run TestToolFileIsCurrent -update)`);
  return t.replaceAll("{reason}", reason);
}
