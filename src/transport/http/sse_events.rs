// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `event: message` on every event of the MCP endpoint's event streams.
//!
//! An SSE event without an `event:` line has the type `message` (WHATWG
//! HTML, "dispatch the event"), and rmcp writes none. Some clients only
//! take events that name their type: PyPI `mcp-cli` 0.20 (the chuk stack)
//! drops every unnamed event, so each of its HTTP calls waits for a reply
//! that never comes. rmcp has no option for the line, so the response body
//! gets it here, one line before the first field of each event, and is
//! otherwise passed on byte for byte: rmcp's framing (its `id:` lines for
//! resumption, `retry:`, the priming event, keep-alive comments) stays as
//! it is, and a client that reads the type the spec's way sees no change.
//! Should rmcp ever name an event itself, its own line comes after ours
//! and wins, since the last `event:` field of an event sets its type.

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::Response;
use http_body_util::BodyExt;

/// The line each event starts with.
const EVENT_LINE: &[u8] = b"event: message\n";

/// `response` with every event of its body named `message`, if it is an
/// event stream; any other response as it is.
pub(crate) fn name_events(response: Response) -> Response {
    if !is_event_stream(&response) {
        return response;
    }
    response.map(|body| {
        let mut namer = EventNamer::default();
        Body::new(body.map_frame(move |frame| frame.map_data(|data| namer.name(data))))
    })
}

/// Whether `response` is `text/event-stream`.
fn is_event_stream(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("text/event-stream"))
}

/// Where the stream stands between two chunks, so that an event or a line
/// split across chunks is still named exactly once.
#[derive(Debug, Clone, Copy)]
struct EventNamer {
    /// The next byte starts a line.
    line_start: bool,
    /// The last byte was a `\r`, whose `\n` (if it comes) ends no line of its own.
    after_cr: bool,
    /// A field of the current event has been passed on (and the event named).
    in_event: bool,
}

impl Default for EventNamer {
    fn default() -> Self {
        Self {
            line_start: true,
            after_cr: false,
            in_event: false,
        }
    }
}

impl EventNamer {
    /// `chunk` with [`EVENT_LINE`] before the first field line of each event
    /// that starts in it. Lines end with `\n`, `\r\n` or `\r`; an empty line
    /// ends an event; a line starting with `:` is a comment (rmcp's
    /// keep-alive) and starts none.
    fn name(&mut self, chunk: Bytes) -> Bytes {
        let mut named: Option<Vec<u8>> = None;
        for (index, &byte) in chunk.iter().enumerate() {
            let crlf = self.after_cr && byte == b'\n';
            self.after_cr = byte == b'\r';
            if crlf {
                // The `\n` of a `\r\n`: the line ended at the `\r`.
                if let Some(out) = named.as_mut() {
                    out.push(byte);
                }
                continue;
            }
            let line_end = byte == b'\n' || byte == b'\r';
            if self.line_start {
                if line_end {
                    self.in_event = false;
                } else if byte != b':' && !self.in_event {
                    self.in_event = true;
                    let out = named.get_or_insert_with(|| {
                        let mut out = Vec::with_capacity(chunk.len() + EVENT_LINE.len());
                        out.extend_from_slice(&chunk[..index]);
                        out
                    });
                    out.extend_from_slice(EVENT_LINE);
                }
            }
            self.line_start = line_end;
            if let Some(out) = named.as_mut() {
                out.push(byte);
            }
        }
        match named {
            Some(out) => Bytes::from(out),
            None => chunk,
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;

    use super::*;

    /// `chunks` through one namer, joined.
    fn named(chunks: &[&str]) -> String {
        let mut namer = EventNamer::default();
        let out: Vec<u8> = chunks
            .iter()
            .flat_map(|chunk| {
                namer
                    .name(Bytes::copy_from_slice(chunk.as_bytes()))
                    .to_vec()
            })
            .collect();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_event_is_named_once_and_nothing_else_changes() {
        // rmcp's frames: the priming event, a message with its ID, a keep-alive.
        let stream = [
            "data: \nid: 0\nretry: 3000\n\n",
            "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\nid: 1\n\n",
            ":\n\n",
            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\"}\n\n",
        ];
        assert_eq!(
            named(&stream),
            "event: message\ndata: \nid: 0\nretry: 3000\n\n\
             event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\nid: 1\n\n\
             :\n\n\
             event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\"}\n\n"
        );
    }

    #[test]
    fn events_and_lines_split_across_chunks_are_named_once() {
        let whole = "data: {\"a\":1}\nid: 7\n\n:\n\ndata: {\"b\":2}\n\n";
        let expected = named(&[whole]);
        assert_eq!(expected.matches("event: message\n").count(), 2);
        for at in 0..=whole.len() {
            let (first, second) = whole.split_at(at);
            assert_eq!(named(&[first, second]), expected, "split at {at}");
        }
        let bytes: Vec<String> = whole.chars().map(String::from).collect();
        let singles: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(named(&singles), expected);
    }

    #[test]
    fn crlf_and_cr_line_ends_are_kept_and_end_events() {
        assert_eq!(
            named(&["data: 1\r\n\r\ndata: 2\r\rdata: 3\n\n"]),
            "event: message\ndata: 1\r\n\r\nevent: message\ndata: 2\r\revent: message\ndata: 3\n\n"
        );
        // A \r at the end of one chunk and its \n at the start of the next.
        assert_eq!(
            named(&["data: 1\r", "\n\r", "\ndata: 2\n\n"]),
            "event: message\ndata: 1\r\n\r\nevent: message\ndata: 2\n\n"
        );
    }

    #[test]
    fn a_chunk_without_an_event_start_is_passed_on_as_it_is() {
        let mut namer = EventNamer::default();
        let keep_alive = Bytes::from_static(b":\n\n");
        let out = namer.name(keep_alive.clone());
        assert_eq!(out.as_ptr(), keep_alive.as_ptr(), "not copied");
        assert_eq!(namer.name(Bytes::new()), Bytes::new());
    }

    #[tokio::test]
    async fn only_event_streams_are_named() {
        let stream = Response::builder()
            .status(StatusCode::OK)
            .header(header::CONTENT_TYPE, "text/event-stream")
            .body(Body::from("data: {}\n\n"))
            .unwrap();
        let body = name_events(stream).into_body().collect().await.unwrap();
        assert_eq!(body.to_bytes(), "event: message\ndata: {}\n\n");

        let json = Response::builder()
            .status(StatusCode::OK)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from("data: {}\n\n"))
            .unwrap();
        let body = name_events(json).into_body().collect().await.unwrap();
        assert_eq!(body.to_bytes(), "data: {}\n\n");
    }
}
