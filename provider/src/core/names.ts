// For the data-source functions (functions/*.ts, being rewritten in another change), which still
// import the resource's names from here: the core speaks the API's names, and the renaming lives at
// the shells' edge (pulumi-names/). Nothing in the core imports this.
export { camelCase, camelMembers, type CamelCase, type CamelNamed } from "../pulumi-names/rename";
