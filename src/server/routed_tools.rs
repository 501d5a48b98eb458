// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Tools declared with rmcp's `#[tool_router]`, as a toolset's [`Tools`]
//! list and call them: the router built once (building it generates every
//! schema), its tools listed with compact schemas.
//!
//! [`Tools`]: super::toolset::Tools

use std::sync::OnceLock;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolRequestParams, Tool};
use rmcp::service::{RequestContext, RoleServer};

use super::compact_schema::compact_tool;
use super::toolset::ToolFuture;

/// The tools of one `#[tool_router]` impl, kept in a `static`.
pub(crate) struct RoutedTools<T: 'static> {
    build: fn() -> ToolRouter<T>,
    router: OnceLock<ToolRouter<T>>,
    listed: OnceLock<Vec<Tool>>,
}

impl<T: Clone + Send + Sync + 'static> RoutedTools<T> {
    /// The tools that `build` (the function `#[tool_router]` generates) returns.
    pub(crate) const fn new(build: fn() -> ToolRouter<T>) -> Self {
        Self {
            build,
            router: OnceLock::new(),
            listed: OnceLock::new(),
        }
    }

    fn router(&self) -> &ToolRouter<T> {
        self.router.get_or_init(self.build)
    }

    /// The tools as `tools/list` shows them, with compact schemas.
    pub(crate) fn list(&self) -> Vec<Tool> {
        self.listed
            .get_or_init(|| {
                self.router()
                    .list_all()
                    .into_iter()
                    .map(compact_tool)
                    .collect()
            })
            .clone()
    }

    /// Calls the tool `request` names on `this`, or `None` if it is not one of these.
    pub(crate) fn call(
        &'static self,
        this: &T,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Option<ToolFuture> {
        let router = self.router();
        if !router.has_route(&request.name) {
            return None;
        }
        let this = this.clone();
        Some(Box::pin(async move {
            router
                .call(ToolCallContext::new(&this, request, context))
                .await
        }))
    }
}

/// Makes the `#[tool_router]` impl of `$tools` the toolset's whole
/// [`Tools`](super::toolset::Tools): its tools listed and called as
/// [`RoutedTools`] does, with nothing around the call. A toolset that wraps
/// its calls (planning's and team's notices) writes its own impl instead.
macro_rules! routed_tools {
    ($tools:ty) => {
        const _: () = {
            static TOOLS: $crate::server::routed_tools::RoutedTools<$tools> =
                $crate::server::routed_tools::RoutedTools::new(<$tools>::tool_router);

            impl $crate::server::toolset::Tools for $tools {
                fn tools(&self) -> Vec<rmcp::model::Tool> {
                    TOOLS.list()
                }

                fn call(
                    &self,
                    request: rmcp::model::CallToolRequestParams,
                    context: rmcp::service::RequestContext<rmcp::service::RoleServer>,
                ) -> Option<$crate::server::toolset::ToolFuture> {
                    TOOLS.call(self, request, context)
                }
            }
        };
    };
}
pub(crate) use routed_tools;
