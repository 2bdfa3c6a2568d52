/**
 * Untrusted text made safe to show as plain text: control characters and bidi embedding,
 * override and isolate marks removed (skill text comes from repositories anyone writes, and must
 * never drive a terminal or make one name read as another). Shared by the builder (install
 * commands, plugin names) and the command line (src/node/terminal-text.ts). Runtime core: no Node
 * built-ins.
 */

// C0 controls but tab and newline, DEL, C1 controls, and the bidi embedding/override/isolate marks.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without control characters (tab and newline kept), safe to print. */
export function sanitize(text: string): string {
  return text.replace(UNSAFE, '');
}

/** `text` on one line: sanitized, every run of whitespace one space. */
export function oneLine(text: string): string {
  return sanitize(text).replace(/\s+/g, ' ').trim();
}
