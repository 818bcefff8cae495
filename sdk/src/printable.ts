// A value from the server as it may be printed to a terminal or a log. Source names (the API's rules
// are only "not blank" and at most 255 characters), holder names, ids, domains and error details
// are chosen by whoever holds a key of the account, and a terminal acts on what it is sent: ESC
// starts ANSI and OSC sequences (colours, links, a window's title, on some terminals a clipboard
// write), BEL, CR and backspace disturb or rewrite what was shown, and bidirectional overrides and
// isolates show text in another order than it is ("Trojan Source"). Each of those characters (C0
// and C1 controls, DEL, the line and paragraph separators, the bidirectional formatting
// characters) is written as an escape instead: `\n`, `\r`, `\t`, else `\uXXXX`, which is also what
// it means inside a JSON, TypeScript, Python, Go or YAML (double-quoted) string, so a printed
// literal or a JSON document keeps its value. Everything else, a backslash included, stays as it
// is: the escapes are for reading, and printing a printed text again changes nothing.

// U+0000-U+001F, U+007F-U+009F, ALM, LRM/RLM, LS/PS, LRE/RLE/PDF/LRO/RLO, LRI/RLI/FSI/PDI.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- the same, but for "\n"
const UNPRINTABLE_BUT_LINE_BREAKS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escaped(character: string): string {
  return SHORT[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `value` with its control and bidirectional formatting characters escaped, for a terminal or a log.
 * `keepLineBreaks`: for a text of several lines (a generated program, a JSON document): its "\n"
 * stay line breaks.
 */
export function printable(value: string, { keepLineBreaks = false }: { keepLineBreaks?: boolean } = {}): string {
  return value.replace(keepLineBreaks ? UNPRINTABLE_BUT_LINE_BREAKS : UNPRINTABLE, escaped);
}
