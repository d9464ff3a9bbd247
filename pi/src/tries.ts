// The keys whose frames are drawn ahead of them, and what is made of
// those frames: used by the in-process dialog (wasm.ts), which draws them
// itself, and by the component (ui.ts), which the child sends them to when
// there is no in-process dialog.

import type { Cursor } from "./protocol.ts";
import type { Key, LocalFrame } from "./wasm.ts";

/**
 * The keys tried while the person has not typed, most likely first: a
 * key's frame is then ready when it comes. Typed text is not tried here,
 * but for a space; see TEXT_TRIED_KEYS.
 *
 * A key is tried on a copy of the dialog (pimirror.Mirror.Try): nothing
 * it does reaches the dialog, the child or the screen unless it comes.
 * Enter and Esc are tried where they draw a frame: Enter on a review
 * page that goes to a question or says which is unanswered, Esc leaving
 * an input or asking before it dismisses (AskUserQuestion's dialog). A
 * key that ends the dialog, Enter that submits or Esc that dismisses,
 * has no frame to draw ahead: the module refuses to try it, and when it
 * comes the child closes the component. Alt+Q is tried while a countdown
 * runs: the copy draws "No timeout" and the countdown runs on, in the
 * dialog and in the child, until Alt+Q comes.
 */
export const TRIED_KEYS: readonly Key[] = [
  { key: "down" },
  { key: "up" },
  { key: "enter" },
  { text: " " },
  { key: "tab" },
  { key: "shift+tab" },
  { key: "right" },
  { key: "left" },
  { key: "escape" },
  { key: "alt+q" },
];

/**
 * Letters whose frames a pair of tried letters stands for: in a text
 * input, a letter of one class changes the frame in its own cell only,
 * where it is drawn as itself (the dialog has no field that weighs one
 * letter against another). Each class has its two probes, which are tried
 * as keys: when their frames differ in that one cell alone, the frame of
 * any letter of the class is the first with the letter in the cell. A
 * letter drawn so is still given to the module after Pi has rendered it,
 * and should the module draw another frame, that frame is shown, and no
 * letter of the dialog is drawn so again (LocalDialog.settle).
 */
export const LETTER_CLASSES: readonly { letters: RegExp; probes: readonly [string, string] }[] = [
  { letters: /^[a-z]$/, probes: ["e", "t"] },
  { letters: /^[A-Z]$/, probes: ["E", "T"] },
];

// The letter classes' index of each text looked up so far (-1: none):
// the regular expressions run once per letter, not on each key.
const classOf = new Map<string, number>();

/** The index in LETTER_CLASSES of text's class, or -1 for none. */
export function letterClass(text: string): number {
  let c = classOf.get(text);
  if (c === undefined) {
    c = LETTER_CLASSES.findIndex((l) => l.letters.test(text));
    if (classOf.size < 256) classOf.set(text, c);
  }
  return c;
}

/**
 * The keys tried while a text input has the cursor, most likely first:
 * the letter classes' probes, the deletions and the cursor's moves, then
 * TRIED_KEYS.
 */
export const TEXT_TRIED_KEYS: readonly Key[] = [
  { text: LETTER_CLASSES[0]!.probes[0] },
  { text: LETTER_CLASSES[0]!.probes[1] },
  { key: "backspace" },
  { text: " " },
  { key: "ctrl+w" },
  { key: "alt+backspace" },
  { key: "left" },
  { key: "right" },
  { key: "tab" },
  { key: "shift+tab" },
  { text: LETTER_CLASSES[1]!.probes[0] },
  { text: LETTER_CLASSES[1]!.probes[1] },
  ...TRIED_KEYS.filter((k) => !("text" in k) && !["tab", "shift+tab", "left", "right"].includes(k.key)),
];

/**
 * A tried frame that stands for every letter of a class: the frame, and
 * where in it the letter goes.
 */
export interface Template {
  frame: LocalFrame;
  row: number;
  col: number;
  // Where the letter goes in the frame's marked line, or -1.
  markedCol: number;
  at: number;
}

/**
 * The template two probes' frames make: they must be the same frame but
 * for one code unit of one line, where each shows its probe.
 */
export function templateOf(a: LocalFrame, b: LocalFrame, probes: readonly [string, string], at: number): Template | undefined {
  if (a.lines.length !== b.lines.length || !sameCursor(a.cursor, b.cursor)) return undefined;
  let row = -1;
  for (let i = 0; i < a.lines.length; i++) {
    if (a.lines[i] === b.lines[i]) continue;
    if (row >= 0) return undefined;
    row = i;
  }
  if (row < 0) return undefined;
  const col = probeAt(a.lines[row]!, b.lines[row]!, probes);
  if (col < 0) return undefined;
  const ma = a.marked;
  const mb = b.marked;
  const marked = ma && mb && ma.width === mb.width && ma.fits === mb.fits && a.cursor?.row === row ? probeAt(ma.line, mb.line, probes) : -1;
  return { frame: a, row, col, markedCol: marked, at };
}

// The one code unit where a and b differ, showing the first and the
// second probe; -1 when they differ otherwise.
function probeAt(a: string, b: string, probes: readonly [string, string]): number {
  if (a.length !== b.length) return -1;
  let col = -1;
  for (let i = 0; i < a.length; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
    if (col >= 0) return -1;
    col = i;
  }
  return col >= 0 && a[col] === probes[0] && b[col] === probes[1] ? col : -1;
}

export function sameCursor(a: Cursor | undefined, b: Cursor | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.row === b.row && a.col === b.col;
}

export function sameFrame(a: LocalFrame, b: LocalFrame): boolean {
  return sameCursor(a.cursor, b.cursor) && a.lines.length === b.lines.length && a.lines.every((l, i) => l === b.lines[i]);
}

/** The key of a map of frames by key: a key's name, or NUL and its text. */
export const keyId = (k: Key) => ("text" in k ? `\0${k.text}` : k.key);

/**
 * The templates the letter classes' probes make among frames, a map of
 * frames by keyId, by class.
 */
export function templatesOf(frames: ReadonlyMap<string, LocalFrame>): Map<number, Template> {
  const out = new Map<number, Template>();
  LETTER_CLASSES.forEach((c, i) => {
    const [p, q] = c.probes;
    const a = frames.get(keyId({ text: p }));
    const b = frames.get(keyId({ text: q }));
    const t = a && b ? templateOf(a, b, [p, q], 0) : undefined;
    if (t) out.set(i, t);
  });
  return out;
}

/** The frame of the letter text, of the class t stands for, drawn from t. */
export function letterFrame(t: Template, text: string): LocalFrame {
  const put = (l: string, at: number) => l.slice(0, at) + text + l.slice(at + 1);
  const lines = t.frame.lines.slice();
  lines[t.row] = put(lines[t.row]!, t.col);
  const frame: LocalFrame = { lines, cursor: t.frame.cursor };
  // One cell for another: what fitted fits.
  if (t.frame.fits !== undefined) frame.fits = t.frame.fits;
  const m = t.frame.marked;
  if (m && t.markedCol >= 0) frame.marked = { width: m.width, line: put(m.line, t.markedCol), fits: m.fits };
  return frame;
}
