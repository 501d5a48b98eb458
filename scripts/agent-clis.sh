#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# Installs the coding agents' own CLIs that read their MCP config without an
# account (Claude Code, Codex, Gemini CLI; pinned versions, from npm) into a
# cache outside the clone, and prints the directory that holds them. The
# setup tests (tests/e2e/setup.rs) ask each CLI to list the server that
# `planning-mcp-server setup` wrote, when PLANNING_AGENT_CLIS names it.
#
#   export PLANNING_AGENT_CLIS=$(scripts/agent-clis.sh)
set -euo pipefail
clis="${XDG_CACHE_HOME:-$HOME/.cache}/planning-mcp-server-ci/agent-clis"
packages=(@anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0 @google/gemini-cli@0.61.0)
stamp="$clis/installed"
if [ "$(cat "$stamp" 2>/dev/null)" != "${packages[*]}" ]; then
  rm -rf "$clis"
  mkdir -p "$clis"
  (cd "$clis" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "${packages[@]}") >&2
  echo "${packages[*]}" >"$stamp"
fi
echo "$clis/node_modules/.bin"
