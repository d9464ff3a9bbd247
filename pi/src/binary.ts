// Whether a file is an askuser binary this machine can run: checked from
// its header before it is spawned, because a program for another platform
// does not fail cleanly at spawn (the system hands it to sh, which prints
// noise), and a missing exec bit should be named, not met as EACCES.

import { accessSync, closeSync, constants, openSync, readSync } from "node:fs";

/** The platform a program file is for, as Node names it, if it is one. */
export function programPlatform(head: Uint8Array): string | undefined {
  const v = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const u16 = (at: number) => (at + 2 <= head.length ? v.getUint16(at, true) : -1);
  const u32 = (at: number) => (at + 4 <= head.length ? v.getUint32(at, true) : -1);
  const arch = (m: Record<number, string>, k: number) => m[k] ?? "unknown";
  if (u32(0) === 0x464c457f) return `linux-${arch({ 0x3e: "x64", 0xb7: "arm64", 0x03: "ia32", 0x28: "arm" }, u16(18))}`;
  if (u32(0) === 0xfeedfacf) return `darwin-${arch({ 0x01000007: "x64", 0x0100000c: "arm64" }, u32(4))}`;
  if (u16(0) === 0x5a4d) {
    const pe = u32(0x3c);
    if (pe > 0 && u32(pe) === 0x00004550) return `win32-${arch({ 0x8664: "x64", 0xaa64: "arm64", 0x14c: "ia32" }, u16(pe + 4))}`;
  }
  return undefined;
}

/**
 * Why path cannot run here as a program, or undefined when it can (or
 * when it is a script, which the system runs through its interpreter).
 */
export function runProblem(path: string, platform = `${process.platform}-${process.arch}`): string | undefined {
  const head = new Uint8Array(512);
  let n: number;
  try {
    const fd = openSync(path, "r");
    try {
      n = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return `${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  const bytes = head.subarray(0, n);
  const isScript = bytes[0] === 0x23 && bytes[1] === 0x21; // "#!"
  const made = programPlatform(bytes);
  if (!isScript && made === undefined) return `${path} is not a program (no executable header)`;
  if (made !== undefined && made !== platform) {
    return `${path} is a program for ${made}, and this machine is ${platform}: install the askuser package for ${platform}`;
  }
  if (!platform.startsWith("win32-")) {
    try {
      accessSync(path, constants.X_OK);
    } catch {
      return `${path} is not executable: give it the exec bit (chmod +x ${path}), or reinstall the package`;
    }
  }
  return undefined;
}
