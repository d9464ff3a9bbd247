// A fake Pi for the shim's unit tests: an ExtensionContext whose UI
// records what the shim does with it, a TUI component host, and an
// ExtensionAPI that collects what the extension registers. The askuser
// binary is the real one, built next to the package.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./tempdir.ts";

export const pkgDir = dirname(dirname(fileURLToPath(import.meta.url)));
export const binary = join(pkgDir, "bin", "askuser");
if (!existsSync(binary)) throw new Error(`${binary} is missing: run make pi-binary first`);

export { tempDir };

// Pi's agent directory, where the default ask-user.json is read: never the
// real one.
process.env.PI_CODING_AGENT_DIR = tempDir("askuser-agent-");

/** The options that keep a host away from the user's config. */
export const noConfig = { configFile: false as const };

export interface Component {
  render(width: number): string[];
  handleInput?(data: string): void;
  invalidate(): void;
  focused?: boolean;
}

/** What ctx.ui.custom was given and what it produced. */
export interface Shown {
  options: any;
  component?: Component;
  done?: (v: unknown) => void;
  handle: { hidden: boolean; setHidden(h: boolean): void; isHidden(): boolean; focus(): void; focusCalls: number };
  settled: boolean;
}

/**
 * A fake ExtensionContext for mode, with the UI methods listed in ui (all
 * by default); theme and keybindings are what a custom component's factory
 * gets as Pi's.
 */
export function fakeCtx(mode: "tui" | "rpc" | "print" | "json", opts: { ui?: string[]; cols?: number; rows?: number; theme?: unknown; keybindings?: unknown } = {}) {
  const want = new Set(opts.ui ?? ["custom", "input", "select", "onTerminalInput", "notify"]);
  const calls: { method: string; args: any[] }[] = [];
  const shown: Shown[] = [];
  const listeners = new Set<(data: string) => any>();
  const notices: string[] = [];
  let renders = 0;
  const tui = {
    terminal: { columns: opts.cols ?? 80, rows: opts.rows ?? 24 },
    requestRender: () => {
      renders++;
    },
  };
  // Dialog answers the test scripts: a value, undefined, or a function of the options.
  const answers: any[] = [];
  const nextAnswer = (method: string, args: any[]) => {
    calls.push({ method, args });
    const a = answers.shift();
    return typeof a === "function" ? a(...args) : Promise.resolve(a);
  };
  const ui: Record<string, any> = {};
  if (want.has("custom"))
    ui.custom = (factory: any, options: any) => {
      calls.push({ method: "custom", args: [options] });
      const s: Shown = {
        options,
        settled: false,
        handle: {
          hidden: false,
          focusCalls: 0,
          setHidden(h: boolean) {
            this.hidden = h;
          },
          isHidden() {
            return this.hidden;
          },
          focus() {
            this.focusCalls++;
          },
        },
      };
      shown.push(s);
      options?.onHandle?.(s.handle);
      return new Promise((resolve) => {
        s.done = (v) => {
          s.settled = true;
          resolve(v);
        };
        Promise.resolve(factory(tui, opts.theme ?? {}, opts.keybindings ?? {}, s.done)).then((c: Component) => {
          s.component = c;
          c.focused = true;
        });
      });
    };
  if (want.has("input")) ui.input = (...args: any[]) => nextAnswer("input", args);
  if (want.has("select")) ui.select = (...args: any[]) => nextAnswer("select", args);
  if (want.has("onTerminalInput"))
    ui.onTerminalInput = (fn: (data: string) => any) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    };
  if (want.has("notify")) ui.notify = (msg: string) => notices.push(msg);
  const ctx = { mode, hasUI: mode === "tui" || mode === "rpc", ui };
  /** Raw terminal input as Pi delivers it: listeners first, then the focused component. */
  const type = (data: string) => {
    for (const fn of [...listeners]) {
      const r = fn(data);
      if (r?.consume) return;
    }
    const top = shown.at(-1);
    if (top && !top.handle.hidden && !top.settled) top.component?.handleInput?.(data);
  };
  return { ctx, calls, shown, listeners, notices, answers, type, tui, renders: () => renders };
}

/** A fake ExtensionAPI: the tool, the handlers and the events it is given. */
export function fakePi() {
  const handlers = new Map<string, ((e: any, ctx: any) => unknown)[]>();
  const emitted: { channel: string; payload: any }[] = [];
  let tool: any;
  const pi = {
    registerTool: (t: any) => {
      tool = t;
    },
    on: (event: string, fn: (e: any, ctx: any) => unknown) => {
      handlers.set(event, [...(handlers.get(event) ?? []), fn]);
      return () => {};
    },
    events: {
      emit: (channel: string, payload: unknown) => void emitted.push({ channel, payload }),
      on: (_channel: string, _handler: (data: unknown) => void) => () => {},
    },
  };
  const fire = async (event: string, e: any, ctx: any) => {
    for (const fn of handlers.get(event) ?? []) await fn(e, ctx);
  };
  return { pi, tool: () => tool, fire, emitted };
}

/** Waits until cond is truthy, polling, for at most ms. */
export async function until<T>(what: string, cond: () => T | undefined | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
