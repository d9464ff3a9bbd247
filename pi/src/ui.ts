// Pi's side of the two routes: the custom component that shows the child's
// frames and sends it keys, and the native dialogs the child asks for.

import {
  CURSOR_MARKER,
  decodeKittyPrintable,
  isKeyRelease,
  isKeyRepeat,
  isKittyProtocolActive,
  matchesKey,
  parseKey,
  sliceByColumn,
  truncateToWidth,
  visibleWidth,
} from "@earendil-works/pi-tui";
import type { KeyId, OverlayHandle, OverlayOptions, TUI } from "@earendil-works/pi-tui";
import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import type { Cursor, Dialog, Frame, Notify, Open, ToChild, Tries, TriedFrame } from "./protocol.ts";
import { keyId, letterClass, letterFrame, type Template, templatesOf, TEXT_TRIED_KEYS, TRIED_KEYS } from "./tries.ts";
import type { Key, LocalDialog, LocalFrame } from "./wasm.ts";

/** The part of Pi's ExtensionContext the routes use. */
export interface UIContext {
  mode?: string;
  hasUI?: boolean;
  ui: {
    custom?: ExtensionUIContext["custom"];
    input?: (title: string, placeholder?: string, opts?: { signal?: AbortSignal; timeout?: number }) => Promise<string | undefined>;
    select?: (title: string, options: string[], opts?: { signal?: AbortSignal; timeout?: number }) => Promise<string | undefined>;
    onTerminalInput?: (handler: (data: string) => { consume?: boolean; data?: string } | undefined) => () => void;
    notify?: (message: string, type?: "info" | "warning" | "error") => void;
    setStatus?: (key: string, text: string | undefined) => void;
    setWorkingVisible?: (visible: boolean) => void;
    theme?: unknown;
  };
}

type Send = (msg: ToChild) => void;

// Sends a key and waits for its frame, the last of answers frames the
// child owes (see Child.exchange).
type SendKey = (msg: ToChild, answers: number) => void;

// The title stack's push and pop (XTWINOPS 22 and 23), as the child sends them.
const TITLE_PUSH = "\x1b[22;0t";
const TITLE_POP = "\x1b[23;0t";
/** The key of the footer status the package sets while a dialog is hidden. */
export const STATUS_KEY = "askuser";

const BRACKETED_PASTE = /^\x1b\[200~([\s\S]*?)(?:\x1b\[201~)?$/;

// keyMessage's answers for short input, by whether the Kitty keyboard
// protocol is on (parseKey reads it): a key is parsed once, then looked
// up. A person's key comes with this code cold in the CPU's caches, and
// the lookup touches far less of it than the parse, which tries a dozen
// patterns. Raw 0x08 is parsed each time: parseKey reads the environment
// for it.
const parsedKeys = [new Map<string, Key | undefined>(), new Map<string, Key | undefined>()] as const;
const PARSED_MAX = 256;
const PARSED_LENGTH = 16;

/**
 * Turns raw terminal input into a key message: pasted and printable text
 * as text, everything else as a Pi key name. Undefined for input that is
 * neither (a key release, an unknown sequence). The same input may give
 * the same object again: it is not to be changed.
 */
export function keyMessage(data: string): Key | undefined {
  if (data.length > PARSED_LENGTH || data === "\x08") return parseKeyMessage(data);
  const parsed = parsedKeys[isKittyProtocolActive() ? 1 : 0];
  let k = parsed.get(data);
  if (k === undefined && !parsed.has(data)) {
    k = parseKeyMessage(data);
    if (parsed.size < PARSED_MAX) parsed.set(data, k);
  }
  return k;
}

function parseKeyMessage(data: string): Key | undefined {
  if (isKeyRelease(data)) return undefined;
  const paste = BRACKETED_PASTE.exec(data);
  if (paste) return paste[1] ? { text: paste[1] } : undefined;
  const kitty = decodeKittyPrintable(data);
  if (kitty !== undefined) return { text: kitty };
  if (isPrintable(data)) return { text: data };
  const key = parseKey(data);
  return key ? { key } : undefined;
}

function isPrintable(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) return false;
  }
  return true;
}

