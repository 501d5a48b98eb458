// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The floor: the smallest rmcp server a user would write, one no-op tool,
//! on stdio or Streamable HTTP, with the same runtimes, HTTP settings and
//! release profile as planning-mcp-server, and the system allocator (a
//! plain server does not bring its own). The e2e benchmark compares against
//! it.
//!
//! `floor` serves stdio; `floor --http PORT` serves `http://127.0.0.1:PORT/mcp`.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};

#[derive(Clone)]
struct Floor {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Floor {
    /// Does nothing.
    #[tool(description = "Does nothing and says ok.")]
    fn noop(&self) -> String {
        "ok".to_owned()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Floor {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("floor", "0"))
    }
}

fn floor() -> Floor {
    Floor {
        tool_router: Floor::tool_router(),
    }
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--http") => {
            let port: u16 = args.get(2).and_then(|p| p.parse().ok()).unwrap_or(0);
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            runtime.block_on(serve_http(port))
        }
        _ => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            runtime.block_on(async {
                let service = floor()
                    .serve(rmcp::transport::stdio())
                    .await
                    .map_err(std::io::Error::other)?;
                let _ = service.waiting().await;
                Ok(())
            })
        }
    }
}

async fn serve_http(port: u16) -> std::io::Result<()> {
    let service = StreamableHttpService::new(
        || Ok(floor()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    eprintln!("url=http://127.0.0.1:{}/mcp", listener.local_addr()?.port());
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app).await
}
