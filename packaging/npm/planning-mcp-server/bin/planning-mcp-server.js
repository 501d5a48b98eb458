#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

// `npx planning-mcp-server`: runs the prebuilt binary of this platform's
// package (an optional dependency npm installed with this one, the pattern
// of esbuild and Biome: nothing is downloaded at install time). stdin,
// stdout and stderr are the binary's own, so MCP over stdio passes through
// untouched; signals are passed on, and the exit status is the binary's.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");

const platform = `${process.platform}-${process.arch}`;
const executable = process.platform === "win32" ? "planning-mcp-server.exe" : "planning-mcp-server";

function binary() {
  const name = `planning-mcp-server-${platform}`;
  try {
    return path.join(path.dirname(require.resolve(`${name}/package.json`)), "bin", executable);
  } catch {
    process.stderr.write(
      `planning-mcp-server: no prebuilt binary for ${platform} (package ${name} is not installed).\n` +
        "Prebuilt: linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64. Elsewhere:\n" +
        "  cargo install --locked planning-mcp-server   (Rust 1.89+, https://rustup.rs)\n",
    );
    process.exit(1);
  }
}

const child = spawn(binary(), process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  process.stderr.write(`planning-mcp-server: cannot start ${binary()}: ${error.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal (the handler above would only pass it on).
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
