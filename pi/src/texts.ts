// The sentences the shim gives the model, generated from Go with the tool
// spec (tool.json's "texts"), so that every word the model reads comes
// from askuser itself.

import { readFileSync } from "node:fs";

export type TextKey = "unavailable" | "notReady" | "failed" | "notJSON" | "sessionEnded" | "notStarted";

const texts: Record<string, unknown> = JSON.parse(readFileSync(new URL("./tool.json", import.meta.url), "utf8")).texts ?? {};

/** The text for key, with {reason} filled in. */
export function modelText(key: TextKey, reason = ""): string {
  const t = texts[key];
  if (typeof t !== "string") throw new Error(`tool.json has no text "${key}": regenerate it (go test ./internal/pibridge -run TestToolFileIsCurrent -update)`);
  return t.replaceAll("{reason}", reason);
}
