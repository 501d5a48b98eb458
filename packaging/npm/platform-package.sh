#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# Writes the npm package of one platform's prebuilt binary, which
# `planning-mcp-server` lists as an optional dependency (npm installs only
# the one whose `os` and `cpu` match the machine):
#
#   packaging/npm/platform-package.sh RUST-TARGET BINARY OUT-DIR
#
# OUT-DIR/planning-mcp-server-<os>-<cpu>/ gets package.json and
# bin/<binary>; the script prints that directory. The version is the main
# package's (packaging/npm/planning-mcp-server/package.json).
set -euo pipefail
target=$1 binary=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
case "$target" in
  x86_64-unknown-linux-gnu) os=linux cpu=x64 ;;
  aarch64-unknown-linux-gnu) os=linux cpu=arm64 ;;
  x86_64-apple-darwin) os=darwin cpu=x64 ;;
  aarch64-apple-darwin) os=darwin cpu=arm64 ;;
  x86_64-pc-windows-msvc) os=win32 cpu=x64 ;;
  *) echo "no npm package for target $target" >&2; exit 1 ;;
esac
exe=planning-mcp-server
[ "$os" = win32 ] && exe=planning-mcp-server.exe
version=$(node -p "require('$here/planning-mcp-server/package.json').version")
dir="$out/planning-mcp-server-$os-$cpu"
rm -rf "$dir"
mkdir -p "$dir/bin"
cp "$binary" "$dir/bin/$exe"
chmod +x "$dir/bin/$exe"
cat >"$dir/package.json" <<JSON
{
  "name": "planning-mcp-server-$os-$cpu",
  "version": "$version",
  "description": "The $os-$cpu binary of planning-mcp-server (installed by the planning-mcp-server package)",
  "license": "AGPL-3.0-or-later",
  "repository": {
    "type": "git",
    "url": "git+https://github.com/planning-mcp-server/planning-mcp-server.git"
  },
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/"],
  "preferUnplugged": true
}
JSON
echo "$dir"
