// Text inputs (issue 8; docs/decisions/012-hostile-input.md). No string a client sends may hold a
// control character (U+0000 to U+001F, U+007F): PostgreSQL refuses NUL in text and jsonb, and the
// others (escape, backspace, delete...) are never typed by a person, only pasted by accident or sent
// by an attacker. Multi-line fields (descriptions, notes, comments) keep line breaks and tabs.
// Every string schema of a request, in this package and in the API's route files, starts here.
import { z } from './zod';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SINGLE_LINE = /^[^\u0000-\u001f\u007f]*$/;
// Tab (U+0009), line feed (U+000A) and carriage return (U+000D) allowed.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

export interface SafeTextOptions {
  /** Keep line breaks and tabs (descriptions, notes, comments). */
  multiline?: boolean;
  /**
   * The message when the value is missing or not a string; "<Label> must be text" unless told. A
   * function tells the two apart (its issue's `input` is undefined when the value is missing).
   */
  error?: string | ((issue: { input?: unknown }) => string);
  /** Trim surrounding white space first; true unless told (passwords and tokens are kept as sent). */
  trim?: boolean;
}

/** True when the text holds a character no input accepts. */
export function hasControlCharacters(value: string, options: Pick<SafeTextOptions, 'multiline'> = {}): boolean {
  return !(options.multiline ? MULTI_LINE : SINGLE_LINE).test(value);
}

export function notAllowedMessage(label: string): string {
  return `${label} contains characters that are not allowed`;
}

/**
 * A string schema that refuses control characters with "<Label> contains characters that are not
 * allowed". It is a plain zod string: chain .min(), .max(), .regex() and .optional() as usual.
 */
export function safeText(label: string, options: SafeTextOptions = {}) {
  const text = z.string({ error: options.error ?? `${label} must be text` });
  return (options.trim === false ? text : text.trim()).regex(options.multiline ? MULTI_LINE : SINGLE_LINE, notAllowedMessage(label));
}
