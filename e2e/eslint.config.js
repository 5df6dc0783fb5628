// ESLint's rules for the page's modules (crates/web/static), run by
// scripts/lint-js.sh from the repository's root.
import js from "@eslint/js";
import globals from "globals";

export default [
  // Vendored libraries are checked against their npm release instead
  // (scripts/check-vendor.sh).
  { ignores: ["crates/web/static/vendor/**"] },
  js.configs.recommended,
  {
    files: ["crates/web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      // An argument or caught error named with a leading _ is unused on purpose.
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
    },
  },
];
