// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! MCP's stdio framing, one JSON-RPC message per line, with an answer for
//! every line that is not one. rmcp's own stdio transport drops a line it
//! cannot parse without a word, so a client waits for its own timeout;
//! here, as JSON-RPC 2.0 asks, a line that is not JSON (truncated, invalid
//! UTF-8 or escapes, nested too deeply, longer than [`MAX_LINE`]) gets a
//! parse error (-32700) with `id: null`, JSON that is not a message gets an
//! invalid-request error (-32600, with the request's id when it has one),
//! and reading goes on.

use std::pin::Pin;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{CallToolRequest, JsonRpcMessage, JsonRpcRequest, JsonRpcVersion2_0, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde::Deserialize;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The longest line read, as rmcp's limit: a longer one is answered with a
/// parse error and skipped, never buffered whole.
pub(crate) const MAX_LINE: usize = 16 * 1024 * 1024;

/// A pending write of one answer, kept across cancelled receives.
type Answer = Pin<Box<dyn Future<Output = std::io::Result<()>> + Send>>;

/// The transport over a reader and a writer (stdin and stdout).
pub struct Lines<R, W> {
    read: BufReader<R>,
    /// The line read so far (a receive may be cancelled midway).
    line: Vec<u8>,
    /// Skipping the rest of a line that was too long.
    skipping: bool,
    write: Arc<Mutex<W>>,
    answer: Option<Answer>,
}

/// What one line holds.
enum Line {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Nothing to do (a blank line, a notification nobody handles).
    Nothing,
    /// An error to send back.
    Answer(String),
}

impl<R, W> Lines<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// Reads messages from `read`, writes them to `write`.
    pub fn new(read: R, write: W) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            skipping: false,
            write: Arc::new(Mutex::new(write)),
            answer: None,
        }
    }

    /// Writes one line, whole, between other messages.
    fn write_line(&self, mut text: Vec<u8>) -> impl Future<Output = std::io::Result<()>> + 'static {
        let write = self.write.clone();
        text.push(b'\n');
        async move {
            let mut write = write.lock().await;
            write.write_all(&text).await?;
            write.flush().await
        }
    }

    /// Reads up to the end of the next line into `self.line`: `Ok(false)`
    /// at the end of the input, `Err(())` when the line is too long (the
    /// rest of it is skipped on later reads).
    async fn read_line(&mut self) -> std::io::Result<Result<bool, ()>> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(Ok(false));
            }
            let end = memchr::memchr(b'\n', available);
            let take = end.map_or(available.len(), |at| at + 1);
            let too_long = !self.skipping && self.line.len() + take > MAX_LINE;
            if !self.skipping && !too_long {
                self.line.extend_from_slice(&available[..take]);
            }
            self.read.consume(take);
            if too_long {
                self.line.clear();
                self.skipping = end.is_none();
                return Ok(Err(()));
            }
            if end.is_some() {
                if std::mem::take(&mut self.skipping) {
                    continue;
                }
                return Ok(Ok(true));
            }
        }
    }
}

/// What `line` (without its newline) holds.
fn parse(line: &[u8]) -> Line {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Nothing;
    }
    if let Some(call) = tool_call(line) {
        return Line::Message(Box::new(call));
    }
    let error = match serde_json::from_slice(line) {
        Ok(message) => return Line::Message(Box::new(message)),
        Err(error) => error,
    };
    // Not a message: say why, unless it is a notification (never answered).
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(error) => {
            return Line::Answer(error_line(-32700, &format!("Parse error: {error}"), None));
        }
    };
    if value.get("method").is_some() && value.get("id").is_none() {
        return Line::Nothing;
    }
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_number());
    Line::Answer(error_line(
        -32600,
        &format!("Invalid request: {error}"),
        id.cloned(),
    ))
}

/// A `tools/call` request, the message of almost every line, read
/// straight into its variant: rmcp's reading of a message buffers it whole,
/// checks its shape and then tries each kind of client request in turn,
/// 13 failures with their error messages before `tools/call`, a third of
/// the CPU time of a small call. `None` when the line is anything else, or
/// a `tools/call` that does not read (then the general reading answers it,
/// as before). What it returns is what the general reading returns for the
/// same line (`a_tool_call_reads_as_rmcp_reads_it`): the same derived code
/// reads the same fields, only without the detours.
fn tool_call(line: &[u8]) -> Option<RxJsonRpcMessage<RoleServer>> {
    /// A request with a `result` or `error` member is not a request to
    /// rmcp (its shape check): those two are only noted, whatever they hold.
    fn present<'de, D: serde::Deserializer<'de>>(value: D) -> Result<bool, D::Error> {
        serde::de::IgnoredAny::deserialize(value).map(|_| true)
    }
    #[derive(Deserialize)]
    struct ToolCall {
        jsonrpc: JsonRpcVersion2_0,
        id: RequestId,
        #[serde(flatten)]
        request: CallToolRequest,
        #[serde(default, deserialize_with = "present")]
        result: bool,
        #[serde(default, deserialize_with = "present")]
        error: bool,
    }
    let call: ToolCall = serde_json::from_slice(line).ok()?;
    if call.result || call.error {
        return None;
    }
    Some(JsonRpcMessage::Request(JsonRpcRequest {
        jsonrpc: call.jsonrpc,
        id: call.id,
        request: call.request.into(),
    }))
}

