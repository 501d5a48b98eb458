// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

// A session whose replica dies, through the official TypeScript SDK client
// (npm @modelcontextprotocol/sdk; NODE_PATH names its node_modules).
//
//   node failover.mjs URL
//
// Driven by tests/e2e/postgres_proxy_failover.rs: opens a session through the proxy at
// URL, adds a task, prints `ready` and waits for a line on stdin (the test kills the
// session's replica meanwhile). Then the old session's next call must fail as the SDK
// reports an HTTP 404 (StreamableHTTPError, code 404), and a new session through the
// same URL must see the task. Prints one line per step; exits 1 if a step fails.

import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const require = createRequire(process.env.NODE_PATH.split(":")[0] + "/");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");

const TITLE = "added by the typescript client before the kill";

async function connect(url) {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "failover-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

const text = (result) => result.content.map((part) => part.text ?? "").join("");

async function main(url) {
  const old = await connect(url);
  await old.client.callTool({ name: "add_tasks", arguments: { tasks: [{ title: TITLE }] } });
  console.log(`ready ${old.transport.protocolVersion}`);
  const lines = createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once("line", resolve));
  lines.close();
  try {
    await old.client.callTool({ name: "get_tasks", arguments: {} });
    console.log("FAIL the old session still answered");
    return 1;
  } catch (error) {
    console.log(`ended ${error.code} ${error.constructor.name}`);
    if (error.code !== 404) return 1;
  }
  await old.client.close().catch(() => {});
  const fresh = await connect(url);
  const board = text(await fresh.client.callTool({ name: "get_tasks", arguments: {} }));
  if (!board.includes(TITLE)) {
    console.log(`FAIL the new session does not see the task: ${board}`);
    return 1;
  }
  console.log(`recovered ${fresh.transport.protocolVersion}`);
  await fresh.client.close();
  return 0;
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error) => {
    console.log(`FAIL ${error.stack ?? error}`);
    process.exit(1);
  },
);
