#!/usr/bin/env bash
# Builds the rules core and the engine as WebAssembly for the page
# (crates/wasm, docs/architecture.md "The rules in the browser") into
# crates/web/wasm/, which crates/web/build.rs embeds in the server under
# content-hashed names. Run it before building the server (scripts/test.sh
# and scripts/e2e.sh do); a server built without it plays through the
# server alone. Installs what is missing:
# - the wasm32-unknown-unknown target (rustup);
# - wasm-bindgen-cli at the version of wasm-bindgen in Cargo.lock (the
#   generated glue must match the library), into target/tools, once
#   (its cost to CI: docs/architecture.md, "The rules in the browser");
# - Debian's binaryen for wasm-opt.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Never linted for wasm32 (CI lints the host build: .ci/run's clippy
# wrapper), and the same build whoever runs it.
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS

target=wasm32-unknown-unknown
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx "$target"; then
  echo "== adding the $target target"
  rustup target add "$target"
fi

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || { echo "no wasm-bindgen in Cargo.lock" >&2; exit 1; }
# SPRINGBOARD_TOOLS: where to keep it instead (a folder outside the
# checkout survives a fresh clone, as CI's: the install is most of this
# script's cost, docs/architecture.md).
tools=${SPRINGBOARD_TOOLS:-target/tools}
bindgen="$tools/bin/wasm-bindgen"
if ! { [ -x "$bindgen" ] && "$bindgen" --version | grep -qF " $version"; }; then
  echo "== installing wasm-bindgen-cli $version into $tools"
  # Without its default TLS feature (only its test runner downloads):
  # no ring/rustls to build. Its own Cargo.lock first; if the registry
  # lacks a version that lock names (wasm-bindgen-cli 0.2.130's names
  # webpki-roots 1.0.11, which the registry here does not have), the
  # newest compatible versions.
  args=(--quiet --no-default-features --version "$version" --root "$tools" wasm-bindgen-cli)
  # A tool run once a build on a 1.4 MB module: built at opt-level 1
  # without LTO, 280 s of CPU instead of 347 s (one cold install each),
  # and its output byte for byte the same (checked with cmp).
  # (For the install only: the wasm profile below inherits release's.)
  quick=(env CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_DEBUG=0
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_LTO=false)
  if ! "${quick[@]}" cargo install --locked "${args[@]}"; then
    echo "== its Cargo.lock cannot be used here: installing with the newest compatible dependencies"
    "${quick[@]}" cargo install "${args[@]}"
  fi
fi

if ! command -v wasm-opt >/dev/null 2>&1; then
  echo "== installing binaryen (wasm-opt)"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q binaryen
fi

echo "== building crates/wasm for $target"
cargo build --quiet --profile wasm --target "$target" -p springboard-wasm
built="target/$target/wasm/springboard_wasm.wasm"
out=crates/web/wasm
stamp="$out/.built-from"
# The same build as last time: the files stay, so the server is not
# rebuilt for nothing.
sum=$(sha256sum "$built" | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] && [ -f "$out/springboard_bg.wasm" ] && [ -f "$out/springboard.js" ]; then
  echo "== $out is up to date"
  exit 0
fi
tmp=$(mktemp -d target/wasm-bindgen.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# wasm-opt before wasm-bindgen: Debian's binaryen (108) cannot read the
# table.fill that wasm-bindgen's glue adds; wasm-bindgen reads the
# optimised module as well. Rust's wasm32 target emits these proposals.
wasm-opt -O --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  "$built" -o "$tmp/opt.wasm"
"$bindgen" --target web --no-typescript --out-dir "$tmp" --out-name springboard "$tmp/opt.wasm"
# Renamed into place: the folder changes, which reruns the server's build
# script (crates/web/build.rs).
mv "$tmp/springboard_bg.wasm" "$out/springboard_bg.wasm"
mv "$tmp/springboard.js" "$out/springboard.js"
echo "$sum" > "$stamp"
ls -l "$out"/springboard*
