// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Diagnostics of the parser and the validator: a code, a message and an
//! optional line (0-based inside, 1-based in every output).

use serde::Serialize;

/// `MISSING_FORMAT_HEADER`
pub(crate) const MISSING_FORMAT_HEADER: &str = "MISSING_FORMAT_HEADER";
/// `INVALID_STATUS_SYMBOL`
pub(crate) const INVALID_STATUS_SYMBOL: &str = "INVALID_STATUS_SYMBOL";
/// `MISSING_TASK_ID`
pub(crate) const MISSING_TASK_ID: &str = "MISSING_TASK_ID";
/// `INVALID_TASK_ID`
pub(crate) const INVALID_TASK_ID: &str = "INVALID_TASK_ID";
/// `MALFORMED_TASK_LINE`
pub(crate) const MALFORMED_TASK_LINE: &str = "MALFORMED_TASK_LINE";
/// `DUPLICATE_TASK_ID`
pub(crate) const DUPLICATE_TASK_ID: &str = "DUPLICATE_TASK_ID";
/// `NO_TASKS` (a warning)
pub(crate) const NO_TASKS: &str = "NO_TASKS";

/// One finding about a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// One of the codes above.
    pub(crate) code: &'static str,
    /// What is wrong, in the reference's words.
    pub(crate) message: String,
    /// The 0-based line, if the finding has one.
    pub(crate) line: Option<usize>,
}

impl Diagnostic {
    /// A diagnostic.
    pub(crate) fn new(code: &'static str, message: impl Into<String>, line: Option<usize>) -> Self {
        Self {
            code,
            message: message.into(),
            line,
        }
    }

    /// The missing-header error.
    pub(crate) fn missing_header() -> Self {
        Self::new(
            MISSING_FORMAT_HEADER,
            format!(
                "Missing required header: {}",
                crate::toolsets::plans::syntax::text::FORMAT_HEADER
            ),
            None,
        )
    }

    /// The no-tasks warning.
    pub(crate) fn no_tasks() -> Self {
        Self::new(NO_TASKS, "No tasks found in document.", None)
    }

    /// `CODE@line: message` (or `CODE: message`), as requireParsedPlan joins them.
    pub(crate) fn short(&self) -> String {
        match self.line {
            Some(line) => format!("{}@{}: {}", self.code, line + 1, self.message),
            None => format!("{}: {}", self.code, self.message),
        }
    }

    /// The output shape, with a 1-based line.
    pub(crate) fn output(&self) -> DiagnosticOut {
        DiagnosticOut {
            code: self.code,
            message: self.message.clone(),
            line: self.line.map(|line| line + 1),
        }
    }
}

/// A diagnostic as written in JSON: `{code, message, line?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct DiagnosticOut {
    /// The code.
    pub(crate) code: &'static str,
    /// The message.
    pub(crate) message: String,
    /// The 1-based line; absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) line: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_form_and_output_are_one_based() {
        let d = Diagnostic::new(DUPLICATE_TASK_ID, "Duplicate task id: t_d", Some(5));
        assert_eq!(d.short(), "DUPLICATE_TASK_ID@6: Duplicate task id: t_d");
        assert_eq!(d.output().line, Some(6));
        assert_eq!(
            Diagnostic::missing_header().short(),
            "MISSING_FORMAT_HEADER: Missing required header: <!-- long-term-plan:format=v1 -->"
        );
        assert_eq!(
            serde_json::to_string(&Diagnostic::no_tasks().output()).unwrap(),
            r#"{"code":"NO_TASKS","message":"No tasks found in document."}"#
        );
    }
}
