export * from "./rules";
export * from "./source";
export * from "./report";
export * from "./video";
export * from "./jsonapi";
export * from "./permissions";
export * from "./list-query";
export * from "./issues";
