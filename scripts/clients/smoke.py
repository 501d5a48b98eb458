# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: AGPL-3.0-or-later

"""Starts a server exactly as a package or a client config says, through the official
Python SDK client (PyPI `mcp`), and checks it serves: initialize, tools/list, one tool
call. For what scripts/packages.sh cannot run the whole job on (scripts/clients/job.json
needs every toolset): the MCP Bundle's manifest and the Claude Code plugin's `.mcp.json`.

    smoke.py --version VERSION --tool NAME --arguments JSON --expect TEXT \\
        [--env KEY=VALUE ...] [--tools N] -- COMMAND [ARG ...]

The server starts in the current directory with the environment given by --env added
to PATH and HOME. Prints what it checked; exits 1 at the first check that fails.
"""

import argparse
import asyncio
import json
import os
import sys

from mcp import Client, StdioServerParameters


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAIL {what}")
        sys.exit(1)


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--version", required=True, help="serverInfo.version wanted")
    parser.add_argument("--tool", required=True)
    parser.add_argument("--arguments", default="{}")
    parser.add_argument("--expect", required=True, help="text the tool's reply holds")
    parser.add_argument("--tools", type=int, help="the number of tools wanted")
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("command", nargs="+")
    options = parser.parse_args()
    env = {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}
    env.update(entry.split("=", 1) for entry in options.env)
    server = StdioServerParameters(
        command=options.command[0], args=options.command[1:], env=env, cwd=os.getcwd()
    )
    async with Client(server, mode="legacy") as client:
        info = client.server_info
        check(info.name == "planning-mcp-server", f"serverInfo {info}")
        check(info.version == options.version, f"serverInfo.version {info.version!r}, not {options.version!r}")
        print(f"ok   initialize: {info.name} {info.version}")
        tools = (await client.list_tools()).tools
        names = [tool.name for tool in tools]
        check(options.tool in names, f"tools/list {names} lacks {options.tool}")
        if options.tools is not None:
            check(len(tools) == options.tools, f"{len(tools)} tools, not {options.tools}")
        print(f"ok   tools/list: {len(tools)} tools")
        result = await client.call_tool(options.tool, json.loads(options.arguments))
        text = "".join(getattr(part, "text", "") for part in result.content)
        check(not result.is_error, f"{options.tool} failed: {text}")
        check(options.expect in text, f"{options.tool}'s reply lacks {options.expect!r}: {text!r}")
        print(f"ok   {options.tool}: {text.splitlines()[0] if text else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
