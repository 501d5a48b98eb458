// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP server of one session. It only dispatches: it lists and calls
//! the tools of the enabled toolsets, serves and watches their resources
//! (`resources/subscribe`, or `subscriptions/listen` in protocol
//! 2026-07-28), serves their skills (`skills/list`, `skills/get`, and each
//! `SKILL.md` as a resource), and never names a toolset. The toolsets reach
//! it through the interface in [`toolset`] (with their other faces: skills
//! in [`skill`], HTTP routes in [`routes`], subcommands in [`command`]);
//! the configuration through [`settings`].
//!
//! It declares exactly what it serves: tools; prompts and completions
//! (both empty: the conformance suite asks every server for them);
//! resources (with subscriptions) when a toolset has resources or a skill;
//! the Skills extension when a toolset has a skill. Since rmcp 3.11 the SDK
//! answers a method whose capability is not declared with "method not
//! found" (-32601), and so does [`SessionServer`] for the ones it
//! implements itself.

pub(crate) mod board_name;
pub(crate) mod command;
pub(crate) mod compact_schema;
pub(crate) mod enabled;
pub(crate) mod endpoint;
pub(crate) mod registry;
pub(crate) mod routed_tools;
pub(crate) mod routes;
pub(crate) mod seconds;
pub(crate) mod secret;
pub(crate) mod settings;
pub(crate) mod skill;
pub(crate) mod toolset;
pub(crate) mod untyped_request;

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::future::select_all;
use parking_lot::Mutex;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, ConstString, CustomRequest, CustomResult,
    ErrorCode, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams, GetSkillResult,
    Implementation, ListPromptsResult, ListResourcesRequestMethod, ListResourcesResult,
    ListSkillsResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestMethod, ReadResourceRequestParams, ReadResourceResponse,
    ResourceUpdatedNotificationParam, ResultType, ServerCapabilities, ServerConfig,
    SubscribeRequestMethod, SubscribeRequestParams, SubscriptionFilter, Tool,
    UnsubscribeRequestMethod, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData, ServerHandler};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

pub(crate) use board_name::BoardName;
pub(crate) use enabled::Enabled;
pub(crate) use endpoint::Endpoint;
pub(crate) use registry::Registry;

use crate::runtime::text::clip;

/// The answer to a method whose capability is not declared, worded as
/// the answer to an unknown method ([`untyped_request`]).
fn not_served<M: ConstString>() -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("Method not found: {}", M::VALUE),
        None,
    )
}

/// One MCP session's server: the endpoint it works on.
#[derive(Clone)]
pub(crate) struct SessionServer {
    endpoint: Arc<Endpoint>,
    /// Legacy `resources/subscribe` subscriptions of this session, by URI.
    subscriptions: Arc<Mutex<HashMap<String, CancellationToken>>>,
}

impl SessionServer {
    /// A session on `endpoint`.
    pub(crate) fn new(endpoint: Arc<Endpoint>) -> Self {
        Self {
            endpoint,
            subscriptions: Arc::default(),
        }
    }

    /// A receiver for changes of resource `uri`, if a toolset has it.
    fn watch(&self, uri: &str) -> Option<watch::Receiver<u64>> {
        self.endpoint.faces().iter().find_map(|t| t.watch(uri))
    }

    /// Whether `uri` is one of the endpoint's resources.
    fn has_resource(&self, uri: &str) -> bool {
        self.endpoint.resources().iter().any(|r| r.uri == uri)
    }

    /// The error for a URI that is none of the endpoint's resources.
    /// Called only when it has resources (the capability is declared).
    fn resource_not_found(&self, uri: &str) -> ErrorData {
        let uris: Vec<String> = self
            .endpoint
            .resources()
            .into_iter()
            .map(|r| r.uri)
            .collect();
        ErrorData::resource_not_found(
            format!(
                "No resource '{}' here; this session has {}.",
                clip(uri),
                uris.join(" and ")
            ),
            // SEP-2164: the error names the requested URI in its data.
            Some(serde_json::json!({ "uri": uri })),
        )
    }

    /// The error for a `SKILL.md` URI that is none of the endpoint's skills
    /// (-32602, as SEP-2640 asks).
    fn skill_not_found(&self, uri: &str) -> ErrorData {
        let uris: Vec<String> = self.endpoint.skills().iter().map(|s| s.uri()).collect();
        ErrorData::invalid_params(
            format!(
                "No skill '{}' here; this session has {}.",
                clip(uri),
                uris.join(" and ")
            ),
            Some(serde_json::json!({ "uri": uri })),
        )
    }
}

