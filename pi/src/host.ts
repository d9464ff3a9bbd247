// A host: one Pi context bound to one askuser child. The child resolves
// the route and the preferences once, at its hello; this file only carries
// Pi's answers to it and its requests to Pi.

import { modelText, questionSpec, type TextKey, toolSpec, type ToolSpec } from "./spec.ts";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProblem } from "./binary.ts";
import { Child, type Death, describeDeath, isPermanent, newCallId, probe, PROTOCOL_VERSION } from "./child.ts";
import {
  type Dead,
  errorResult,
  type EventRecord,
  type Fatal,
  type Hello,
  type MirrorSpec,
  type Ready,
  type ToChild,
  type ToolResult,
} from "./protocol.ts";
import { CustomView, NativeDialogs, type UIContext, themeColours } from "./ui.ts";
import { type DialogModule, dialogModule, findDialogModule } from "./wasm.ts";
import type {
  AskUserErrorCode,
  AskUserEventSink,
  AskUserOptions,
  AskUserOutcomeChannel,
  AskUserOutcomeEvent,
  AskUserSupport,
  AskUserWaitEnded,
  AskUserWaitStarted,
} from "./types.ts";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** How long after its creation a host starts its child unasked. */
export const STARTUP_DELAY_MS = 150;

/** The release of this package, which the binary must share. */
export const RELEASE: string = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;

/** The platforms askuser ships a binary package for, as Node names them. */
export const PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"];

/** The npm package that holds the askuser binary for platform. */
export function platformPackage(platform: string): string {
  return `@askuser/askuser-${platform}`;
}

/**
 * Where the askuser binary is, or why there is none, in this order: the
 * explicit option; bin/askuser in the package, as `make` leaves it in a
 * checkout; the platform package that npm installed beside this one (an
 * optional dependency, found by module resolution); askuser on PATH.
 * where is for tests.
 */
