// Resource names for imported Sources: derived from the Source's name (lowercase letters, digits
// and hyphens, so that they also work unquoted in `pulumi config --path`), and made unique against
// every name the stack already uses by a numeric suffix. Names already given are never changed, so
// running import again renames nothing.

const MAX_NAME_LENGTH = 60;

/** `Shop images (EU)` → `shop-images-eu`; a name with no letter or digit → `source`. */
export function baseName(sourceName: string): string {
  const slug = sourceName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_NAME_LENGTH)
    .replace(/-+$/, "");
  return slug === "" ? "source" : /^[0-9]/.test(slug) ? `source-${slug}` : slug;
}

/** The first of `base`, `base-2`, `base-3`, ... not in `taken`; it is added to `taken`. */
export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}
