// The public types of the package. They describe the JSON the askuser
// engine produces; nothing here has behaviour.

export type AskUserStatus = "answered" | "aborted" | "timeout" | "error";
export type AskUserRoute = "custom" | "native";
export type AskUserKind = "single" | "multi" | "input" | "bool" | "simple-form";
export type AskUserErrorCode =
  | "empty_answer"
  | "invalid_request"
  | "custom_ui_failed"
  | "native_ui_failed"
  | "invalid_config"
  | "unsupported_mode"
  | "not_initialized"
  | "internal";

export interface AskUserAnswer {
  index: number;
  id: string;
  title: string;
  kind: AskUserKind;
  selections: string[];
  freeText?: string;
  usedDefault: boolean;
  value?: boolean | Record<string, boolean | string | string[]>;
}

export interface AskUserResult {
  status: AskUserStatus;
  route?: AskUserRoute;
  answers: AskUserAnswer[];
  cancelledReason?: "user" | "abort";
  warnings?: string[];
  error?: { code: AskUserErrorCode; message: string };
}

/** One chosen answer of AskUserQuestion: an option by id and label, or the Other text. */
export interface AskUserQuestionChoice {
  optionId?: string;
  label: string;
  other?: true;
  text?: string;
}

/** An AskUserQuestion answer: one choice, or for a multi-select question the selections. */
export type AskUserQuestionAnswer =
  | ({ kind: "single" } & AskUserQuestionChoice)
  | { kind: "multi"; selections: AskUserQuestionChoice[]; empty: boolean };

/**
 * AskUserQuestion's result: answers and notes keyed by question id, and
 * the request's metadata. A call that failed is cancelled with the error.
 */
export interface AskUserQuestionResult {
  cancelled: boolean;
  answers?: Record<string, AskUserQuestionAnswer>;
  annotations?: Record<string, { questionNotes?: string; optionNotes?: Record<string, string>; selectedPreview?: string }>;
  metadata?: { source?: string; flowId?: string };
  error?: { code: AskUserErrorCode; message: string };
}

export interface AskUserOption {
  label: string;
  description?: string;
  preview?: string;
}

export interface AskUserFormField {
  name: string;
  label: string;
  kind: "bool" | "single" | "multi" | "input";
  required?: boolean;
  options?: AskUserOption[];
  default?: boolean | string | string[];
}

export interface AskUserQuestion {
  id?: string;
  title: string;
  prompt?: string;
  kind?: AskUserKind;
  options?: AskUserOption[];
  default?: string | boolean;
  fields?: AskUserFormField[];
}

export interface AskUserRequest {
  questions: AskUserQuestion[];
  header?: string;
  allowFreeText?: boolean;
  displayMode?: "overlay" | "inline";
  timeoutPerQuestionMs?: number;
}

/** The support report of a host: whether, and how, it can prompt. */
export type AskUserSupport =
  | { status: "available"; route: AskUserRoute; source: "configured" | "probed"; available: AskUserRoute[] }
  | { status: "configured_unavailable"; configured: AskUserRoute; available: AskUserRoute[]; reason: string }
  | { status: "no_available_ui"; reason: string }
  | { status: "invalid_config"; reason: string };

export type AskUserOutcomeChannel = "ask:answered" | "ask:aborted" | "ask:timeout" | "ask:error";

/** The payloads of the runtime events. They never carry content. */
export interface AskUserWaitStarted {
  active: true;
  label: string;
  callId?: string;
}
export interface AskUserWaitEnded {
  active: false;
  callId?: string;
}
export interface AskUserOutcomeEvent {
  callId?: string;
  route?: AskUserRoute;
  status: AskUserStatus;
  cancelledReason?: "user" | "abort";
  errorCode?: AskUserErrorCode;
}

/**
 * Receives the runtime events of a direct call: the start and the end of
 * the interactive wait, and the outcome between them.
 */
export interface AskUserEventSink {
  waitStarted?(e: AskUserWaitStarted): void;
  waitEnded?(e: AskUserWaitEnded): void;
  outcome?(channel: AskUserOutcomeChannel, e: AskUserOutcomeEvent): void;
}

/** Programmatic options. Each one that is set overrides the user config file. */
/** The notify preferences: each notification on or off, and a command. */
export interface AskUserNotify {
  bell?: boolean;
  /** true, false, or the protocol: OSC 9, OSC 777 or kitty's OSC 99. */
  desktop?: boolean | "osc9" | "osc777" | "osc99";
  title?: boolean;
  /** A program and its arguments, run as each questionnaire opens; null for none. */
  command?: string[] | null;
}

export interface AskUserOptions {
  mode?: AskUserRoute;
  displayMode?: "overlay" | "inline";
  /** A KeyId chord, or null / "off" / "none" / "disabled" to turn the toggle off. */
  overlayToggleKey?: string | null;
  timeoutPerQuestionMs?: number;
  /** How the user is told that a question is waiting; see the README. */
  notify?: AskUserNotify;
  /** Another config file, or false to read none. Default: <agent dir>/ask-user.json. */
  configFile?: string | false;
  /** The askuser binary; default: bin/askuser next to the package, then PATH. */
  binary?: string;
  /**
   * askuser's dialog compiled to WebAssembly, which draws the custom
   * route's frames inside Pi's process; false to have the binary draw
   * every frame. Default: bin/askuser-dialog.wasm in the package, when
   * there is one.
   */
  dialogModule?: string | false;
  /** Direct calls only: receives the runtime events. */
  events?: AskUserEventSink;
}
