#!/usr/bin/env bash
# Lints and type-checks the page's JavaScript (crates/web/static): ESLint
# (recommended rules, e2e/eslint.config.js) and TypeScript's checker over
# the plain JS (tsc --noEmit, e2e/tsconfig.static.json). Both come from
# npm, pinned in e2e/package-lock.json; and no import circle between the
# modules (e2e/import-cycles.js), every module in the asset table, and
# // @ts-check at the top of each; and the vendored libraries are their
# pinned npm releases (scripts/check-vendor.sh). Fails on any error.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x e2e/node_modules/.bin/eslint ] || [ ! -x e2e/node_modules/.bin/tsc ]; then
  echo "== installing the e2e packages (npm ci)"
  (cd e2e && npm ci --no-audit --no-fund)
fi

echo "== eslint (crates/web/static)"
e2e/node_modules/.bin/eslint --config e2e/eslint.config.js --max-warnings 0 crates/web/static

echo "== tsc --noEmit (crates/web/static)"
e2e/node_modules/.bin/tsc -p e2e/tsconfig.static.json

echo "== import circles (crates/web/static)"
node e2e/import-cycles.js crates/web/static

# Every module is served: it is in the asset table (crates/web/src/assets.rs),
# or it is the service worker's code, served as /sw.js (crates/web/src/sw.rs).
unserved=""
for f in crates/web/static/*.js; do
  grep -q "asset!(\"$(basename "$f")\"" crates/web/src/assets.rs ||
    grep -qF "\"../static/$(basename "$f")\"" crates/web/src/sw.rs || unserved="$unserved $f"
done
if [ -n "$unserved" ]; then
  echo "not in the asset table (crates/web/src/assets.rs):$unserved" >&2
  exit 1
fi

# Every module starts with // @ts-check (so an editor checks it too).
missing=""
for f in crates/web/static/*.js; do
  [ "$(head -n 1 "$f")" = "// @ts-check" ] || missing="$missing $f"
done
if [ -n "$missing" ]; then
  echo "without // @ts-check at the top: $missing" >&2
  exit 1
fi
bash scripts/check-vendor.sh
echo "== the page's JavaScript is clean"

