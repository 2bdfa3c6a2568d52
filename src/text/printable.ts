/**
 * Untrusted text made printable in messages: control characters and bidirectional controls
 * shown as `\uXXXX`, so a terminal or log never receives an escape sequence from a skill. No
 * Node built-ins: the builder's problems (builder/problems.ts) and the SKILL.md front matter
 * (front-matter.ts) both use it.
 */

/** `text` with C0/C1 control characters and bidi controls replaced by `\uXXXX`. */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A value quoted for a message: JSON string syntax, every control character escaped. */
export function quote(value: string): string {
  return printable(JSON.stringify(value));
}
