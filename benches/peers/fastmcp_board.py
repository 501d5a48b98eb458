# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: AGPL-3.0-or-later

"""A FastMCP (official Python SDK, mcp 1.x) server with an add/list tool pair, the peer
a user might write instead of installing planning-mcp-server.

    python fastmcp_board.py            # stdio
    python fastmcp_board.py --http N   # Streamable HTTP at http://127.0.0.1:N/mcp
"""

import sys

from mcp.server.fastmcp import FastMCP

tasks: list[dict] = []
server = FastMCP("fastmcp-board")


@server.tool()
def add_task(title: str, description: str = "") -> str:
    """Add a task."""
    tasks.append({"title": title, "description": description, "status": "pending"})
    return f"added {title}"


@server.tool()
def list_tasks() -> str:
    """List the tasks."""
    return "\n".join(f"- [{t['status']}] {t['title']}" for t in tasks) or "No tasks."


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--http":
        server.settings.host = "127.0.0.1"
        server.settings.port = int(sys.argv[2])
        server.settings.log_level = "WARNING"
        server.run(transport="streamable-http")
    else:
        server.run()
