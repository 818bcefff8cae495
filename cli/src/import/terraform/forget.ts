// What Terraform must do once Pulumi manages the Sources: forget them, without destroying them (a
// destroy would disable each one: both providers' delete sends `enabled: false`). Two ways, printed:
// `removed` blocks (Terraform 1.7 and later, OpenTofu 1.7 and later), which name resources in the
// configuration (no instance keys, so one block forgets every instance of a `count` or `for_each`),
// or `terraform state rm` of each instance, for older versions.

/** One `removed` block per resource of the configuration, in address order. */
export function removedBlocks(configAddresses: Iterable<string>): string {
  return [...new Set(configAddresses)]
    .sort()
    .map((from) => ["removed {", `  from = ${from}`, "", "  lifecycle {", "    destroy = false", "  }", "}"].join("\n"))
    .join("\n\n");
}

/** One `terraform state rm` per instance (its address quoted for a POSIX shell). */
export function stateRmCommands(addresses: Iterable<string>, command = "terraform"): string {
  return [...addresses].map((address) => `${command} state rm ${shellQuoted(address)}`).join("\n");
}

function shellQuoted(text: string): string {
  return /^[A-Za-z0-9_.-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
