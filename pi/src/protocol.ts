// The messages of the bridge protocol (internal/host/pibridge/PROTOCOL.md), as
// types: what the shim writes to the askuser child, and what the child
// writes back. Each is told apart by its "type", so a switch on it gives
// the compiler the message's members.

import type { AskUserErrorCode, AskUserQuestionResult, AskUserResult, AskUserRoute, AskUserSupport } from "./types.ts";

/** The shim's first message: the host's capabilities and preferences. */
export interface Hello {
  type: "hello";
  version: number;
  release: string;
  mode: string;
  hasUI: boolean;
  ui: { custom: boolean; input: boolean; select: boolean };
  agentDir: string;
  /** The programmatic options as the extension got them, for the child to check. */
  options?: unknown;
  configFile?: string | false | null;
  theme?: Record<string, { prefix: string; suffix: string }>;
  tool?: "AskUserQuestion";
  /** The shim draws frames in process too: every open carries a mirror. */
  mirror?: boolean;
}

/** Starts a call. params are the tool's arguments exactly as the model sent them. */
export interface Ask {
  type: "ask";
  call: string;
  params: unknown;
  callId?: string;
  aborted?: true;
}

/** Aborts a call: the caller's signal fired. */
export interface Abort {
  type: "abort";
  call: string;
}

/** A key for the call's component: a Pi key name, or printable text. */
export type Key = { type: "key"; call: string } & ({ key: string; text?: never } | { text: string; key?: never });

/**
 * The keys whose frames the child draws ahead of them, after each frame
 * it sends: typing while a text input has the cursor, keys otherwise.
 * Without them it stops.
 */
export interface Try {
  type: "try";
  call: string;
  keys?: readonly ({ key: string } | { text: string })[];
  typing?: readonly ({ key: string } | { text: string })[];
}

/** The size the component renders at. */
export interface Resize {
  type: "resize";
  call: string;
  width: number;
  rows: number;
}

/** ctx.ui.custom failed: the call ends custom_ui_failed. */
export interface UIError {
  type: "ui_error";
  call: string;
  message: string;
}

/** The answer of a native dialog: a value, a dismissal, Pi's timeout, or its failure. */
export type Reply = { type: "reply"; call: string; req: number } & (
  | { value: string }
  | { cancelled: true }
  | { timedOut: true }
  | { error: string }
);

/** Asks a fresh child to word the result of a call whose child died. */
export interface Explain {
  type: "explain";
  call: string;
  params: unknown;
  result: ToolResult;
  route?: AskUserRoute;
  blocked?: true;
  outcome?: true;
  callId?: string;
}

/** A message the shim writes to the child. */
export type ToChild = Hello | Ask | Abort | Key | Try | Resize | UIError | Reply | Explain;

/** The child's answer to hello: its support report. */
export interface Ready {
  type: "ready";
  version: number;
  support: AskUserSupport;
  available: boolean;
  reason?: string;
}

/** The child cannot serve this package at all, and exits. */
export interface Fatal {
  type: "fatal";
  message: string;
}

/** A message for the user that belongs to no call. */
export interface Notice {
  type: "notice";
  message: string;
}

/** A line the child could not use; for people, and on stderr too. */
export interface ErrorLine {
  type: "error";
  message: string;
  call?: string;
}

/** What one tool call ends with: ask_user's Result, or AskUserQuestion's. */
export type ToolResult = AskUserResult | AskUserQuestionResult;

/** The one end of a call. */
export interface Result {
  type: "result";
  call: string;
  result: ToolResult;
  text: string;
  terminate?: true;
}

/** A runtime event to emit; its payload holds no content. */
export interface Event {
  type: "event";
  call: string;
  channel: string;
  payload: unknown;
}

/** Shows the custom component. */
export interface Open {
  type: "open";
  call: string;
  display: "overlay" | "inline";
  /** A Pi KeyId that hides and shows the overlay, or "" for none. */
  toggleKey: string;
  hiddenStatus?: string;
  hideWorking?: boolean;
  /** What the shim needs to draw the same dialog in process (src/wasm.ts). */
  mirror?: MirrorSpec;
}

/** A dialog as the in-process copy makes it: package pimirror's Spec. */
export interface MirrorSpec {
  dialog: string;
  request: unknown;
  theme?: Record<string, { prefix: string; suffix: string }>;
  toggleKey?: string;
  overlay?: boolean;
  title?: string;
  /** When the call times out, in Unix microseconds. */
  deadline?: number;
}

/** Where a focused text input wants the terminal cursor, 0-based. */
export interface Cursor {
  row: number;
  col: number;
}

/** A frame of the component: whole, or with at and length a patch of the last one. */
export interface Frame {
  type: "frame";
  call: string;
  lines: string[];
  at?: number;
  length?: number;
  cursor?: Cursor;
  /** The countdown's redraw sent it: it answers no key or resize. */
  tick?: boolean;
}

