// What a value from the server looks like printed (sdk/src/printable.ts): a Source named with ESC,
// BEL and U+202E (RIGHT-TO-LEFT OVERRIDE) reaches no terminal raw, and what the API says in an
// error comes escaped in the error's message; a printed JSON document or string literal keeps its value.
import { describe, expect, it } from "vitest";
import { apiErrorFor, printable } from "@asset-delivery/sdk";

/** An OSC sequence that sets a terminal's title, ended by BEL, then text shown right to left. */
const HOSTILE = "\u001b]0;owned\u0007 shop \u202egpj.exe";
/** Any character a terminal acts on or shows out of order. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("printable", () => {
  it("escapes ESC, BEL and U+202E, as the \\u escapes that mean them in JSON and code", () => {
    expect(printable(HOSTILE)).toBe("\\u001b]0;owned\\u0007 shop \\u202egpj.exe");
  });

  it("escapes every C0 and C1 control, DEL, the line and paragraph separators and the bidirectional overrides and isolates", () => {
    const all = [
      ...Array.from({ length: 0x20 }, (_, code) => code),
      ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
      0x061c,
      0x200e,
      0x200f,
      0x2028,
      0x2029,
      ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069],
    ];
    for (const code of all) expect(printable(`a${String.fromCharCode(code)}b`), code.toString(16)).not.toMatch(RAW);
    expect(printable("line\nnext\ttab\rreturn")).toBe("line\\nnext\\ttab\\rreturn");
  });

  it("leaves other text as it is (accents, emoji, a backslash), and changes nothing printed twice", () => {
    for (const text of ["Shop images (EU)", "Café 東京 🚀", "C:\\images", "a \\u001b b"]) expect(printable(text)).toBe(text);
    expect(printable(printable(HOSTILE))).toBe(printable(HOSTILE));
  });

  it("keeps line breaks when asked, and a printed JSON document parses back to the same value", () => {
    const document = JSON.stringify({ name: HOSTILE, hidden: "\u0085\u009b31m\u2066x\u2069\u007f" }, null, 2);
    const printed = printable(document, { keepLineBreaks: true });
    expect(printed.replaceAll("\n", "")).not.toMatch(RAW);
    expect(printed.split("\n")).toHaveLength(document.split("\n").length);
    expect(JSON.parse(printed)).toEqual(JSON.parse(document));
  });
});

describe("the sdk's errors", () => {
  it("carry what the server said escaped in their message, and as it was in their fields", () => {
    const error = apiErrorFor({
      status: 400,
      method: "POST",
      path: "/api/v1/sources",
      errors: [{ id: "req-1", meta: {}, status: "400", title: "Bad\u001b[2J Request", detail: `name "${HOSTILE}" is taken` }],
    });
    expect(error.message).toBe(
      'POST /api/v1/sources failed with 400 Bad\\u001b[2J Request: name "\\u001b]0;owned\\u0007 shop \\u202egpj.exe" is taken',
    );
    expect(error.message).not.toMatch(RAW);
    expect(error.detail).toBe(`name "${HOSTILE}" is taken`);
  });
});
