// `replaceOnChanges` as Pulumi's engine applies it to a provider's diff (pkg/resource/deploy/
// step_generator.go, `applyReplaceOnChanges`): each listed path is parsed (sdk/go/common/resource/
// properties_path.go, `ParsePropertyPath`), and a changed property whose path a listed one contains
// (`PropertyPath.Contains`: a prefix, `*` standing for any one segment) makes the change a
// replacement. The engine does this itself for the native plugin, whose detailed diff names each
// changed leaf; Pulumi's dynamic provider host sends it no changed property, so the dynamic shell
// matches the same paths here (dynamic/runtime.ts). Only what the engine does, faithfully: an empty
// path contains every path, and a leaf deeper than a listed path is within it.

/** A property path as Pulumi parses one: names, list indexes, and `*` (any one segment). */
export type PulumiPath = readonly (string | number)[];

/** `deployment.customDomains[0]`, `deployment["customDomains"][*]`, `*` as the engine parses them; throws with the engine's reason when it would refuse one. */
export function parsePulumiPath(text: string): PulumiPath {
  const elements: (string | number)[] = [];
  let rest = text;
  if (rest.startsWith(".")) throw new Error("expected property path to start with a name or index");
  while (rest.length > 0) {
    if (rest[0] === ".") {
      rest = rest.slice(1);
      if (rest.length === 0) throw new Error("expected property path to end with a name or index");
      // The engine tolerates a "." before a "[" (old providers write it).
    } else if (rest[0] === "[") {
      const [element, after] = rest[1] === '"' ? quotedKey(rest) : indexOrWildcard(rest);
      elements.push(element);
      rest = after;
    } else {
      const end = rest.search(/[.[]/);
      elements.push(end === -1 ? rest : rest.slice(0, end));
      rest = end === -1 ? "" : rest.slice(end);
    }
  }
  return elements;
}

/** `["key with \"quotes\""]`: the key and what follows its `]`. */
function quotedKey(rest: string): [string, string] {
  let key = "";
  let i = 2;
  for (;;) {
    if (i >= rest.length) throw new Error("missing closing quote in property name");
    if (rest[i] === '"') {
      i++;
      break;
    }
    if (rest[i] === "\\" && rest[i + 1] === '"') {
      key += '"';
      i += 2;
    } else key += rest[i++];
  }
  if (rest[i] !== "]") throw new Error("missing closing bracket in property access");
  return [key, rest.slice(i + 1)];
}

/** `[3]` or `[*]`: the index (or the wildcard) and what follows its `]`. */
function indexOrWildcard(rest: string): [string | number, string] {
  const close = rest.indexOf("]");
  if (close === -1) throw new Error("missing closing bracket in array index");
  const segment = rest.slice(1, close);
  // Go's strconv.ParseInt: an optional sign and decimal digits.
  if (segment !== "*" && !/^[+-]?\d+$/.test(segment)) throw new Error(`invalid array index: ${JSON.stringify(segment)}`);
  return [segment === "*" ? "*" : Number(segment), rest.slice(close + 1)];
}

/** Whether the listed path contains `changed`: `changed` is it or lies within it, `*` matching any segment. */
export function containsPath(listed: PulumiPath, changed: PulumiPath): boolean {
  if (changed.length < listed.length) return false;
  return listed.every((segment, i) => segment === "*" || segment === changed[i]);
}

/** A path as the engine parses it back: names after dots (quoted when not plain), indexes and `*` in brackets. */
export function formatPulumiPath(path: PulumiPath): string {
  return path
    .map((segment, i) => {
      if (typeof segment === "number" || segment === "*") return `[${segment}]`;
      if (/^[A-Za-z_$][\w$-]*$/.test(segment)) return i === 0 ? segment : `.${segment}`;
      return `[${JSON.stringify(segment)}]`;
    })
    .join("");
}
