#!/usr/bin/env bash
# Checks that the page's vendored libraries (crates/web/static/vendor/)
# are byte for byte the files of the npm release pinned in
# e2e/package.json (an exact version, its integrity in
# e2e/package-lock.json, installed by `npm ci`). CONTRIBUTING.md says how
# to update one. Run by scripts/lint-js.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d e2e/node_modules/uplot ]; then
  echo "== installing the e2e packages (npm ci)"
  (cd e2e && npm ci --no-audit --no-fund)
fi

# vendored file <- file of the npm package
pairs=(
  "uPlot.esm.js:uplot/dist/uPlot.esm.js"
  "uPlot.esm.d.ts:uplot/dist/uPlot.d.ts"
  "uPlot.min.css:uplot/dist/uPlot.min.css"
  "uPlot.LICENSE:uplot/LICENSE"
)

pinned=$(node -p 'require("./e2e/package.json").devDependencies.uplot')
installed=$(node -p 'require("./e2e/node_modules/uplot/package.json").version')
if [ "$pinned" != "$installed" ]; then
  echo "uplot: e2e/package.json pins $pinned but $installed is installed: run npm ci in e2e/" >&2
  exit 1
fi
if ! [[ "$pinned" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "uplot: e2e/package.json must pin an exact version, not '$pinned'" >&2
  exit 1
fi

bad=0
for pair in "${pairs[@]}"; do
  ours="crates/web/static/vendor/${pair%%:*}"
  theirs="e2e/node_modules/${pair#*:}"
  if ! cmp -s "$ours" "$theirs"; then
    echo "$ours is not uplot $pinned's $theirs" >&2
    bad=1
  fi
done
# Nothing else is in the folder unchecked.
for f in crates/web/static/vendor/*; do
  name=$(basename "$f")
  found=0
  for pair in "${pairs[@]}"; do [ "${pair%%:*}" = "$name" ] && found=1; done
  if [ "$found" = 0 ]; then
    echo "$f is not a checked vendored file (scripts/check-vendor.sh)" >&2
    bad=1
  fi
done
[ "$bad" = 0 ] || exit 1
echo "== the vendored files are uplot $pinned's"
