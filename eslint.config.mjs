// ESLint for the whole repository: typescript-eslint's type-aware rules on every TypeScript file (each file
// checked with the tsconfig.json that owns it, found by the project service), the plain recommended rules on
// the few JavaScript files. Formatting is Prettier's (npm run format), so no rule here is about layout.
// Types come from the packages' built declarations: run `npm run build` first (`npm run lint` does).
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  // test/upgrade/recorded/: programs and states as a release wrote them, kept byte for byte.
  globalIgnores(["**/node_modules/", "**/dist/", ".tools/", ".data/", ".pulumi-state/", "coverage/", ".venv/", "test/upgrade/recorded/"]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // vitest.config.ts belongs to no tsconfig; it is checked with default options.
        projectService: { allowDefaultProject: ["vitest.config.ts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A promise nobody awaits loses its rejection (an unhandled rejection ends the process); `void` says it is meant.
      "@typescript-eslint/no-floating-promises": "error",
      // A promise where a boolean or a void callback is expected is always truthy, or its rejection is lost.
      "@typescript-eslint/no-misused-promises": "error",
      // `import type` for what is only a type: the emitted JavaScript requires nothing it does not use.
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-import-type-side-effects": "error",
      // A switch over a union names every member, so a new member is a compile-time finding, not a fall-through.
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      // `return await` inside try: the catch and finally see the rejection, and the stack keeps the caller.
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
      eqeqeq: ["error", "always", { null: "ignore" }],
      // Off: `async` without `await` is how a function that must return a promise (a Pulumi provider method,
      // a Fastify plugin, a CLI command's run) turns a throw into a rejection; dropping `async` to please
      // the rule would let a synchronous throw escape the promise its caller awaits.
      "@typescript-eslint/require-await": "off",
      // `_name` marks a parameter or binding kept for its position, and `{ dropped, ...rest }` leaves a key
      // out of a copy; anything else unused is dead code.
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrors: "all",
          caughtErrorsIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      // Off in tests: they read HTTP answers, CLI output and Pulumi state as untyped JSON on purpose (they check
      // the wire, not the SDK's types), so `any` is what their assertions inspect. Source code keeps these rules.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
    rules: {
      // CommonJS files (.cjs, the CLI's bin) load modules with require by definition.
      "@typescript-eslint/no-require-imports": "off",
      "@typescript-eslint/consistent-type-imports": "off",
    },
  },
);
