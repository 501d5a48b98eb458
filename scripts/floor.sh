#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# The guard against drift (docs/performance.md, "Against the floor"):
# builds planning-mcp-server as released and the floor (benches/floor/main.rs,
# the smallest rmcp server: one no-op tool, the system allocator) with the
# same cargo profile, then measures both in one run, taken in turn at every
# step, pinned to one CPU: cold start, stdio update and read p50 on a 20-task
# board, the HTTP server's CPU per call with 8 sessions, the resident memory
# after initialize. It prints a table of ratios against the targets and
# fails only on a gross regression (over 1.5 x a target); "over target" is
# printed, not failed, since a busy machine moves the figures.
#
#   scripts/floor.sh                  # release profile, pinned to CPU 1
#   FLOOR_PROFILE=dist scripts/floor.sh   # another profile, the same for both
#   FLOOR_CPU=none scripts/floor.sh   # not pinned
#   FLOOR_RUNS=1 FLOOR_ROUNDS=10 scripts/floor.sh   # a quicker, noisier look
#
# Run it on an idle machine for figures worth recording: the load average
# before and after the run is printed with the table.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=${FLOOR_PROFILE:-release}
case "$profile" in
  dev) dir=target/debug ;;
  *) dir=target/$profile ;;
esac
cpu=${FLOOR_CPU:-1}

# Two invocations: an example brings the dev-dependencies, whose features
# would otherwise be unified into the server's build, and the server must
# be the one users get.
echo "== cargo build --profile $profile --bin planning-mcp-server (as released)"
cargo build --locked --profile "$profile" --bin planning-mcp-server
echo "== cargo build --profile $profile --example floor (the floor, same profile)"
cargo build --locked --profile "$profile" --example floor
# The measuring program: the dev profile is enough (its loop is std's I/O)
# and `cargo test` has built it already.
echo "== cargo build --example floor-guard (the measuring program)"
cargo build --locked --example floor-guard

pin=()
if [ "$cpu" != none ] && command -v taskset >/dev/null && [ "$(nproc)" -gt "$cpu" ]; then
  pin=(taskset -c "$cpu")
else
  cpu="none (not pinned)"
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit (with uncommitted changes)"
fi
echo "== floor: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, profile $profile," \
  "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), pinned to CPU $cpu"
"${pin[@]}" target/debug/examples/floor-guard "$dir/planning-mcp-server" "$dir/examples/floor"
