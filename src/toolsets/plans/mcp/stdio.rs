// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `long-term-plan-mcp`, the drop-in stdio server: the reference's flags
//! (`--root`, `--plans`, `--legacy-doc-tools`, `--help`, `--version`), its
//! identity (`long-term-plan-mcp` 0.1.0) and only its tools, so that a
//! client configured for `npx long-term-plan-mcp` sees the same server.

use std::path::Path;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::IntoTransport;
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use sha2::{Digest, Sha256};

use crate::toolsets::plans::api::Plans;
use crate::toolsets::plans::mcp::tools;
use crate::toolsets::plans::store::{self, DEFAULT_PLANS_DIR};

/// The reference's name and version, reported in `initialize`.
pub const NAME: &str = "long-term-plan-mcp";
/// The reference's version.
pub const VERSION: &str = "0.1.0";

/// The help text of `long-term-plan-mcp --help`.
pub const HELP: &str = "long-term-plan-mcp (stdio MCP server)

Usage:
  long-term-plan-mcp [--root <dir>] [--plans <dir>]

Options:
  --root   Root directory (default: cwd)
  --plans  Plans directory relative to root (default: .long-term-plan)
  --legacy-doc-tools  Also register legacy `doc.*` tool names
  --help   Show help
";

/// `long-term-plan-mcp 0.1.0+<first 8 hex of sha256("long-term-plan-mcp")>`.
pub fn version_line() -> String {
    let hint = hex::encode(Sha256::digest(NAME.as_bytes()));
    format!("{NAME} {VERSION}+{}\n", &hint[..8])
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Print the help.
    Help,
    /// Print the version.
    Version,
    /// Serve on stdio.
    Serve {
        /// The root, resolved against the working directory.
        root: std::path::PathBuf,
        /// The plans directory, relative to the root.
        plans: String,
        /// Whether `doc.validate` and `doc.repair` are offered.
        legacy_doc_tools: bool,
    },
}

/// Parses the arguments (without the program name) as the reference does:
/// `--help`/`-h` anywhere wins, then `--version`/`-v`, then strict flags
/// left to right (a value-taking flag takes the next argument, whatever it is).
pub fn parse_args(args: &[String], cwd: &Path) -> Result<Command, String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Command::Help);
    }
    if args.iter().any(|a| a == "--version" || a == "-v") {
        return Ok(Command::Version);
    }
    let mut root = cwd.to_path_buf();
    let mut plans = DEFAULT_PLANS_DIR.to_owned();
    let mut legacy_doc_tools = false;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        match flag.as_str() {
            "--root" => match rest.next().filter(|v| !v.is_empty()) {
                Some(value) => root = store::resolve(cwd, Path::new(value)),
                None => return Err("Missing value for --root".into()),
            },
            "--plans" => match rest.next().filter(|v| !v.is_empty()) {
                Some(value) => plans = value.clone(),
                None => return Err("Missing value for --plans".into()),
            },
            "--legacy-doc-tools" => legacy_doc_tools = true,
            other => return Err(format!("Unknown argument: {other}")),
        }
    }
    Ok(Command::Serve {
        root,
        plans,
        legacy_doc_tools,
    })
}

/// The server of `long-term-plan-mcp`: the plans tools, nothing else.
#[derive(Debug, Clone)]
pub struct PlansServer {
    plans: Arc<Plans>,
    legacy_doc_tools: bool,
}

impl PlansServer {
    /// A server over `plans`.
    pub fn new(plans: Plans, legacy_doc_tools: bool) -> Self {
        Self {
            plans: Arc::new(plans),
            legacy_doc_tools,
        }
    }
}

impl ServerHandler for PlansServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new(NAME, VERSION))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::tools(
            self.legacy_doc_tools,
        )))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(crate::server::untyped_request::answer(&request))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (plans, legacy) = (self.plans.clone(), self.legacy_doc_tools);
        // Plan files are read, locked and written: off the async worker.
        let result = crate::runtime::blocking::run(move || {
            let name = request.name.as_ref();
            tools::call(name, &plans, request.arguments.as_ref(), legacy).unwrap_or_else(|| {
                // The reference answers an unknown tool with an error result.
                CallToolResult::error(vec![ContentBlock::text(format!(
                    "MCP error -32602: Tool {name} not found"
                ))])
            })
        })
        .await;
        Ok(result.into())
    }
}

/// Serves `server` on `transport` (stdin/stdout) until the client leaves.
pub async fn serve<T, E, A>(server: PlansServer, transport: T) -> std::io::Result<()>
where
    T: IntoTransport<RoleServer, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let service = server
        .serve(transport)
        .await
        .map_err(std::io::Error::other)?;
    let _ = service.waiting().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, String> {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        parse_args(&args, Path::new("/cwd"))
    }

    #[test]
    fn flags() {
        assert_eq!(parse(&["--root", "x", "-h"]), Ok(Command::Help));
        assert_eq!(parse(&["--bogus", "-v"]), Ok(Command::Version));
        assert_eq!(
            parse(&["--root", "sub/..", "--plans", "--legacy-doc-tools"]),
            Ok(Command::Serve {
                root: "/cwd".into(),
                plans: "--legacy-doc-tools".into(),
                legacy_doc_tools: false
            })
        );
        assert_eq!(
            parse(&["--legacy-doc-tools"]),
            Ok(Command::Serve {
                root: "/cwd".into(),
                plans: ".long-term-plan".into(),
                legacy_doc_tools: true
            })
        );
        assert_eq!(parse(&["--root"]), Err("Missing value for --root".into()));
        assert_eq!(
            parse(&["--plans", ""]),
            Err("Missing value for --plans".into())
        );
        assert_eq!(
            parse(&["--root=x"]),
            Err("Unknown argument: --root=x".into())
        );
    }

    #[test]
    fn version_and_help() {
        assert_eq!(version_line(), "long-term-plan-mcp 0.1.0+0361d983\n");
        assert!(HELP.ends_with("  --help   Show help\n"));
    }
}
