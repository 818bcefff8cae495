// The config key a native program reads a Source's secret from, one rule for every command that
// names one: the Terraform import writes the state's secrets there, and a drift review's printed
// declaration reads them from there, so a migrated stack's keys are the ones drift names.

/**
 * `("my-assets", "s3SecretKey")` → `myAssetsS3SecretKey`: the resource name's words (letters and
 * digits; anything else separates them), then the field, in camelCase.
 */
export function secretConfigKey(resource: string, field: string): string {
  const words = [...resource.split(/[^A-Za-z0-9]+/), field].filter((word) => word !== "");
  return words.map((word, index) => (index === 0 ? word.charAt(0).toLowerCase() : word.charAt(0).toUpperCase()) + word.slice(1)).join("");
}