/// A JSON-RPC error response with this code, message and id (`null` if none).
fn error_line(code: i32, message: &str, id: Option<Value>) -> String {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    })
    .to_string()
}

impl<R, W> Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let text = serde_json::to_vec(&item).map_err(std::io::Error::other);
        let write = text.map(|text| self.write_line(text));
        async move { write?.await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(answer) = self.answer.as_mut() {
                let written = answer.await;
                self.answer = None;
                if let Err(error) = written {
                    tracing::debug!(%error, "cannot answer a line that is not a message");
                    return None;
                }
            }
            let line = match self.read_line().await {
                Ok(Ok(true)) => {
                    let text = std::mem::take(&mut self.line);
                    let line = parse(text.strip_suffix(b"\n").unwrap_or(&text));
                    // Keep the buffer's room for the next line.
                    self.line = text;
                    self.line.clear();
                    line
                }
                Ok(Ok(false)) => return None,
                Ok(Err(())) => Line::Answer(error_line(
                    -32700,
                    &format!("Parse error: the line is longer than {MAX_LINE} bytes"),
                    None,
                )),
                Err(error) => {
                    tracing::debug!(%error, "cannot read the input");
                    return None;
                }
            };
            match line {
                Line::Message(message) => return Some(*message),
                Line::Nothing => {}
                Line::Answer(text) => {
                    tracing::debug!(answer = %text, "answered a line that is not a message");
                    self.answer = Some(Box::pin(self.write_line(text.into_bytes())));
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Value {
        match parse(line.as_bytes()) {
            Line::Answer(text) => serde_json::from_str(&text).unwrap(),
            Line::Message(message) => panic!("a message: {message:?}"),
            Line::Nothing => panic!("nothing"),
        }
    }

    /// rmcp's own reading of `line`.
    fn general(line: &str) -> Result<RxJsonRpcMessage<RoleServer>, serde_json::Error> {
        serde_json::from_str(line)
    }

    #[test]
    fn a_tool_call_reads_as_rmcp_reads_it() {
        let calls = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_tasks","arguments":{}}}"#,
            r#"{"id":"a-7","method":"tools/call","jsonrpc":"2.0","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"update_task_statuses","arguments":{"tasks":[{"task_id":"0a1b2c3d","status":"completed"}],"n":1.5,"deep":{"a":[null,true,-3]}},"_meta":{"progressToken":"p1","agent":"ann"}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add_tasks","arguments":{"tasks":[{"title":"caf\u00e9 \"quoted\" \ud83d\ude00"}]},"requestState":"s","inputResponses":{}},"extra":{"kept":"out"}}"#,
        ];
        for line in calls {
            let fast = tool_call(line.as_bytes()).unwrap_or_else(|| panic!("not read: {line}"));
            let general = general(line).unwrap();
            assert_eq!(format!("{fast:?}"), format!("{general:?}"), "{line}");
            assert_eq!(
                serde_json::to_value(&fast).unwrap(),
                serde_json::to_value(&general).unwrap(),
                "{line}"
            );
            assert!(matches!(parse(line.as_bytes()), Line::Message(_)));
        }
    }

    /// Anything but a well-formed `tools/call` request is left to rmcp's
    /// reading, and gets the answer it got before.
    #[test]
    fn other_lines_are_left_to_the_general_reading() {
        let others = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"},"result":null}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"},"error":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":1}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"x"}}"#,
            r#"{"id":1,"method":"tools/call","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}} x"#,
        ];
        for line in others {
            assert!(tool_call(line.as_bytes()).is_none(), "{line}");
        }
        assert_eq!(answer(others[3])["error"]["code"], -32600);
    }

    #[test]
    fn lines_that_are_not_json_get_a_parse_error_with_a_null_id() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping""#,
            r#"{"jsonrpc":"2.0","id":1,"method":"\ud800"}"#,
            "\u{1}garbage",
            deep.as_str(),
        ] {
            let error = answer(line);
            assert_eq!(error["error"]["code"], -32700, "{line:.40}");
            assert_eq!(error["id"], Value::Null);
            assert!(error.as_object().unwrap().contains_key("id"));
        }
    }

    #[test]
    fn json_that_is_not_a_message_gets_an_invalid_request_error() {
        let error = answer(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":1}"#);
        assert_eq!(error["error"]["code"], -32600);
        assert_eq!(error["id"], 7);
        assert_eq!(answer("[1, 2]")["id"], Value::Null);
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","method":"notifications/unknown","params":1}"#),
            Line::Nothing
        ));
        assert!(matches!(parse(b"  \r"), Line::Nothing));
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Line::Message(_)
        ));
    }

    #[tokio::test]
    async fn reading_goes_on_after_a_bad_line_and_a_too_long_one() {
        let long = "x".repeat(MAX_LINE + 10);
        let input = format!(
            "{{\"broken\n{long}\n{}\n",
            r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#
        );
        let (output, mut read_back) = tokio::io::duplex(1 << 16);
        let mut lines = Lines::new(input.as_bytes(), output);
        let message = lines.receive().await.unwrap();
        assert!(format!("{message:?}").contains("Ping"), "{message:?}");
        drop(lines);
        let mut written = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut read_back, &mut written)
            .await
            .unwrap();
        let answers: Vec<Value> = written
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 2, "{written}");
        assert!(answers.iter().all(|a| a["error"]["code"] == -32700));
        assert!(
            answers[1]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("longer than")
        );
    }
}
