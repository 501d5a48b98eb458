#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# Installs the peers the e2e benchmark compares against, under target/peers/:
# the official @modelcontextprotocol/server-memory (Node, from npm) and the
# official Python SDK (PyPI `mcp`) for benches/peers/fastmcp_board.py.
set -euo pipefail
cd "$(dirname "$0")/.."
peers=target/peers
mkdir -p "$peers/node"
if [ ! -f "$peers/node/node_modules/@modelcontextprotocol/server-memory/dist/index.js" ]; then
  (cd "$peers/node" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent @modelcontextprotocol/server-memory@2026.8.31)
fi
if [ ! -x "$peers/venv/bin/python" ] || ! "$peers/venv/bin/python" -c 'import mcp.server.fastmcp' 2>/dev/null; then
  python3 -m venv "$peers/venv"
  "$peers/venv/bin/pip" install --quiet --disable-pip-version-check "mcp==1.30.0"
fi
echo "peers installed under $peers"
