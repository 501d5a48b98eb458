# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# Format, lint and test.
default: fmt lint test

# Format the code.
fmt:
    cargo fmt --all

# Lint with clippy; every warning is an error.
lint:
    cargo clippy --all-targets --all-features -- -D warnings
    cargo clippy --all-targets --no-default-features -- -D warnings

# Run every test (unit, golden and end-to-end).
test:
    cargo test

# The fast inner loop: the library's unit and golden tests, which build no
# binary and start no server; e.g. `just unit toolsets::team` for one module.
unit *FILTER:
    cargo test --lib {{FILTER}}

# Run the criterion benchmarks (board, storage, plans); not the e2e bench.
bench:
    cargo bench

# End-to-end benchmark against the floor and the peers; writes docs/performance.md.
bench-e2e:
    scripts/install-peers.sh
    cargo bench --bench e2e --features e2e-bench

# Fuzz the plan parser, validator and edits for ten minutes (cargo install cargo-fuzz).
fuzz:
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run plans -- -max_total_time=600

# Check licence and copyright information (pip install reuse).
reuse:
    reuse lint

# Build the release binary (target/release/planning-mcp-server).
build:
    cargo build --release

# Boards live in ./.planning-mcp-server/; the web board is at http://localhost:8080/.
# Run the server in HTTP mode with the file backend; extra flags are passed on.
run *FLAGS:
    cargo run --release -- --mode http --storage file {{FLAGS}}

# Rewrite docs/web-board.png: a 20-task board in headless Chromium.
screenshot:
    PLANNING_REQUIRE_BROWSER=1 cargo test --test e2e -- --ignored browser::screenshot

# Install the binary into ~/.cargo/bin.
install:
    cargo install --path . --locked

# Everything CI checks, as CI runs it (.ci/run).
ci:
    bash .ci/run

# Rewrite config/planning-mcp-server.toml from the registry (after adding a toolset).
example-config:
    cargo build
    rm -f target/planning-mcp-server.toml
    cd target && ./debug/planning-mcp-server --generate-config
    mv target/planning-mcp-server.toml config/planning-mcp-server.toml
