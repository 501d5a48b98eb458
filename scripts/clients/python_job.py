# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: AGPL-3.0-or-later

"""Runs scripts/clients/job.json through the official Python SDK client (PyPI `mcp`).

    python_job.py --mode auto|legacy TARGET

TARGET is a Streamable HTTP URL or a stdio command line (split on whitespace; the server
starts in the current directory). `--mode legacy` speaks protocol 2025-11-25 (initialize,
sessions), `auto` the newest the server offers (2026-07-28: stateless, per-request _meta).
With PLANNING_EXPECT_VERSION set, serverInfo.version must be it. Prints one line per step; exits 1 at the first step that fails, naming it.
"""

import argparse
import asyncio
import hashlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError

JOB = json.loads((Path(__file__).parent / "job.json").read_text(encoding="utf-8"))
ERA = {"legacy": "2025-11-25", "auto": "2026-07-28"}


class StepFailed(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise StepFailed(what)


def fill(value: Any, captured: dict[str, str]) -> Any:
    """`value` with every ${name} replaced by what a step captured."""
    if isinstance(value, str):
        return re.sub(r"\$\{(\w+)\}", lambda m: captured[m.group(1)], value)
    if isinstance(value, list):
        return [fill(v, captured) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, captured) for k, v in value.items()}
    return value


def expect(text: str, step: dict, captured: dict[str, str]) -> None:
    for wanted in fill(step.get("expect", []), captured):
        check(wanted in text, f"the reply holds {wanted!r}: {text!r}")
    for unwanted in fill(step.get("absent", []), captured):
        check(unwanted not in text, f"the reply does not hold {unwanted!r}: {text!r}")
    for name, pattern in step.get("capture", {}).items():
        found = re.search(pattern, text)
        check(found is not None, f"the reply matches {pattern!r}: {text!r}")
        captured[name] = found.group(1)


class RawRequest(types.Request):
    """A request whose params go out as given (`types.Request` keeps only `_meta`)."""

    params: dict[str, Any] | None = None


async def raw(client: Client, method: str, params: dict) -> dict:
    """A request the SDK has no method for (the Skills extension's)."""
    request = RawRequest(method=method, params=params)
    return await client.session.send_request(request, TypeAdapter(dict[str, Any]))


async def read_text(client: Client, uri: str) -> str:
    read = await client.read_resource(uri)
    check(len(read.contents) == 1, f"{uri} is one text")
    return read.contents[0].text


async def skills(client: Client, names: list[str]) -> None:
    listed = (await raw(client, "skills/list", {}))["skills"]
    check([s["frontmatter"]["name"] for s in listed] == names, f"skills/list: {listed}")
    for skill in listed:
        uri = skill["uri"]
        got = await raw(client, "skills/get", {"uri": uri})
        check(got["skill"] == skill, f"skills/get {uri} equals its entry")
        data = (await read_text(client, uri)).encode("utf-8")
        [manifest] = skill["resources"]
        check(manifest["size"] == len(data), f"{uri} has the size of its manifest")
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        check(manifest["digest"] == digest, f"{uri} has the digest of its manifest")
        name = skill["frontmatter"]["name"]
        check(data.startswith(f"---\nname: {name}\n".encode()), f"{uri} starts with its frontmatter")


async def run_step(client: Client, step: dict, captured: dict[str, str]) -> str:
    if "call" in step:
        name, args = step["call"], fill(step["args"], captured)
        if "protocol_error" in step:
            try:
                await client.call_tool(name, args)
            except MCPError as error:
                check(error.error.code == step["protocol_error"], f"error code {error.error.code}")
                return f"{name}: error {error.error.code}"
            raise StepFailed(f"{name} answered instead of a JSON-RPC error")
        result = await client.call_tool(name, args)
        text = "\n".join(c.text for c in result.content if c.type == "text")
        check(bool(result.is_error) == step.get("error", False), f"isError {result.is_error}: {text!r}")
        expect(text, step, captured)
        return f"{name}: {text.splitlines()[0] if text else ''}"
    if "read" in step:
        uri = fill(step["read"], captured)
        expect(await read_text(client, uri), step, captured)
        return f"read {uri}"
    if "resources" in step:
        listed = {r.uri for r in (await client.list_resources()).resources}
        missing = set(step["resources"]) - listed
        check(not missing, f"resources/list lacks {sorted(missing)}")
        return f"resources/list: {len(listed)} resources"
    if "skills" in step:
        await skills(client, step["skills"])
        return f"skills: {', '.join(step['skills'])}"
    raise StepFailed(f"unknown step {step}")


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=sorted(ERA), default="auto")
    parser.add_argument("target")
    options = parser.parse_args()
    if options.target.startswith(("http://", "https://")):
        server: Any = options.target
    else:
        command = options.target.split()
        server = StdioServerParameters(command=command[0], args=command[1:])
    captured: dict[str, str] = {}
    async with Client(server, mode=options.mode) as client:
        check(client.protocol_version == ERA[options.mode], f"protocol {client.protocol_version}")
        check(client.server_info.name == "planning-mcp-server", f"server {client.server_info}")
        # A package's binary (scripts/packages.sh) must serve the crate's version.
        version = os.environ.get("PLANNING_EXPECT_VERSION")
        check(version in (None, client.server_info.version), f"server {client.server_info}")
        for uri in JOB["instructions"]:
            check(uri in (client.instructions or ""), f"the instructions point to {uri}")
        tools = (await client.list_tools()).tools
        check(len(tools) == JOB["tools"], f"{len(tools)} tools, not {JOB['tools']}")
        print(f"ok   connected: protocol {client.protocol_version}, {len(tools)} tools")
        for number, step in enumerate(JOB["steps"], 1):
            try:
                done = await run_step(client, step, captured)
            except (StepFailed, MCPError) as error:
                print(f"FAIL step {number} {json.dumps(step, ensure_ascii=False)}: {error}")
                return 1
            print(f"ok   {done}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