/** Rows the dialog may use: the terminal's, less a line for Pi's own UI inline. */
function rowsFor(tui: TUI | undefined, overlay: boolean): number {
  const rows = Number(tui?.terminal?.rows) || 24;
  return Math.max(overlay ? rows - 2 : rows - 4, 1);
}

/** Puts the IME cursor marker at column col of line. */
function withCursor(line: string, col: number, width: number): string {
  return sliceByColumn(line, 0, col) + CURSOR_MARKER + sliceByColumn(line, col, Math.max(width - col, 0));
}

/**
 * One custom component on screen. Created on the child's "open", fed its
 * "frame"s, ended by "close" or by the call's end.
 */
export class CustomView {
  // What is on screen: the in-process dialog's frame for the last key, or
  // the child's last frame.
  private lines: string[] = [];
  private cursor: Cursor | undefined;
  // The width all of lines fit, when that was measured before they came;
  // and the cursor's line with its marker, when that was drawn before.
  private fits: number | undefined;
  private marked: LocalFrame["marked"];
  // The child's last frame, whole: its patches apply to it.
  private childLines: string[] = [];
  private childCursor: Cursor | undefined;
  // The in-process copy of the dialog (src/wasm.ts), while it is used.
  private local: LocalDialog | undefined;
  // The in-process frames of the keys and sizes the child has not
  // answered yet, oldest first.
  private expected: (LocalFrame & { template?: boolean })[] = [];
  // The child's frames that differed from the copy's for the same key
  // while the child was not behind.
  private mismatches = 0;
  // Messages for the child that wait for Pi's render (see post).
  private outbox: ToChild[] = [];
  // Makes the in-process copy, once it can; and the sizes and keys the
  // child has had, for a copy made late. undefined once there is a copy,
  // or none will be made.
  private makeLocal: (() => LocalDialog | undefined) | undefined;
  private history: ({ key: string } | { text: string } | { width: number; rows: number })[] | undefined = [];
  // Keys and sizes sent to the child that it has not answered yet.
  private unanswered = 0;
  // Without an in-process copy: whether the child was asked to draw the
  // likely next keys' frames ahead (a try message), and those it drew
  // for its last frame, by keyId, with the letter classes' templates;
  // undefined while there are none for the frame on screen. letters is
  // false once a letter drawn from a template was not the child's.
  private asked = false;
  private ahead: { frames: Map<string, LocalFrame>; templates: Map<number, Template> } | undefined;
  private letters = true;
  // The last render: returned again while nothing it depends on changed,
  // and its lines reused where theirs did not.
  private rendered:
    | { lines: string[]; cursor: Cursor | undefined; width: number; rows: number; focused: boolean; out: string[] }
    | undefined;
  private width = 0;
  private rows = 0;
  private tui: TUI | undefined;
  private done: ((v: unknown) => void) | undefined;
  private handle: OverlayHandle | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed = false;
  private hidden = false;
  private noticeShown = false;
  // What the footer says while the overlay is hidden, when the child gave
  // a reminder; else a one-time notice says how to restore it.
  private hiddenStatus: string | undefined;
  private hideWorking = false; // Pi's working indicator is hidden while this is open
  private firstFrame: (() => void) | undefined;
  // Notification sequences that came before Pi gave the component its TUI.
  private notices: string[] = [];
  // The title was pushed and has not been popped yet.
  private titlePushed = false;
  readonly overlay: boolean;
  readonly component = {
    focused: false,
    render: (width: number) => this.render(width),
    handleInput: (data: string) => this.handleInput(data),
    invalidate: () => {},
  };

  private ctx: UIContext;
  private send: Send;
  private sendKey: SendKey;
  private call: string;

