# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: AGPL-3.0-or-later

"""A session whose replica dies, through the official Python SDK client (PyPI `mcp`).

    failover.py URL

Driven by tests/e2e/postgres_proxy_failover.rs: opens a 2025-era session (initialize,
`Mcp-Session-Id`) through the proxy at URL, adds a task, prints `ready` and waits for a
line on stdin (the test kills the session's replica meanwhile). Then the old session's
next call must fail as the SDK reports a session that ended (HTTP 404: MCPError
"Session terminated"); a new session through the same URL must see the task; and a
client of the stateless 2026-07-28 era must work too. Prints one line per step; exits 1
if a step fails.
"""

import asyncio
import sys

from mcp import Client
from mcp.shared.exceptions import MCPError

TITLE = "added by the python client before the kill"


def text(result) -> str:
    return "".join(getattr(part, "text", "") for part in result.content)


async def main(url: str) -> int:
    old = Client(url, mode="legacy")
    await old.__aenter__()
    await old.call_tool("add_tasks", {"tasks": [{"title": TITLE}]})
    print(f"ready {old.protocol_version}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    try:
        await old.call_tool("get_tasks", {})
        print("FAIL the old session still answered", flush=True)
        return 1
    except MCPError as error:
        print(f"ended {error.error.code} {error.error.message}", flush=True)
    try:
        await old.__aexit__(None, None, None)
    except Exception as error:  # closing a dead session may fail; it is gone anyway
        print(f"closed with {type(error).__name__}", flush=True)
    async with Client(url, mode="legacy") as fresh:
        board = text(await fresh.call_tool("get_tasks", {}))
        if TITLE not in board:
            print(f"FAIL the new session does not see the task: {board}", flush=True)
            return 1
        print(f"recovered {fresh.protocol_version}", flush=True)
    async with Client(url, mode="auto") as stateless:
        board = text(await stateless.call_tool("get_tasks", {}))
        if TITLE not in board:
            print(f"FAIL the stateless client does not see the task: {board}", flush=True)
            return 1
        print(f"stateless {stateless.protocol_version}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
