#!/usr/bin/env bash
# Runs the test suite once more on the newest supported Node line (24), so that CI exercises both
# ends of package.json's `engines` range, not only the machine's Node 20.
#
#   .ci/other-node.sh [version [headers-version]]     default: 24.21.0, headers 24.18.1
#
# Why it works this way:
# - Node's binaries come from the npm registry (package node-<platform>-<arch>, which holds bin/node
#   and include/node), the one place CI can reach besides Debian's apt. Versions are pinned so a
#   run is reproducible; each package is cached under $PMREF_NODE_CACHE and reused.
# - better-sqlite3 is a native addon: its build for the machine's Node does not load on another
#   ABI. So the suite runs in a copy of the checkout with its own `npm ci`, and the checkout's
#   node_modules stay as they are. node-gyp builds the addon against the headers of a Node package
#   (npm_config_nodedir), since nodejs.org's header tarballs are out of reach.
# - For 24.19 and later those are 24.18.1's headers: 24.19.0 added environment cleanup hooks to
#   node_object_wrap.h, which is compiled into the addon, and better-sqlite3 12 (a node::ObjectWrap)
#   built against it aborts the process whenever the GC finalizes a statement outside a context
#   ("Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook; nodejs/node#65446).
#   Built against 24.18.1's headers (same ABI, 137) it runs on the later 24.x runtimes.
# - The copy sees the same ../shared fixtures as the checkout (a symlink beside it), so the tests
#   that read them run, or skip, exactly as they do on the machine's Node.
# The caller exports PMREF_TEST_POSTGRES_URL / PMREF_TEST_REDIS_URL (as .ci/run does).
set -euo pipefail
shopt -s inherit_errexit

version="${1:-24.21.0}"
case "$version" in
  24.19.* | 24.[2-9]?.*) headers_default=24.18.1 ;;
  *) headers_default="$version" ;;
esac
headers="${2:-$headers_default}"
checkout="$(cd "$(dirname "$0")/.." && pwd)"
package="node-$(node -p 'process.platform + "-" + process.arch')"

# Prints the folder of $package@$1 (bin/node, include/node), installing it into the cache first if needed.
node_package() {
  local cache="${PMREF_NODE_CACHE:-${TMPDIR:-/tmp}/pmref-node}/$1"
  local home="$cache/node_modules/$package"
  if [ "$("$home/bin/node" --version 2>/dev/null || true)" != "v$1" ]; then
    echo "== installing $package@$1 from the npm registry into $cache" >&2
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-audit --no-fund --loglevel=warn "$package@$1" >&2
  fi
  [ -f "$home/include/node/common.gypi" ] || { echo "$package@$1 ships no headers (include/node)" >&2; return 1; }
  echo "$home"
}
home="$(node_package "$version")"
nodedir="$(node_package "$headers")"

work="$(mktemp -d "${TMPDIR:-/tmp}/pmref-node$version.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir "$work/pmref"
# The files git knows (tracked, plus new ones not ignored): node_modules, data and build output stay behind.
(cd "$checkout" && git ls-files -z --cached --others --exclude-standard |
  tar --null --files-from=- --ignore-failed-read -cf -) | tar -xf - -C "$work/pmref"
if [ -d "$checkout/../shared" ]; then ln -s "$(cd "$checkout/../shared" && pwd)" "$work/shared"; fi

cd "$work/pmref"
export PATH="$home/bin:$PATH"
export npm_config_nodedir="$nodedir"
echo "== node $(node --version) (ABI $(node -p process.versions.modules)), npm $(npm --version), native addons built against node $headers's headers, in $work/pmref"
npm ci --no-audit --no-fund
node -e "new (require('better-sqlite3'))(':memory:').close()"
npm test
