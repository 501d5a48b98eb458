// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! HTML output: escaping, and the shell every page shares. Every piece of
//! user text goes through [`escape`]; attribute values are always quoted.

use std::borrow::Cow;
use std::fmt::Write;
use std::time::SystemTime;

use chrono::{DateTime, Utc};

use super::view::{Counts, timestamp};
use crate::toolsets::planning::domain::Status;

/// Text made safe for HTML content and for double- or single-quoted
/// attribute values: `& < > " '` become character references.
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A whole page: `title` (escaped here), stylesheet, script and icon from
/// `assets` (a relative path to `/assets/`), and `body` (already HTML).
/// Naming the icon keeps browsers from asking for `/favicon.ico`.
pub(crate) fn page(title: &str, assets: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <title>{}</title>\n\
         <link rel=\"icon\" href=\"{assets}icon.svg\" type=\"image/svg+xml\">\n\
         <link rel=\"stylesheet\" href=\"{assets}web.css\">\n\
         <script src=\"{assets}web.js\" defer></script>\n\
         </head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// A `<time>` element for an RFC 3339 timestamp (the page's script shows it
/// in the reader's time zone).
pub(crate) fn time(rfc3339: &str) -> String {
    let shown = DateTime::parse_from_rfc3339(rfc3339).map_or_else(
        |_| rfc3339.to_owned(),
        |t| {
            t.with_timezone(&Utc)
                .format("%Y-%m-%d %H:%M UTC")
                .to_string()
        },
    );
    format!(
        "<time datetime=\"{}\">{}</time>",
        escape(rfc3339),
        escape(&shown)
    )
}

/// A `<time>` element for a system time.
pub(crate) fn system_time(at: SystemTime) -> String {
    time(&timestamp(at))
}

/// A status glyph: an image with the status as its accessible name, so that
/// a status is never told by colour alone.
pub(crate) fn glyph(status: Status) -> String {
    format!(
        "<span class=\"glyph\" role=\"img\" aria-label=\"{}\">{}</span>",
        status.label(),
        status.glyph()
    )
}

/// The count of each status as a list: glyph, number, words.
pub(crate) fn counts(counts: &Counts) -> String {
    let mut out = String::from("<ul class=\"counts\">");
    // Awaiting review is counted only on a board that uses review.
    let review = (counts.get(Status::AwaitingReview) > 0).then_some(Status::AwaitingReview);
    for status in Status::ALL.into_iter().chain(review) {
        let _ = write!(
            out,
            "<li data-status=\"{}\"><span class=\"glyph\" aria-hidden=\"true\">{}</span> \
             <b>{}</b> {}</li>",
            status.as_str(),
            status.glyph(),
            counts.get(status),
            status.label()
        );
    }
    out.push_str("</ul>");
    out
}

/// The progress bar: completed out of total, as text and as a `<progress>`.
pub(crate) fn progress(id: &str, completed: usize, total: usize) -> String {
    let percent = (completed * 100).checked_div(total).unwrap_or(0);
    format!(
        "<p class=\"progress-text\"><label for=\"{id}\" id=\"{id}-text\">{completed} of {total} \
         completed</label></p>\n<progress id=\"{id}\" max=\"{}\" value=\"{completed}\">{percent}%\
         </progress>",
        total.max(1)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped() {
        assert_eq!(
            escape("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
        assert_eq!(
            escape(r#"a & "b" 'c'"#),
            "a &amp; &quot;b&quot; &#39;c&#39;"
        );
        assert!(matches!(escape("plain ✓ text"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_title_is_escaped_in_the_shell() {
        let html = page("<b>x</b>", "assets/", "");
        assert!(html.contains("<title>&lt;b&gt;x&lt;/b&gt;</title>"));
        assert!(html.contains(r#"<script src="assets/web.js" defer></script>"#));
    }

    #[test]
    fn times_show_utc_minutes() {
        assert_eq!(
            time("2026-11-23T09:25:13.120Z"),
            r#"<time datetime="2026-11-23T09:25:13.120Z">2026-11-23 09:25 UTC</time>"#
        );
    }

    #[test]
    fn progress_handles_an_empty_board() {
        let html = progress("p", 0, 0);
        assert!(html.contains(r#"max="1" value="0""#), "{html}");
        assert!(progress("p", 1, 3).contains(">33%<"));
    }
}
