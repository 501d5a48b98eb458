// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The answer to a request the SDK could not type. rmcp hands a request whose
//! params do not fit its method (`tools/call` without a `name`, `arguments`
//! that are not an object) to the handler as a custom request, and its
//! default answer is "method not found" naming the method, which sends a
//! client looking for the wrong mistake. A known method with bad params is
//! answered with JSON-RPC's invalid-params error and the reason instead.

use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CompleteRequestParams, CustomRequest, ErrorCode, GetPromptRequestParams,
    GetSkillRequestParams, PaginatedRequestParams, ReadResourceRequestParams, ServerCapabilities,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::runtime::text::clip;

/// Why `params` do not fit `T`, or `None` if they do.
fn misfit<T: DeserializeOwned>(params: Option<&Value>) -> Option<String> {
    let params = params.cloned().unwrap_or_else(|| json!({}));
    serde_json::from_value::<T>(params)
        .err()
        .map(|e| e.to_string())
}

/// Why `params` do not fit the params of `method`; `None` for a method this
/// server does not serve (its capability is not in `served`), or whose
/// params fit (a method the negotiated protocol version does not have,
/// such as `initialize` in stateless mode). `resources/subscribe` is left
/// out: protocol 2026-07-28 removed it, and a stateless client must get
/// "method not found" for it whatever its params.
fn reason(method: &str, params: Option<&Value>, served: &ServerCapabilities) -> Option<String> {
    let list = |params| misfit::<Option<PaginatedRequestParams>>(params);
    match method {
        "tools/call" if served.tools.is_some() => misfit::<CallToolRequestParams>(params),
        "tools/list" if served.tools.is_some() => list(params),
        "resources/read" if served.resources.is_some() => {
            misfit::<ReadResourceRequestParams>(params)
        }
        "resources/list" | "resources/templates/list" if served.resources.is_some() => list(params),
        "skills/get" if served.supports_skills() => misfit::<GetSkillRequestParams>(params),
        "skills/list" if served.supports_skills() => list(params),
        "prompts/get" if served.prompts.is_some() => misfit::<GetPromptRequestParams>(params),
        "prompts/list" if served.prompts.is_some() => list(params),
        "completion/complete" if served.completions.is_some() => {
            misfit::<CompleteRequestParams>(params)
        }
        _ => None,
    }
}

/// The error for a request rmcp could not type: invalid params for a method
/// of a capability in `served` whose params do not fit, method not found
/// otherwise.
pub(crate) fn answer(request: &CustomRequest, served: &ServerCapabilities) -> ErrorData {
    let method = clip(&request.method);
    match reason(&request.method, request.params.as_ref(), served) {
        Some(reason) => ErrorData::invalid_params(
            format!("Invalid params for {method}: {reason}"),
            Some(json!({ "method": method })),
        ),
        None => ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
            None,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, params: Value) -> CustomRequest {
        CustomRequest::new(method, Some(params))
    }

    fn everything() -> ServerCapabilities {
        ServerCapabilities::builder()
            .enable_completions()
            .enable_prompts()
            .enable_tools()
            .enable_resources()
            .enable_skills()
            .build()
    }

    #[test]
    fn a_known_method_with_bad_params_is_invalid_params_with_the_reason() {
        let error = answer(
            &request("tools/call", json!({"arguments": {}})),
            &everything(),
        );
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            error.message,
            "Invalid params for tools/call: missing field `name`"
        );
        let error = answer(
            &request("tools/call", json!({"name": "x", "arguments": []})),
            &everything(),
        );
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error
                .message
                .starts_with("Invalid params for tools/call: invalid type"),
            "{}",
            error.message
        );
        let error = answer(&request("skills/get", json!({"url": "x"})), &everything());
        assert_eq!(
            error.message,
            "Invalid params for skills/get: missing field `uri`"
        );
        let error = answer(&request("prompts/get", json!({})), &everything());
        assert_eq!(
            error.message,
            "Invalid params for prompts/get: missing field `name`"
        );
    }

    #[test]
    fn an_unknown_method_is_method_not_found() {
        let error = answer(&request("bogus/method", json!({})), &everything());
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
        assert_eq!(error.message, "Method not found: bogus/method");
        // Well-formed, but not a method of the session's protocol version.
        let error = answer(
            &request("resources/subscribe", json!({"uri": "board://x"})),
            &everything(),
        );
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
    }

    #[test]
    fn a_method_of_an_undeclared_capability_is_method_not_found_whatever_its_params() {
        let tools_only = ServerCapabilities::builder().enable_tools().build();
        for method in [
            "resources/read",
            "skills/get",
            "prompts/get",
            "completion/complete",
        ] {
            let error = answer(&request(method, json!({"nope": []})), &tools_only);
            assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND, "{method}");
        }
    }
}