impl ServerHandler for SessionServer {
    fn get_info(&self) -> ServerConfig {
        // Prompts and completions are declared, and honestly empty: the
        // conformance suite asks every server for both lists.
        let capabilities = ServerCapabilities::builder()
            .enable_completions()
            .enable_prompts()
            .enable_tools();
        let capabilities = match (
            self.endpoint.has_resources(),
            self.endpoint.skills().is_empty(),
        ) {
            (false, _) => capabilities.build(),
            (true, true) => capabilities
                .enable_resources()
                .enable_resources_subscribe()
                .build(),
            (true, false) => capabilities
                .enable_resources()
                .enable_resources_subscribe()
                .enable_skills()
                .build(),
        };
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
                    .with_title("Planning board"),
            )
            .with_instructions(self.endpoint.instructions())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cache_hints = context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
        Ok(ListToolsResult {
            result_type: Some(ResultType::COMPLETE),
            tools: self.endpoint.tool_list().to_vec(),
            meta: None,
            next_cursor: None,
            ttl_ms: cache_hints.then_some(0),
            cache_scope: cache_hints.then_some(CacheScope::Public),
        })
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let tools = self.endpoint.tool_list();
        tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = self
            .endpoint
            .face_of(&request.name)
            .and_then(|face| face.call(request, context));
        match call {
            Some(call) => call.await,
            None => Err(ErrorData::invalid_params("tool not found", None)),
        }
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(untyped_request::answer(
            &request,
            &self.get_info().capabilities,
        ))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        if !self.endpoint.has_resources() {
            return Err(not_served::<ListResourcesRequestMethod>());
        }
        Ok(ListResourcesResult::with_all_items(
            self.endpoint.resources(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if !self.endpoint.has_resources() {
            return Err(not_served::<ReadResourceRequestMethod>());
        }
        if let Some(skill) = self.endpoint.skill(&request.uri) {
            return Ok(skill.read().into());
        }
        let (endpoint, uri) = (self.endpoint.clone(), request.uri.clone());
        // A toolset's read may wait for its files: off the async workers.
        let read = crate::runtime::blocking::run(move || {
            endpoint.faces().iter().find_map(|t| t.read_resource(&uri))
        })
        .await;
        match read {
            Some(result) => result.map(Into::into),
            None => Err(self.resource_not_found(&request.uri)),
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::default())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let name = clip(&request.name);
        Err(ErrorData::invalid_params(
            format!("No prompt '{name}': this server has no prompts."),
            None,
        ))
    }

    // Only called when the Skills extension is declared (rmcp answers
    // -32601 otherwise): every skill on one page.
    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let skills = self.endpoint.skills().iter().map(|skill| skill.entry());
        Ok(ListSkillsResult::with_all_items(skills.collect()))
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        match self.endpoint.skill(&request.uri) {
            Some(skill) => Ok(GetSkillResult::new(skill.entry())),
            None => Err(self.skill_not_found(&request.uri)),
        }
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.endpoint.has_resources() {
            return Err(not_served::<SubscribeRequestMethod>());
        }
        let uri = request.uri;
        let Some(mut changes) = self.watch(&uri) else {
            // A skill's file never changes while the server runs: nothing to announce.
            return match self.has_resource(&uri) {
                true => Ok(()),
                false => Err(self.resource_not_found(&uri)),
            };
        };
        let stop = CancellationToken::new();
        if let Some(previous) = self.subscriptions.lock().insert(uri.clone(), stop.clone()) {
            previous.cancel();
        }
        let peer = context.peer;
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    // The stop first: a change made after `unsubscribe` was
                    // answered is never announced, even when both woke the
                    // task at once.
                    biased;
                    () = stop.cancelled() => return,
                    changed = changes.changed() => {
                        let notified = match changed {
                            Ok(()) => peer
                                .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri.clone()))
                                .await,
                            Err(_) => return,
                        };
                        if notified.is_err() {
                            return; // the session is gone
                        }
                    }
                }
            }
        });
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.endpoint.has_resources() {
            return Err(not_served::<UnsubscribeRequestMethod>());
        }
        if let Some(stop) = self.subscriptions.lock().remove(&request.uri) {
            stop.cancel();
        }
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let uris = requested.resource_subscriptions.iter().flatten();
        let mine = uris.filter(|uri| self.has_resource(uri));
        Some(
            SubscriptionFilter::builder()
                .resource_subscriptions(mine.cloned())
                .build(),
        )
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let uris = context
            .accepted()
            .resource_subscriptions
            .clone()
            .unwrap_or_default();
        let mut watched: Vec<(String, watch::Receiver<u64>)> = uris
            .into_iter()
            .filter_map(|uri| self.watch(&uri).map(|changes| (uri, changes)))
            .collect();
        if watched.is_empty() {
            context.cancelled().await;
            return Ok(());
        }
        loop {
            let woke = {
                let changes = select_all(watched.iter_mut().map(|(_, rx)| Box::pin(rx.changed())));
                tokio::select! {
                    () = context.cancelled() => None,
                    (changed, index, _) = changes => changed.is_ok().then_some(index),
                }
            };
            let Some(index) = woke else { return Ok(()) };
            let uri = watched[index].0.clone();
            if context.sink().notify_resource_updated(uri).await.is_err() {
                return Ok(());
            }
        }
    }
}