export function findBinary(
  explicit: string | undefined,
  where: { packageDir?: string; path?: string; platform?: string; resolve?: (id: string) => string } = {},
): { path?: string; reason?: string } {
  const platform = where.platform ?? `${process.platform}-${process.arch}`;
  const runnable = (path: string) => {
    const problem = runProblem(path, platform);
    return problem ? { reason: `the askuser binary cannot run: ${problem}` } : { path };
  };
  if (explicit !== undefined) {
    if (typeof explicit === "string" && explicit !== "" && isFile(explicit)) return runnable(explicit);
    return { reason: `the askuser binary given in the "binary" option (${JSON.stringify(explicit)}) is not a file` };
  }
  const exe = platform.startsWith("win32-") ? "askuser.exe" : "askuser";
  const pkg = where.packageDir ?? packageDir;
  const local = join(pkg, "bin", exe);
  if (isFile(local)) return runnable(local);
  const resolve = where.resolve ?? createRequire(join(pkg, "package.json")).resolve;
  let installed: string | undefined;
  try {
    installed = join(dirname(resolve(`${platformPackage(platform)}/package.json`)), "bin", exe);
  } catch {
    installed = undefined; // not installed: npm skipped it, or there is none for this platform
  }
  if (installed && isFile(installed)) return runnable(installed);
  for (const dir of (where.path ?? process.env.PATH ?? "").split(delimiter)) {
    if (dir && isFile(join(dir, exe))) return runnable(join(dir, exe));
  }
  const what = PLATFORMS.includes(platform)
    ? `its package ${platformPackage(platform)}@${RELEASE} is not installed (npm leaves optional dependencies out with --omit=optional or --no-optional): ` +
      `reinstall this package with optional dependencies`
    : `askuser publishes binaries for ${PLATFORMS.join(", ")} only: build one from a checkout of askuser ${RELEASE} with "go install ./cmd/askuser"`;
  return {
    reason:
      `no askuser binary for this platform (${platform}): ${what}, pass the path of an askuser ${RELEASE} binary as the "binary" option, ` +
      `or put askuser on PATH (in a checkout, "make -C ${dirname(pkg)} pi-binary" builds ${local})`,
  };
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Pi's agent directory, as getAgentDir() gives it. */
export type AgentDirFn = () => string;

/** The tools the package can register: one per session, never both. */
export type ToolName = "ask_user" | "AskUserQuestion";

/** Builds the hello that describes ctx to the child. */
export function helloFor(ctx: UIContext | undefined, options: AskUserOptions, agentDir: string, tool: ToolName = "ask_user"): Hello {
  const ui = ctx?.ui ?? {};
  // Options that are not an object go to askuser as they are, to be
  // refused there with the rest of the option checks.
  const isObject = typeof options === "object" && options !== null && !Array.isArray(options);
  const { binary: _b, events: _e, dialogModule: _d, configFile, ...prefs } = isObject ? options : ({} as AskUserOptions);
  let theme: Hello["theme"];
  if (ctx?.mode === "tui") {
    try {
      theme = themeColours(ui.theme);
    } catch {
      theme = undefined;
    }
  }
  return {
    type: "hello",
    version: PROTOCOL_VERSION,
    release: RELEASE,
    mode: typeof ctx?.mode === "string" ? ctx.mode : "",
    hasUI: ctx?.hasUI === true,
    ui: {
      custom: typeof ui.custom === "function",
      input: typeof ui.input === "function",
      select: typeof ui.select === "function",
    },
    agentDir,
    options: isObject || options === undefined || options === null ? prefs : options,
    ...(configFile === undefined ? {} : { configFile }),
    ...(theme ? { theme } : {}),
    ...(tool === "ask_user" ? {} : { tool }),
  };
}

/** How a call reports its events. */
export type EventEmit = (channel: string, payload: unknown) => void;

/** A call's end as the tool needs it. */
export interface Answered {
  result: ToolResult;
  text: string;
  /** The agent's turn ends after this tool: the user dismissed AskUserQuestion. */
  terminate?: boolean;
}

/**
 * AskUserHost is one Pi context bound to askuser. Its route and
 * preferences are fixed by its child's hello, read once. The child starts
 * soon after the host is created, off Pi's startup path, or at once at
 * the first call; a dead child is replaced at the next call.
 */
export class AskUserHost {
  private ctx: UIContext;
  private hello: Hello;
  private binary: string | undefined;
  private missing: string | undefined;
  private child: Child | undefined;
  private closed = false;
  private probed: Ready | Fatal | Dead | undefined;
  private soon: NodeJS.Timeout | undefined;
  private spec: ToolSpec;
  // The in-process dialog's module, once it has loaded; its path until then.
  private modulePath: string | undefined;
  private module: DialogModule | undefined;
  private moduleLoad: Promise<DialogModule | undefined> | undefined;
  /** The one tool this host answers for. */
  readonly tool: ToolName;

  /** tool is the one tool this host answers for; its child serves that contract only. */
  constructor(ctx: UIContext, options: AskUserOptions, agentDir: string, tool: ToolName = "ask_user") {
    this.ctx = ctx;
    this.tool = tool;
    this.spec = tool === "AskUserQuestion" ? questionSpec : toolSpec;
    this.hello = helloFor(ctx, options, agentDir, tool);
    const bin = findBinary((options as AskUserOptions | null | undefined)?.binary);
    this.binary = bin.path;
    this.missing = bin.reason;
    const mod = (options as AskUserOptions | null | undefined)?.dialogModule;
    this.modulePath = mod === false || ctx?.mode !== "tui" ? undefined : typeof mod === "string" ? mod : findDialogModule();
    if (this.modulePath) this.hello = { ...this.hello, mirror: true };
    // Spawning costs Node some milliseconds of blocked event loop; Pi is
    // still starting now. The timer does not keep Pi alive, so a short
    // print run that never asks never spawns.
    if (this.binary) {
      this.soon = setTimeout(() => this.start(), STARTUP_DELAY_MS);
      this.soon.unref();
    }
  }

  /**
   * Loads the in-process dialog's module in the background, once; it
   * resolves with the module, or undefined when there is none or it
   * cannot load (the child then draws every frame). It never throws and
   * prints nothing.
   */
  loadModule(): Promise<DialogModule | undefined> {
    if (!this.moduleLoad) {
      const path = this.modulePath;
      this.moduleLoad = path && this.binary ? dialogModule(path) : Promise.resolve(undefined);
      this.moduleLoad.then((m) => (this.module = m));
    }
    return this.moduleLoad;
  }

  /** Starts the child if there is none. It never waits for it. */
  start(): Child | undefined {
    clearTimeout(this.soon);
    if (this.closed || !this.binary) return undefined;
    void this.loadModule();
    if (!this.child || this.child.dead) {
      try {
        this.child = new Child(this.binary, this.hello);
        this.child.onNotice = (message) => this.ctx.ui.notify?.(message, "warning");
      } catch (err) {
        // spawn throws at once only for arguments it cannot use at all.
        this.missing = `the askuser binary ${this.binary} could not be started: ${err instanceof Error ? err.message : String(err)}`;
        this.binary = undefined;
        return undefined;
      }
    }
    return this.child;
  }

  /** The current child, for tests and figures. */
  get process(): Child | undefined {
    return this.child;
  }

  /**
   * The support report: the child's ready report once it has arrived, else
   * that of a short-lived child run synchronously, once per host. The
   * report is a synchronous property (isAvailable, notAvailableReason), and
   * a long-lived child cannot answer synchronously: starting it here as
   * well would spawn two processes for one question. So asking does not
   * start the child; it starts on its timer or at the first call, which
   * never waits for it.
   */
  support(): AskUserSupport {
    if (!this.binary) return { status: "no_available_ui", reason: this.missing! };
    const ready = this.child?.readyMsg ?? (this.probed ??= probe(this.binary, this.hello));
    if (ready?.type === "fatal" || (ready?.type === "dead" && ready.error !== undefined)) {
      const d: Death = { code: null, signal: null, stderr: "", ...(ready.type === "fatal" ? { fatal: ready.message } : { error: ready.error }) };
      if (isPermanent(d)) return { status: "no_available_ui", reason: describeDeath(d) };
    }
    if (ready?.type !== "ready") {
      return { status: "no_available_ui", reason: "the askuser bridge process did not start; run it by hand (askuser bridge) to see why" };
    }
    return ready.support;
  }

  /** Ends the child. Idempotent; the host cannot ask afterwards. */
  close(): void {
    this.closed = true;
    clearTimeout(this.soon);
    this.child?.close();
  }

  /**
   * Asks params, the request exactly as given. It never throws: every
   * outcome is a result, with the text the model reads for it.
   */
  /**
   * Asks params. The dialogs open through opts.ctx, the context of this
   * call as Pi gives it to the tool, when there is one, and otherwise
   * through the context the host was made with.
   */
  async ask(
    params: unknown,
    opts: { callId?: string; signal?: AbortSignal; emit?: EventEmit; ctx?: UIContext; progress?: (milestone: string) => void },
  ): Promise<Answered> {
    if (!this.binary) return this.unsupported(this.missing!);
    if (this.closed) return this.refused("not_initialized", modelText("sessionEnded", "", this.spec), "notReady");
    try {
      JSON.stringify(params);
    } catch (err) {
      return this.refused("invalid_request", `the request is not JSON: ${err instanceof Error ? err.message : String(err)}`, "notJSON");
    }
    const child = this.start();
    if (!child) return this.unsupported(this.missing!);
    const call = newCallId();
    let view: CustomView | undefined;
    let dialogs: NativeDialogs | undefined;
    let route: "custom" | "native" | undefined;
    let blocked = false; // the child started the wait and has not ended it
    let outcome = false; // the child sent the attempt's ask:* event
    const send = (m: ToChild) => child.send(m);
    const localDialog = (spec: MirrorSpec | undefined) => {
      const mod = this.module;
      return spec && mod && !mod.broken ? mod.open(spec) : undefined;
    };
    const onAbort = () => send({ type: "abort", call });
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const ui = opts.ctx?.ui ? opts.ctx : this.ctx;
    const cleanup = () => {
      view?.restoreTitle();
      view?.close();
      dialogs?.close();
      opts.signal?.removeEventListener("abort", onAbort);
    };
    let end;
    try {
      end = await child.call(
        call,
        {
          type: "ask",
          call,
          params,
          ...(opts.callId ? { callId: opts.callId } : {}),
          ...(opts.signal?.aborted ? { aborted: true } : {}),
        },
        {
          onMessage(m) {
            switch (m.type) {
              case "event":
                if (m.channel === "herdr:blocked") {
                  blocked = isActive(m.payload);
                  if (blocked) outcome = false;
                } else if (m.channel.startsWith("ask:")) outcome = true;
                opts.emit?.(m.channel, m.payload);
                break;
              case "open":
                route = "custom";
                view?.close();
                view = new CustomView(ui, send, call, m, (k, answers) => child.exchange(k, call, answers), m.mirror ? () => localDialog(m.mirror) : undefined);
                break;
              case "frame":
                view?.frame(m);
                break;
              case "tries":
                view?.tries(m);
                break;
              case "close":
                view?.close();
                break;
              case "notify":
                view?.notify(m);
                break;
              case "dialog":
                route = "native";
                dialogs ??= new NativeDialogs(ui, send, call);
                dialogs.show(m);
                break;
              case "dialog_cancel":
                dialogs?.cancel(m.req);
                break;
              case "progress":
                try {
                  opts.progress?.(m.milestone);
                } catch {
                  /* the listener's failure is its own */
                }
                break;
            }
          },
        },
      );
    } finally {
      cleanup();
    }
    if (end) return { result: end.result, text: end.text, ...(end.terminate === true ? { terminate: true } : {}) };
    const dead = child.dead!;
    if (isPermanent(dead) && !route) {
      // A binary of another release, or one that cannot execute, will not
      // do better next time: every call from now on is refused with why.
      this.missing = `${describeDeath(dead)} (binary: ${this.binary})`;
      this.binary = undefined;
      return this.unsupported(this.missing);
    }
    return this.crashed(dead, route, params, blocked ? { ...opts, outcome } : undefined);
  }

  /** The result of a call whose child died, worded by a fresh child. */
  private async crashed(
    d: Death,
    route: "custom" | "native" | undefined,
    params: unknown,
    blocked: { callId?: string; emit?: EventEmit; outcome: boolean } | undefined,
  ): Promise<Answered> {
    const why = `${describeDeath(d)}; the next ${this.spec.name} call starts a new one`;
    const code = route === "custom" ? "custom_ui_failed" : route === "native" ? "native_ui_failed" : "internal";
    const result = errorResult(this.spec === questionSpec, code, why, route);
    const fresh = this.start();
    const call = newCallId("x");
    const reply = await fresh?.request(
      call,
      {
        type: "explain",
        call,
        params,
        result,
        ...(this.spec === questionSpec && route ? { route } : {}),
        ...(blocked
          ? { blocked: true, ...(blocked.outcome ? { outcome: true } : {}), ...(blocked.callId ? { callId: blocked.callId } : {}) }
          : {}),
      },
      "explained",
    );
    if (blocked) {
      // The wait the dead child opened must be closed, with an outcome
      // event unless the child sent one before it died. A fresh child says
      // how; when none can run either, the same events are made here.
      const id = blocked.callId ? { callId: blocked.callId } : {};
      const events: EventRecord[] = reply?.events ?? [
            ...(blocked.outcome
              ? []
              : [{ channel: "ask:error", payload: { ...id, ...(route ? { route } : {}), status: "error", errorCode: code } }]),
            { channel: "herdr:blocked", payload: { active: false, ...id } },
          ];
      for (const e of events) blocked.emit?.(e.channel, e.payload);
    }
    const text = reply?.text ?? modelText("failed", why, this.spec);
    return { result, text };
  }

  private refused(code: AskUserErrorCode, message: string, text: TextKey): Answered {
    return { result: errorResult(this.spec === questionSpec, code, message), text: modelText(text, message, this.spec) };
  }

  private unsupported(reason: string): Answered {
    return this.refused("unsupported_mode", reason, "unavailable");
  }
}

/** The result of a call made outside a session, for spec's tool. */
export function notInitialized(reason: string, spec: ToolSpec = toolSpec): Answered {
  return { result: errorResult(spec === questionSpec, "not_initialized", reason), text: modelText("notReady", reason, spec) };
}

/** An event function that hands events to a direct caller's sink. */
export function sinkEmitter(sink: AskUserEventSink | undefined): EventEmit | undefined {
  if (!sink) return undefined;
  return (channel, payload) => {
    try {
      // The child's events have the payloads of types.ts: it is askuser
      // of the same release, and its events are tested against them.
      if (channel === "herdr:blocked") {
        if (isActive(payload)) sink.waitStarted?.(payload as AskUserWaitStarted);
        else sink.waitEnded?.(payload as AskUserWaitEnded);
      } else {
        sink.outcome?.(channel as AskUserOutcomeChannel, payload as AskUserOutcomeEvent);
      }
    } catch {
      /* a sink's failure is its own */
    }
  };
}

/** Whether a herdr:blocked payload opens the wait. */
function isActive(payload: unknown): boolean {
  return typeof payload === "object" && payload !== null && (payload as { active?: unknown }).active === true;
}
