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
    PaginatedRequestParams, ReadResourceRequestParams,
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
/// server does not know, or whose params fit (a method the negotiated
/// protocol version does not have, such as `initialize` in stateless mode).
/// `resources/subscribe` is left out: protocol 2026-07-28 removed it, and a
/// stateless client must get "method not found" for it whatever its params.
fn reason(method: &str, params: Option<&Value>) -> Option<String> {
    match method {
        "tools/call" => misfit::<CallToolRequestParams>(params),
        "resources/read" => misfit::<ReadResourceRequestParams>(params),
        "prompts/get" => misfit::<GetPromptRequestParams>(params),
        "completion/complete" => misfit::<CompleteRequestParams>(params),
        "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list" => {
            misfit::<Option<PaginatedRequestParams>>(params)
        }
        _ => None,
    }
}

/// The error for a request rmcp could not type: invalid params for a known
/// method whose params do not fit, method not found otherwise.
pub(crate) fn answer(request: &CustomRequest) -> ErrorData {
    let method = clip(&request.method);
    match reason(&request.method, request.params.as_ref()) {
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

    #[test]
    fn a_known_method_with_bad_params_is_invalid_params_with_the_reason() {
        let error = answer(&request("tools/call", json!({"arguments": {}})));
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            error.message,
            "Invalid params for tools/call: missing field `name`"
        );
        let error = answer(&request(
            "tools/call",
            json!({"name": "x", "arguments": []}),
        ));
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error
                .message
                .starts_with("Invalid params for tools/call: invalid type"),
            "{}",
            error.message
        );
    }

    #[test]
    fn an_unknown_method_is_method_not_found() {
        let error = answer(&request("bogus/method", json!({})));
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
        assert_eq!(error.message, "Method not found: bogus/method");
        // Well-formed, but not a method of the session's protocol version.
        let error = answer(&request("resources/subscribe", json!({"uri": "board://x"})));
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
    }
}
