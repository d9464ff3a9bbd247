// The Pi package of askuser: the ask_user tool and the TypeScript API for
// other extensions. All behaviour lives in the askuser binary; this file
// binds it to Pi.

import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { getAgentDir } from "@earendil-works/pi-coding-agent";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AskUserHost, notInitialized, sinkEmitter, type ToolName } from "./src/host.ts";
import { modelText, questionSpec, toolSpec, type ToolSpec } from "./src/spec.ts";
import type { UIContext } from "./src/ui.ts";
import type { AskUserOptions, AskUserRequest, AskUserResult, AskUserSupport } from "./src/types.ts";

export type * from "./src/types.ts";
export { AskUserHost };

export { toolSpec, questionSpec };

/**
 * createPiHost binds ctx (a Pi ExtensionContext) to askuser: the route and
 * the preferences are resolved once, now, and the config file is read once.
 */
export function createPiHost(ctx: unknown, options: AskUserOptions = {}): AskUserHost {
  return new AskUserHost(ctx as UIContext, options, agentDir());
}

function agentDir(): string {
  try {
    return getAgentDir();
  } catch {
    return "";
  }
}

/** askUserSupport reports whether and how host can prompt, without prompting. */
export function askUserSupport(host: AskUserHost): AskUserSupport {
  return host.support();
}

/** The callable createAskUser returns. */
export interface AskUser {
  (request: AskUserRequest, opts?: { signal?: AbortSignal }): Promise<AskUserResult>;
  readonly isAvailable: boolean;
  readonly notAvailableReason: string | undefined;
  readonly host: AskUserHost;
}

/**
 * createAskUser returns a function that asks the user directly, with no
 * model involved. It takes a Pi ExtensionContext (and builds a host from
 * it with options) or an AskUserHost. The function never throws: a bad
 * request or an unavailable host is an error result.
 */
export function createAskUser(ctxOrHost: unknown, options: AskUserOptions = {}): AskUser {
  const host = ctxOrHost instanceof AskUserHost ? ctxOrHost : createPiHost(ctxOrHost, options);
  const emit = sinkEmitter((options as AskUserOptions | null | undefined)?.events);
  const ask = async (request: AskUserRequest, opts?: { signal?: AbortSignal }): Promise<AskUserResult> => {
    try {
      const signal = opts?.signal;
      if (signal !== undefined && !(signal instanceof AbortSignal)) {
        return failed("invalid_request", "the signal option must be an AbortSignal");
      }
      if (host.tool !== "ask_user") {
        return failed("invalid_request", `createAskUser asks ask_user questions, and this host serves ${host.tool}`);
      }
      const { result } = await host.ask(request, { signal, emit });
      // A host of ask_user gets ask_user's result from its child.
      return "status" in result ? result : failed("internal", "the askuser child answered with another tool's result");
    } catch (err) {
      return failed("internal", `ask_user failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  let support: AskUserSupport | undefined;
  const get = () => (support ??= host.support());
  Object.defineProperties(ask, {
    isAvailable: { get: () => get().status === "available", enumerable: true },
    notAvailableReason: {
      get: () => {
        const s = get();
        return s.status === "available" ? undefined : s.reason;
      },
      enumerable: true,
    },
    host: { value: host, enumerable: true },
  });
  return ask as AskUser;
}

function failed(code: "invalid_request" | "internal", message: string): AskUserResult {
  return { status: "error", answers: [], error: { code, message } };
}

/** The part of Pi's ExtensionAPI registerAskUser uses. */
type PiAPI = Pick<ExtensionAPI, "registerTool" | "on" | "events">;

/**
 * registerAskUser registers the ask_user tool. The host is built from the
 * context of every session_start, with options, and released at
 * session_shutdown; a call outside a session is not_initialized.
 */
export function registerAskUser(pi: PiAPI, options: AskUserOptions = {}): void {
  register(pi, options, toolSpec);
}

/**
 * registerAskUserQuestion registers the AskUserQuestion tool instead of
 * ask_user, as registerAskUser does: its answers are keyed by question
 * and option id, with notes and the request's metadata, and a dismissal
 * ends the agent's turn. Register one of the two, never both.
 */
export function registerAskUserQuestion(pi: PiAPI, options: AskUserOptions = {}): void {
  register(pi, options, questionSpec);
}

function register(pi: PiAPI, options: AskUserOptions, spec: ToolSpec): void {
  const tool: ToolName = spec === questionSpec ? "AskUserQuestion" : "ask_user";
  let host: AskUserHost | undefined;
  // Pi coerces arguments before its schema check ("true" becomes true);
  // askuser must judge them as the model sent them.
  const raw = new Map<string, unknown>();
  pi.on("message_end", (event) => {
    const content = event?.message?.role === "assistant" ? event.message.content : undefined;
    if (!Array.isArray(content)) return;
    for (const part of content) {
      if (part?.type === "toolCall" && part.name === spec.name) raw.set(part.id, part.arguments);
    }
  });
  pi.on("session_start", (_event, ctx) => {
    host?.close();
    host = new AskUserHost(ctx as UIContext, options, agentDir(), tool);
  });
  pi.on("session_shutdown", () => {
    host?.close();
    host = undefined;
    raw.clear();
  });
  pi.registerTool({
    name: spec.name,
    label: spec.label,
    description: spec.description,
    promptSnippet: spec.promptSnippet,
    promptGuidelines: spec.promptGuidelines,
    parameters: spec.parameters,
    executionMode: "sequential",
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      const args = raw.has(toolCallId) ? raw.get(toolCallId) : params;
      raw.delete(toolCallId);
      // AskUserQuestion's milestones go to onUpdate with no content.
      const progress = (milestone: string) => onUpdate?.({ content: [], details: { milestone } } as never);
      const end = host
        ? await host.ask(args, { callId: toolCallId, signal, ctx, progress, emit: (channel, payload) => pi.events.emit(channel, payload) })
        : notInitialized(modelText("notStarted", "", spec), spec);
      return { content: [{ type: "text", text: end.text }], details: end.result, ...(end.terminate ? { terminate: true } : {}) };
    },
  });
}

/**
 * The tool the user chose in <agent dir>/ask-user.json: AskUserQuestion
 * when its "tool" member says so exactly, else ask_user. Only this member
 * is read here, to know which tool to register before any session; the
 * askuser child reads the whole file strictly and refuses every call of a
 * session whose file is invalid or names another tool.
 */
export function configuredTool(dir: string = agentDir()): ToolName {
  if (!dir) return "ask_user";
  let text: string;
  try {
    text = readFileSync(join(dir, "ask-user.json"), "utf8");
  } catch {
    return "ask_user"; // no file: the default
  }
  try {
    const parsed = JSON.parse(text) as { tool?: unknown } | null;
    return parsed?.tool === "AskUserQuestion" ? "AskUserQuestion" : "ask_user";
  } catch {
    return "ask_user"; // the child reports what is wrong with it, on every call
  }
}

/**
 * The extension: Pi loads it and gets ask_user, or AskUserQuestion when
 * the user's ask-user.json sets "tool": "AskUserQuestion". The model is
 * offered exactly one of the two.
 */
export default function askUserExtension(pi: PiAPI): void {
  if (configuredTool() === "AskUserQuestion") registerAskUserQuestion(pi);
  else registerAskUser(pi);
}