/**
 * The frames the keys of the last Try would bring to the component, each
 * a patch of the frame sent last (at, length and lines, as a Frame's),
 * for its key's name or text. A key that would end the dialog has none.
 */
export interface Tries {
  type: "tries";
  call: string;
  frames: TriedFrame[];
}

/** One frame of Tries, which the shim checks as it reads it. */
export interface TriedFrame {
  key?: string;
  text?: string;
  at: number;
  length: number;
  lines: string[];
  cursor?: Cursor;
}

/** Ends the component. */
export interface Close {
  type: "close";
  call: string;
}

/** Terminal sequences that tell the user a question waits. */
export interface Notify {
  type: "notify";
  call: string;
  data: string;
}

/** Opens one of Pi's own dialogs. */
export interface Dialog {
  type: "dialog";
  call: string;
  req: number;
  method: "select" | "input";
  title: string;
  options?: string[];
  placeholder?: string;
  timeoutMs?: number;
}

/** The child gave up on a native dialog. */
export interface DialogCancel {
  type: "dialog_cancel";
  call: string;
  req: number;
}

/** An AskUserQuestion milestone; it holds no content. */
export interface Progress {
  type: "progress";
  call: string;
  milestone: string;
}

/** One event for the shim to emit, as a dead child would have. */
export interface EventRecord {
  channel: string;
  payload: unknown;
}

/** The words for a crashed call's result, and the events that close its wait. */
export interface Explained {
  type: "explained";
  call: string;
  text: string;
  events?: EventRecord[];
}

/** A message the child writes. */
export type FromChild =
  | Ready
  | Fatal
  | Notice
  | ErrorLine
  | Result
  | Event
  | Open
  | Frame
  | Tries
  | Close
  | Notify
  | Dialog
  | DialogCancel
  | Progress
  | Explained;

/** A message about one call, other than its result: what a call's handlers hear. */
export type CallMessage = Event | Open | Frame | Tries | Close | Notify | Dialog | DialogCancel | Progress;

/**
 * Stands for a child that is gone, where a message was waited for; never
 * on the wire. error says why it could not run, when that is known.
 */
export interface Dead {
  type: "dead";
  error?: string;
}

// What each member of a message must be: its JavaScript type, "lines"
// for an array of strings, "any" for any JSON value; a "?" after it when
// it may be absent.
type Shape = Record<string, string>;

const SHAPES: { [T in FromChild["type"]]: Shape } = {
  ready: { version: "number", support: "object", available: "boolean", reason: "string?" },
  fatal: { message: "string" },
  notice: { message: "string" },
  error: { message: "string", call: "string?" },
  result: { call: "string", result: "object", text: "string", terminate: "boolean?" },
  event: { call: "string", channel: "string", payload: "any" },
  open: { call: "string", display: "string", toggleKey: "string", hiddenStatus: "string?", hideWorking: "boolean?", mirror: "object?" },
  frame: { call: "string", lines: "lines", at: "number?", length: "number?", cursor: "object?", tick: "boolean?" },
  tries: { call: "string", frames: "object" },
  close: { call: "string" },
  notify: { call: "string", data: "string" },
  dialog: { call: "string", req: "number", method: "string", title: "string", options: "lines?", placeholder: "string?", timeoutMs: "number?" },
  dialog_cancel: { call: "string", req: "number" },
  progress: { call: "string", milestone: "string" },
  explained: { call: "string", text: "string", events: "object?" },
};

function fits(v: unknown, want: string): boolean {
  if (want.endsWith("?")) return v === undefined || fits(v, want.slice(0, -1));
  switch (want) {
    case "any":
      return v !== undefined;
    case "lines":
      return Array.isArray(v) && v.every((l) => typeof l === "string");
    case "object":
      return typeof v === "object" && v !== null;
    default:
      return typeof v === want;
  }
}

/**
 * The message in one line the child wrote, or undefined for a line that
 * is not a JSON object of a known type with the members that type must
 * have. A line like that is the child's bug: it is dropped, as a line
 * that is not JSON is.
 */
export function parseMessage(line: string): FromChild | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const m = v as Record<string, unknown>;
  const shape = typeof m.type === "string" && Object.hasOwn(SHAPES, m.type) ? SHAPES[m.type as FromChild["type"]] : undefined;
  if (!shape) return undefined;
  for (const k in shape) if (!fits(m[k], shape[k]!)) return undefined;
  return v as FromChild;
}

/** An error result in the shape of a tool: ask_user's, or AskUserQuestion's when question is set. */
export function errorResult(question: boolean, code: AskUserErrorCode, message: string, route?: AskUserRoute): ToolResult {
  const error = { code, message };
  if (question) return { cancelled: true, error };
  return { status: "error", ...(route ? { route } : {}), answers: [], error };
}
