#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# Packs the MCP Bundle (Claude Desktop's one-click install) of one platform's
# binary with the official mcpb CLI, after validating its manifest:
#
#   packaging/mcpb/bundle.sh PLATFORM BINARY OUT.mcpb MCPB
#
# PLATFORM is linux-x64, linux-arm64, darwin-x64, darwin-arm64 or win32-x64;
# MCPB the mcpb command (`npx -y @anthropic-ai/mcpb@VERSION` in the release
# workflow). The manifest is packaging/mcpb/manifest.json, its
# `compatibility.platforms` narrowed to the binary's.
set -euo pipefail
platform=$1 binary=$2 out=$3
shift 3
mcpb=("$@")
here=$(cd "$(dirname "$0")" && pwd)
os=${platform%-*}
exe=planning-mcp-server
[ "$os" = win32 ] && exe=planning-mcp-server.exe
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/server"
jq --arg os "$os" '.compatibility.platforms = [$os]' "$here/manifest.json" >"$stage/manifest.json"
cp "$binary" "$stage/server/$exe"
chmod +x "$stage/server/$exe"
"${mcpb[@]}" validate "$stage/manifest.json"
"${mcpb[@]}" pack "$stage" "$out"
