// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

// Runs scripts/clients/job.json through the official TypeScript SDK client
// (npm @modelcontextprotocol/sdk), on the newest protocol it speaks.
//
//   node ts_job.mjs TARGET
//
// TARGET is a Streamable HTTP URL or a stdio command line (split on whitespace;
// the server starts in the current directory). Prints one line per step; exits 1
// at the first step that fails, naming it. Run with NODE_PATH pointing at the
// node_modules that hold the SDK (scripts/sdk-clients.sh does).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(process.env.NODE_PATH.split(":")[0] + "/");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { McpError, LATEST_PROTOCOL_VERSION } = require("@modelcontextprotocol/sdk/types.js");
const { z } = require("zod");

const job = JSON.parse(readFileSync(new URL("job.json", import.meta.url), "utf8"));
const anything = z.object({}).passthrough();

class StepFailed extends Error {}

function check(condition, what) {
  if (!condition) throw new StepFailed(what);
}

/** `value` with every ${name} replaced by what a step captured. */
function fill(value, captured) {
  if (typeof value === "string") return value.replace(/\$\{(\w+)\}/g, (_, name) => captured[name]);
  if (Array.isArray(value)) return value.map((v) => fill(v, captured));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, captured)]));
  }
  return value;
}

function expect(text, step, captured) {
  for (const wanted of fill(step.expect ?? [], captured)) {
    check(text.includes(wanted), `the reply holds ${JSON.stringify(wanted)}: ${JSON.stringify(text)}`);
  }
  for (const unwanted of fill(step.absent ?? [], captured)) {
    check(!text.includes(unwanted), `the reply does not hold ${JSON.stringify(unwanted)}: ${JSON.stringify(text)}`);
  }
  for (const [name, pattern] of Object.entries(step.capture ?? {})) {
    const found = new RegExp(pattern).exec(text);
    check(found !== null, `the reply matches ${pattern}: ${JSON.stringify(text)}`);
    captured[name] = found[1];
  }
}

async function readText(client, uri) {
  const read = await client.readResource({ uri });
  check(read.contents.length === 1 && typeof read.contents[0].text === "string", `${uri} is one text`);
  return read.contents[0].text;
}

async function skills(client, names) {
  // The SDK has no methods for the Skills extension: plain requests.
  const listed = (await client.request({ method: "skills/list", params: {} }, anything)).skills;
  check(JSON.stringify(listed.map((s) => s.frontmatter.name)) === JSON.stringify(names), `skills/list: ${JSON.stringify(listed)}`);
  for (const skill of listed) {
    const got = await client.request({ method: "skills/get", params: { uri: skill.uri } }, anything);
    check(JSON.stringify(got.skill) === JSON.stringify(skill), `skills/get ${skill.uri} equals its entry`);
    const data = Buffer.from(await readText(client, skill.uri), "utf8");
    check(skill.resources.length === 1, `${skill.uri} lists one file`);
    const [manifest] = skill.resources;
    check(manifest.size === data.length, `${skill.uri} has the size of its manifest`);
    const digest = "sha256:" + createHash("sha256").update(data).digest("hex");
    check(manifest.digest === digest, `${skill.uri} has the digest of its manifest`);
    check(data.toString("utf8").startsWith(`---\nname: ${skill.frontmatter.name}\n`), `${skill.uri} starts with its frontmatter`);
  }
}

async function runStep(client, step, captured) {
  if ("call" in step) {
    const name = step.call;
    const args = fill(step.args, captured);
    if ("protocol_error" in step) {
      try {
        await client.callTool({ name, arguments: args });
      } catch (error) {
        check(error instanceof McpError && error.code === step.protocol_error, `error ${error}`);
        return `${name}: error ${error.code}`;
      }
      throw new StepFailed(`${name} answered instead of a JSON-RPC error`);
    }
    const result = await client.callTool({ name, arguments: args });
    const text = result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
    check(Boolean(result.isError) === (step.error ?? false), `isError ${result.isError}: ${JSON.stringify(text)}`);
    expect(text, step, captured);
    return `${name}: ${text.split("\n")[0]}`;
  }
  if ("read" in step) {
    const uri = fill(step.read, captured);
    expect(await readText(client, uri), step, captured);
    return `read ${uri}`;
  }
  if ("resources" in step) {
    const listed = new Set((await client.listResources()).resources.map((r) => r.uri));
    const missing = step.resources.filter((uri) => !listed.has(uri));
    check(missing.length === 0, `resources/list lacks ${missing}`);
    return `resources/list: ${listed.size} resources`;
  }
  if ("skills" in step) {
    await skills(client, step.skills);
    return `skills: ${step.skills.join(", ")}`;
  }
  throw new StepFailed(`unknown step ${JSON.stringify(step)}`);
}

async function main(target) {
  const transport = /^https?:\/\//.test(target)
    ? new StreamableHTTPClientTransport(new URL(target))
    : (() => {
        const [command, ...args] = target.trim().split(/\s+/);
        return new StdioClientTransport({ command, args, stderr: "ignore" });
      })();
  const client = new Client({ name: "planning-mcp-server-ci", version: "1.0.0" });
  await client.connect(transport);
  const captured = {};
  try {
    const server = client.getServerVersion();
    check(server.name === "planning-mcp-server", `server ${JSON.stringify(server)}`);
    // A package's binary (scripts/packages.sh) must serve the crate's version.
    const version = process.env.PLANNING_EXPECT_VERSION;
    check(version === undefined || server.version === version, `server ${JSON.stringify(server)}`);
    const instructions = client.getInstructions() ?? "";
    for (const uri of job.instructions) check(instructions.includes(uri), `the instructions point to ${uri}`);
    const { tools } = await client.listTools();
    check(tools.length === job.tools, `${tools.length} tools, not ${job.tools}`);
    console.log(`ok   connected (protocol ${transport.protocolVersion ?? LATEST_PROTOCOL_VERSION}), ${tools.length} tools`);
    for (const [index, step] of job.steps.entries()) {
      try {
        console.log(`ok   ${await runStep(client, step, captured)}`);
      } catch (error) {
        console.log(`FAIL step ${index + 1} ${JSON.stringify(step)}: ${error.message ?? error}`);
        return 1;
      }
    }
  } finally {
    if (transport.terminateSession) await transport.terminateSession().catch(() => {});
    await client.close();
  }
  return 0;
}

process.exit(await main(process.argv[2]));
