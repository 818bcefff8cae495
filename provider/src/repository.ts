// Where the project lives, for what points a user at it: the schema's homepage and repository, and
// the messages that cite the documentation. The packages ship no docs, so a message names the page
// where an installed package's user can read it, not a path in this repository.
export const REPOSITORY = "https://github.com/asset-delivery/asset-delivery-as-code";

/** A section of a page under docs/, as GitHub shows it: `docsUrl("provider.md", "Moving domains between Sources")`. */
export function docsUrl(page: string, section: string): string {
  // GitHub's heading anchors: lowercase, spaces to hyphens, punctuation other than hyphens dropped.
  const anchor = section
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .replace(/ /g, "-");
  return `${REPOSITORY}/blob/main/docs/${page}#${anchor}`;
}