  /**
   * send writes a message to the child. sendKey, send unless given, writes
   * a key: the host's waits for the key's frame, so that the render Pi
   * makes after handleInput already shows it. local, when given, is the
   * same dialog in process: it draws every key's frame at once, and the
   * child gets the key through send, in the background. The child's
   * frames still come, and once it has caught up its frame is what is
   * shown; a copy that disagrees with it is dropped, and the child draws
   * alone from then on. local is a function that makes the copy, or
   * undefined while it cannot yet (the module is still loading): the
   * component then asks again before each key, and a copy made late is
   * given the sizes and keys so far before it draws.
   */
  constructor(ctx: UIContext, send: Send, call: string, open: Open, sendKey: SendKey = send, local?: () => LocalDialog | undefined) {
    this.ctx = ctx;
    this.makeLocal = local;
    this.local = local?.();
    if (this.local) this.listen(this.local);
    if (this.local || !local) this.history = undefined;
    this.send = send;
    this.sendKey = sendKey;
    this.call = call;
    if (!this.local) this.askAhead(true);
    this.overlay = open.display !== "inline";
    this.hiddenStatus = open.hiddenStatus || undefined;
    this.hideWorking = open.hideWorking === true;
    if (this.hideWorking) this.working(false);
    const toggleKey = this.overlay ? open.toggleKey : "";
    if (toggleKey && this.ctx.ui.onTerminalInput) {
      this.unsubscribe = this.ctx.ui.onTerminalInput((data) => this.onRaw(data, toggleKey));
    }
    const options = this.overlay
      ? {
          overlay: true,
          overlayOptions: { anchor: "center", width: "100%", maxHeight: "100%" } satisfies OverlayOptions,
          onHandle: (h: OverlayHandle) => {
            if (this.closed) return;
            this.handle = h;
          },
        }
      : { overlay: false };
    try {
      const shown = this.ctx.ui.custom!((tui, _theme, _kb, done: (v: unknown) => void) => {
        this.tui = tui;
        this.done = done;
        for (const data of this.notices.splice(0)) this.write(data);
        if (this.closed) queueMicrotask(() => done(undefined));
        this.resize(Number(tui?.terminal?.columns) || 80, rowsFor(tui, this.overlay));
        // Show the component with its first frame, not empty; a slow
        // child only delays it by a little. The in-process copy has
        // drawn it already.
        if (this.lines.length > 0) return Promise.resolve(this.component);
        return new Promise((resolve) => {
          const t = setTimeout(() => resolve(this.component), 40);
          this.firstFrame = () => {
            clearTimeout(t);
            resolve(this.component);
          };
        });
      }, options);
      Promise.resolve(shown).then(
        () => {},
        (err: unknown) => this.fail(err),
      );
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    if (this.closed) return;
    this.flush();
    this.send({ type: "ui_error", call: this.call, message: err instanceof Error ? err.message : String(err) });
  }

  /** Takes a frame from the child, whole or a patch, and redraws. */
  frame(msg: Frame): void {
    this.ahead = undefined; // drawn ahead of the frame before
    this.childLines = msg.at !== undefined && msg.length !== undefined ? patched(this.childLines, msg.lines, msg.at, msg.length) : msg.lines;
    this.childCursor = msg.cursor;
    if (msg.tick !== true) {
      if (this.unanswered > 0) this.unanswered--;
      // The answer to the oldest key or size the child had not answered.
      const mine = this.expected.shift();
      if (mine && this.expected.length === 0 && !sameFrame(mine, this.childLines, this.childCursor)) {
        if (this.local) {
          // Not a countdown's second turning while the child was behind:
          // the copy drew something else. Its frames stop here.
          if (++this.mismatches >= MAX_MISMATCHES) this.dropLocal();
        } else if (mine.template) {
          this.letters = false; // a letter's frame drawn ahead was not the child's
        }
      }
    }
    // While the child is behind the copy, the copy's frame stays.
    if (this.expected.length > 0) return;
    if (sameFrame({ lines: this.lines, cursor: this.cursor }, this.childLines, this.childCursor)) {
      this.childLines = this.lines; // the same: keep the render's cache
      return;
    }
    this.show({ lines: this.childLines, cursor: this.childCursor });
  }

  // Puts a frame on screen.
  private show(f: LocalFrame): void {
    this.lines = f.lines;
    this.cursor = f.cursor;
    this.fits = f.fits;
    this.marked = f.marked;
    const first = this.firstFrame;
    this.firstFrame = undefined;
    first?.();
    this.tui?.requestRender?.();
  }

  /**
   * Sends msg to the child: at once, or, while the in-process copy draws,
   * after Pi has rendered the copy's frame. A write to the child's pipe
   * wakes it, and the woken child can take this CPU from Pi before the
   * render; Pi renders on the next tick, before this flush.
   */
  private post(msg: ToChild, later = this.local !== undefined): void {
    if (!later) {
      this.flush();
      this.send(msg);
      return;
    }
    this.outbox.push(msg);
    if (this.outbox.length === 1) setImmediate(() => this.flush());
  }

  // Sends what post has held back, in order.
  private flush(): void {
    for (const m of this.outbox.splice(0)) this.send(m);
  }

  // Stops using the in-process copy: the child draws alone from now on.
  private dropLocal(): void {
    if (!this.local) return;
    this.local.close();
    this.local = undefined;
    this.history = undefined;
    if (!this.closed) this.askAhead(true);
  }

  // Asks the child to draw the likely next keys' frames ahead of them,
  // after every frame it sends, or to stop (when an in-process copy
  // draws them).
  private askAhead(on: boolean): void {
    if (on === this.asked) return;
    this.asked = on;
    this.ahead = undefined;
    this.send(on ? { type: "try", call: this.call, keys: TRIED_KEYS, typing: TEXT_TRIED_KEYS } : { type: "try", call: this.call });
  }

  /**
   * Takes the frames the child drew ahead of the likely next keys, for
   * its last frame: handleInput shows one the moment its key comes. They
   * are dropped when a key or size has gone to the child since.
   */
  tries(msg: Tries): void {
    if (this.closed || this.local || !this.asked || this.unanswered > 0 || !Array.isArray(msg.frames)) return;
    const frames = new Map<string, LocalFrame>();
    for (const t of msg.frames) {
      const f = this.triedFrame(t);
      if (f) frames.set(f.id, f.frame);
    }
    this.ahead = { frames, templates: templatesOf(frames) };
  }

  // One frame of a tries message as a frame of the child's last, with
  // its keyId; undefined for one that is not as the protocol says.
  private triedFrame(t: TriedFrame): { id: string; frame: LocalFrame } | undefined {
    if (typeof t !== "object" || t === null) return undefined;
    const { key, text, at, length, lines, cursor } = t;
    const named = typeof key === "string" && text === undefined;
    const typed = typeof text === "string" && key === undefined;
    if (!(named || typed) || !Number.isInteger(at) || !Number.isInteger(length) || at < 0 || at > this.childLines.length || length < 0) return undefined;
    if (!Array.isArray(lines) || !lines.every((l) => typeof l === "string")) return undefined;
    if (cursor !== undefined && (typeof cursor !== "object" || cursor === null || !Number.isInteger(cursor.row) || !Number.isInteger(cursor.col))) return undefined;
    const frame: LocalFrame = { lines: patched(this.childLines, lines, at, length) };
    if (cursor) frame.cursor = { row: cursor.row, col: cursor.col };
    return { id: named ? keyId({ key: key! }) : keyId({ text: text! }), frame };
  }

  // The frame the child drew ahead for key, when it did; a letter's may
  // come from its class's template.
  private aheadFrame(key: Key): (LocalFrame & { template?: boolean }) | undefined {
    const ahead = this.ahead;
    if (!ahead) return undefined;
    const f = ahead.frames.get(keyId(key));
    if (f || !this.letters || !("text" in key)) return f;
    const t = ahead.templates.get(letterClass(key.text));
    return t && { ...letterFrame(t, key.text), template: true };
  }

  // Makes the in-process copy late, when it can be made now, and gives it
  // the sizes and keys so far. It is used only when it then draws what
  // the child drew last; the child has answered everything sent.
  private adopt(): void {
    const local = this.makeLocal?.();
    if (!local) return;
    this.askAhead(false);
    const history = this.history ?? [];
    this.history = undefined;
    let f: LocalFrame | "ended" | undefined;
    for (const h of history) {
      f = "width" in h ? local.resize(h.width, h.rows) : local.key(h);
      if (f === undefined || f === "ended") break;
    }
    if (f === undefined || f === "ended" || !sameFrame(f, this.childLines, this.childCursor)) {
      local.close();
      return;
    }
    this.local = local;
    this.listen(local);
  }

  // Hears what the in-process copy draws while Pi is idle.
  private listen(local: LocalDialog): void {
    local.onTried = (f) => this.measure(f);
    local.onCorrected = (f) => this.corrected(f);
  }

  // Shows the copy's own frame for its last key, drawn while Pi was idle,
  // in place of the one shown for it, and compares the child's answer to
  // the key with it; once the child has answered, the child's frame is
  // shown already.
  private corrected(f: LocalFrame): void {
    if (this.expected.length === 0) return; // the child has answered: its frame is shown
    this.expected[this.expected.length - 1] = f;
    this.show(f);
  }

  // Marks a frame the in-process copy tried while Pi was idle as fitting
  // the width, when it does, and draws its cursor's line with the marker,
  // so that the render after its key need not measure or slice its lines.
  private measure(f: LocalFrame): void {
    const width = this.width;
    const c = f.cursor;
    if (c && c.row < f.lines.length) {
      const line = withCursor(f.lines[c.row]!, c.col, width);
      f.marked = { width, line, fits: visibleWidth(line) <= width };
    }
    for (const l of f.lines) if (visibleWidth(l) > width) return;
    f.fits = width;
  }

  /**
   * Writes a notify message's sequences (the bell, a desktop
   * notification, the title) through Pi's terminal. None moves the
   * cursor or draws, so they go between Pi's renders without touching its
   * screen. Also after close: the title comes back then.
   */
  notify(msg: Notify): void {
    if (msg.data === "") return;
    if (msg.data.includes(TITLE_PUSH)) this.titlePushed = true;
    if (msg.data.includes(TITLE_POP)) this.titlePushed = false;
    if (this.tui) this.write(msg.data);
    else this.notices.push(msg.data);
  }

  /**
   * Restores the title the child pushed, when the call ended before the
   * child's own restore came: a result that settles the call (at the
   * deadline, on an abort) can overtake it, and what follows a result is
   * not read.
   */
  restoreTitle(): void {
    if (!this.titlePushed) return;
    this.titlePushed = false;
    if (this.tui) this.write(TITLE_POP);
    else this.notices = [];
  }

  private write(data: string): void {
    try {
      this.tui?.terminal?.write?.(data);
    } catch {
      // A terminal that cannot take them loses the notifications only.
    }
  }

  private resize(width: number, rows: number): void {
    if (width === this.width && rows === this.rows) return;
    this.width = width;
    this.rows = rows;
    this.post({ type: "resize", call: this.call, width, rows });
    this.unanswered++;
    this.history?.push({ width, rows });
    if (!this.local) return;
    const f = this.local.resize(width, rows);
    if (!f) return this.dropLocal();
    this.expected.push(f);
    this.show(f);
  }

  private render(width: number): string[] {
    this.resize(width, rowsFor(this.tui, this.overlay));
    const focused = this.component.focused === true;
    const c = this.rendered;
    if (c && c.lines === this.lines && c.width === width && c.rows === this.rows && c.focused === focused) return c.out.slice();
    // The column of the cursor marker in row i, or -1.
    const marker = (cursor: Cursor | undefined, on: boolean, i: number) => (on && cursor && cursor.row === i ? cursor.col : -1);
    const same = c && c.width === width && c.focused === focused ? c : undefined;
    const fits = this.fits === width;
    const out: string[] = [];
    const n = Math.min(this.lines.length, this.rows);
    for (let i = 0; i < n; i++) {
      let line = this.lines[i]!;
      if (same && i < same.out.length && same.lines[i] === line && marker(same.cursor, focused, i) === marker(this.cursor, focused, i)) {
        out.push(same.out[i]!); // a line the patch kept, drawn as before
        continue;
      }
      if (focused && this.cursor && this.cursor.row === i) {
        const m = this.marked;
        if (m && m.width === width) {
          out.push(m.fits ? m.line : truncateToWidth(m.line, width, ""));
          continue;
        }
        line = withCursor(line, this.cursor.col, width);
      }
      // Pi throws on a line wider than the width. The child never sends
      // one for the width it was given, and this keeps a stale frame after
      // a shrink from doing it; visibleWidth is cached by pi-tui, so the
      // check costs little when the line fits, as it nearly always does.
      // A frame measured before its key came is not measured again.
      out.push((fits && line === this.lines[i]) || visibleWidth(line) <= width ? line : truncateToWidth(line, width, ""));
    }
    this.rendered = { lines: this.lines, cursor: this.cursor, width, rows: this.rows, focused, out };
    return out.slice(); // Pi may change what it is given
  }

  private handleInput(data: string): void {
    if (this.closed) return;
    const key = keyMessage(data);
    if (!key) return;
    const msg: ToChild = { type: "key", call: this.call, ...key };
    if (!this.local && this.history && this.unanswered === 0) this.adopt();
    const ahead = !this.local && this.unanswered === 0 ? this.aheadFrame(key) : undefined;
    this.ahead = undefined;
    this.unanswered++;
    this.history?.push(key);
    if (ahead) {
      // Drawn ahead by the child: shown now, and the key goes to the
      // child after Pi has rendered it. The child's own frame for it
      // follows, and is shown should it differ.
      this.post(msg, true);
      this.expected.push(ahead);
      this.show(ahead);
      return;
    }
    if (this.local) {
      const f = this.local.key(key);
      if (f !== undefined && f !== "ended") {
        this.post(msg);
        this.expected.push(f);
        this.show(f);
        return;
      }
      // The key ended the dialog, or the copy failed: the child has the
      // key as before, and closes the component in this handleInput.
      this.dropLocal();
    }
    this.flush();
    this.sendKey(msg, this.unanswered);
  }

  // The raw listener sees input before the component, also while the
  // overlay is hidden, so the same key hides and restores it.
  private onRaw(data: string, toggleKey: string): { consume: boolean } | undefined {
    if (this.closed || !matchesKey(data, toggleKey as KeyId)) return undefined;
    if (isKeyRelease(data) || isKeyRepeat(data)) return { consume: true };
    const h = this.handle;
    if (!h) return { consume: true };
    this.hidden = !this.hidden;
    h.setHidden(this.hidden);
    if (!this.hidden) h.focus?.();
    if (this.hiddenStatus !== undefined) {
      this.status(this.hidden ? this.hiddenStatus : undefined);
    } else if (this.hidden && !this.noticeShown) {
      this.noticeShown = true;
      this.ctx.ui.notify?.(`ask_user is hidden; press ${toggleKey} to show it again`, "info");
    }
    this.tui?.requestRender?.();
    return { consume: true };
  }

  private working(visible: boolean): void {
    try {
      this.ctx.ui.setWorkingVisible?.(visible);
    } catch {
      /* a Pi without the indicator */
    }
  }

  private status(text: string | undefined): void {
    try {
      this.ctx.ui.setStatus?.(STATUS_KEY, text);
    } catch {
      /* a Pi without a footer: the dialog works without the reminder */
    }
  }

  /** Removes the component and the raw listener. Safe to call often. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.hidden && this.hiddenStatus !== undefined) this.status(undefined);
    if (this.hideWorking) this.working(true);
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.dropLocal();
    this.flush();
    const done = this.done;
    this.done = undefined;
    this.handle = undefined;
    this.firstFrame?.();
    this.firstFrame = undefined;
    done?.(undefined);
  }
}

/**
 * Types keys (raw terminal input) into a component over the in-process
 * dialog local, with a stand-in for Pi that renders after every key, a
 * few keys per turn of the event loop, and closes it. V8 compiles the
 * component's key path (handleInput, render) once it has run often:
 * done while the module warms up, that work is not paid by a person's
 * first keys. Nothing reaches a child or a terminal.
 */
export async function warmView(local: LocalDialog, width: number, rows: number, keys: readonly string[]): Promise<void> {
  const tui = { terminal: { columns: width, rows }, requestRender: () => {} };
  const custom = (factory: (tui: unknown, theme: unknown, kb: unknown, done: (v: unknown) => void) => unknown) => factory(tui, undefined, undefined, () => {});
  const ctx = { ui: { custom: custom as unknown as ExtensionUIContext["custom"] } };
  const open: Open = { type: "open", call: "", display: "overlay", toggleKey: "" };
  const view = new CustomView(ctx, () => {}, "", open, undefined, () => local);
  view.component.focused = true;
  for (let i = 0; i < keys.length; i++) {
    await new Promise((r) => setImmediate(r));
    view.component.handleInput(keys[i]!);
    view.component.render(width);
  }
  view.close();
}

/**
 * How many times the in-process copy of a dialog may draw a frame other
 * than the child's for the same key, with the child caught up, before it
 * is dropped. A countdown's second can turn between the two draws.
 */
export const MAX_MISMATCHES = 3;

/** Whether frame f has these lines and this cursor. */
function sameFrame(f: LocalFrame, lines: string[], cursor: Cursor | undefined): boolean {
  if (f.lines.length !== lines.length) return false;
  if ((f.cursor === undefined) !== (cursor === undefined)) return false;
  if (f.cursor && cursor && (f.cursor.row !== cursor.row || f.cursor.col !== cursor.col)) return false;
  for (let i = 0; i < lines.length; i++) if (f.lines[i] !== lines[i]) return false;
  return true;
}

/**
 * The frame a patch makes of last: its lines from at on replaced by
 * lines, and length lines in all. The child patches only frames it sent;
 * a patch past the end would be its bug, and leaves empty lines rather
 * than a crash.
 */
function patched(last: string[], lines: string[], at: number, length: number): string[] {
  const next = last.slice(0, at);
  while (next.length < at) next.push("");
  for (const l of lines) next.push(l);
  for (let i = next.length; i < last.length; i++) next.push(last[i]!);
  if (next.length > length) next.length = Math.max(length, 0);
  return next;
}

/** The native dialogs of one call. */
export class NativeDialogs {
  private open = new Map<number, AbortController>();
  private ctx: UIContext;
  private send: Send;
  private call: string;

  constructor(ctx: UIContext, send: Send, call: string) {
    this.ctx = ctx;
    this.send = send;
    this.call = call;
  }

  /** Opens the dialog the child asked for and sends back its reply. */
  show(msg: Dialog): void {
    const req = msg.req;
    const ac = new AbortController();
    this.open.set(req, ac);
    const timeout = msg.timeoutMs !== undefined && msg.timeoutMs > 0 ? msg.timeoutMs : undefined;
    const opts = { signal: ac.signal, timeout };
    const started = Date.now();
    const reply = (m: { value: string } | { cancelled: true } | { timedOut: true } | { error: string }) => {
      if (!this.open.delete(req) || ac.signal.aborted) return;
      this.send({ type: "reply", call: this.call, req, ...m });
    };
    let p: Promise<string | undefined>;
    try {
      p =
        msg.method === "select"
          ? this.ctx.ui.select!(msg.title, msg.options ?? [], opts)
          : this.ctx.ui.input!(msg.title, msg.placeholder, opts);
    } catch (err) {
      reply({ error: err instanceof Error ? err.message : String(err) });
      return;
    }
    Promise.resolve(p).then(
      (value) => {
        if (typeof value === "string") reply({ value });
        else if (timeout !== undefined && Date.now() - started >= timeout - 20) reply({ timedOut: true });
        else reply({ cancelled: true });
      },
      (err: unknown) => reply({ error: err instanceof Error ? err.message : String(err) }),
    );
  }

  /** Closes the dialog the child gave up on. */
  cancel(req: number): void {
    const ac = this.open.get(req);
    this.open.delete(req);
    ac?.abort();
  }

  /** Closes every open dialog. */
  close(): void {
    for (const ac of this.open.values()) ac.abort();
    this.open.clear();
  }
}

/** SGR prefix and suffix per colour role, from Pi's theme. */
export function themeColours(theme: unknown): Record<string, { prefix: string; suffix: string }> | undefined {
  // Pi's Theme, as far as it is used here; another theme object, or none,
  // means askuser's own colours.
  const t = theme as { fg?: unknown; bold?: unknown } | null | undefined;
  if (!t || typeof t.fg !== "function") return undefined;
  const fg = t.fg as (token: string, text: string) => string;
  const bold = typeof t.bold === "function" ? (t.bold as (text: string) => string) : undefined;
  const out: Record<string, { prefix: string; suffix: string }> = {};
  const split = (styled: string) => {
    const i = styled.indexOf("\u0000");
    return i < 0 ? undefined : { prefix: styled.slice(0, i), suffix: styled.slice(i + 1) };
  };
  const roles: [string, string][] = [
    ["accent", "accent"],
    ["muted", "muted"],
    ["selection", "success"],
    ["warning", "warning"],
    ["error", "error"],
    ["border", "border"],
    ["code", "mdCode"],
  ];
  for (const [role, token] of roles) {
    try {
      const s = split(fg.call(t, token, "\u0000"));
      if (s) out[role] = s;
    } catch {
      /* the theme has no such token */
    }
  }
  try {
    const s = bold ? split(bold.call(t, "\u0000")) : undefined;
    if (s) out.bold = s;
  } catch {
    /* no bold */
  }
  return out;
}
