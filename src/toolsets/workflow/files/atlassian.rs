// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Expecto's links: the Atlassian URLs of `plan.md`, the ones already in
//! `atlassian/refs`, and the file-system-safe ID each is saved under.

use sha2::{Digest, Sha256};

/// Whether `c` ends a URL: `[\s<>()\[\]"'`]`.
fn ends_url(c: char) -> bool {
    c.is_whitespace() || matches!(c, '<' | '>' | '(' | ')' | '[' | ']' | '"' | '\'' | '`')
}

/// Every `https?://[^\s<>()\[\]"'`]+` in `text`, trailing `.,;:!?` trimmed.
fn all_urls(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("http") {
        let start = from + at;
        let rest = &text[start..];
        let scheme = ["https://", "http://"]
            .into_iter()
            .find(|scheme| rest.starts_with(scheme));
        let Some(scheme) = scheme else {
            from = start + "http".len();
            continue;
        };
        let len = rest[scheme.len()..]
            .find(ends_url)
            .unwrap_or(rest.len() - scheme.len());
        let end = start + scheme.len() + len;
        if len > 0 {
            let url = text[start..end].trim_end_matches(['.', ',', ';', ':', '!', '?']);
            if url.len() > scheme.len() {
                found.push(url);
            }
        }
        from = end;
    }
    found
}

/// The host of `url`: lowercase, without user information and port.
fn host(url: &str) -> String {
    let after = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = after.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = host.split(':').next().unwrap_or("");
    host.to_lowercase()
}

/// Whether `host` is an Atlassian host: `*.atlassian.net`, `*.jira.com`,
/// or one of `extra` (or a subdomain of one).
fn is_atlassian(host: &str, extra: &[String]) -> bool {
    host.ends_with(".atlassian.net")
        || host.ends_with(".jira.com")
        || extra.iter().any(|known| {
            host == known
                || host
                    .strip_suffix(known.as_str())
                    .is_some_and(|sub| sub.ends_with('.'))
        })
}

/// The Atlassian URLs of `plan`, anywhere in it, each once, first
/// occurrence first. `extra` holds lowercase host names.
pub(crate) fn urls(plan: &str, extra: &[String]) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for url in all_urls(plan) {
        if is_atlassian(&host(url), extra) && !found.iter().any(|f| f == url) {
            found.push(url.to_owned());
        }
    }
    found
}

/// The URLs of `plan` that `refs` (one URL a line) does not list yet.
pub(crate) fn new_urls(plan: &str, refs: &str, extra: &[String]) -> Vec<String> {
    let known: std::collections::HashSet<&str> = refs
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    urls(plan, extra)
        .into_iter()
        .filter(|url| !known.contains(url.as_str()))
        .collect()
}

/// A Jira key `[A-Z][A-Z0-9_]+-\d+` at the start of `text`.
fn jira_key(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let project = bytes
        .iter()
        .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || **b == b'_')
        .count();
    if project < 2 || !bytes[0].is_ascii_uppercase() || bytes.get(project) != Some(&b'-') {
        return None;
    }
    let digits = bytes[project + 1..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (digits > 0).then(|| &text[..project + 1 + digits])
}

/// The digits at the start of `text`.
fn digits(text: &str) -> Option<&str> {
    let len = text.bytes().take_while(u8::is_ascii_digit).count();
    (len > 0).then(|| &text[..len])
}

/// The first match of `parse` right after an occurrence of `marker`.
fn after<'a>(url: &'a str, marker: &str, parse: fn(&str) -> Option<&str>) -> Option<&'a str> {
    url.match_indices(marker)
        .find_map(|(at, _)| parse(&url[at + marker.len()..]))
}

/// The name `url` is saved under: `KEY-123` for a Jira issue,
/// `confluence-{id}` for a Confluence page, else `link-` and the first 8
/// hex digits of the URL's SHA-256.
pub(crate) fn safe_id(url: &str) -> String {
    if let Some(key) =
        after(url, "/browse/", jira_key).or_else(|| after(url, "selectedIssue=", jira_key))
    {
        return key.to_owned();
    }
    if let Some(id) = after(url, "/pages/", digits).or_else(|| after(url, "pageId=", digits)) {
        return format!("confluence-{id}");
    }
    let hash = hex::encode(Sha256::digest(url.as_bytes()));
    format!("link-{}", &hash[..8])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atlassian_urls_are_found_anywhere_once_and_trimmed() {
        let plan = "See https://acme.atlassian.net/browse/APP-12. And (https://acme.atlassian.net/wiki/spaces/X/pages/12345/Title)\n\
                    ```\nhttps://team.jira.com/browse/OPS-7?x=1,\n```\n\
                    <!-- http://acme.atlassian.net/browse/APP-12 -->\n\
                    https://acme.atlassian.net/browse/APP-12 again; https://github.com/acme/app\n\
                    https://user@jira.example.com:8443/browse/IN-1 https://sub.jira.example.com/x \
                    https://notjira.example.com/y https://atlassian.net/z https://ACME.Atlassian.NET/q!?";
        let extra = vec!["jira.example.com".to_owned()];
        assert_eq!(
            urls(plan, &extra),
            [
                "https://acme.atlassian.net/browse/APP-12",
                "https://acme.atlassian.net/wiki/spaces/X/pages/12345/Title",
                "https://team.jira.com/browse/OPS-7?x=1",
                "http://acme.atlassian.net/browse/APP-12",
                "https://user@jira.example.com:8443/browse/IN-1",
                "https://sub.jira.example.com/x",
                "https://ACME.Atlassian.NET/q",
            ]
        );
        assert_eq!(urls(plan, &[]).len(), 5);
        assert!(urls("https:// http://", &[]).is_empty());
        assert!(urls("httpx httpsx://a.atlassian.net", &[]).is_empty());
    }

    #[test]
    fn refs_filter_known_urls() {
        let plan = "https://a.atlassian.net/browse/A-1 https://a.atlassian.net/browse/A-2";
        let refs = "  https://a.atlassian.net/browse/A-1  \n\n";
        assert_eq!(
            new_urls(plan, refs, &[]),
            ["https://a.atlassian.net/browse/A-2"]
        );
        assert!(
            new_urls(
                plan,
                "https://a.atlassian.net/browse/A-1\nhttps://a.atlassian.net/browse/A-2",
                &[]
            )
            .is_empty()
        );
    }

    #[test]
    fn safe_ids_name_issues_pages_or_a_hash() {
        assert_eq!(
            safe_id("https://a.atlassian.net/browse/APP_2-123?focused=1"),
            "APP_2-123"
        );
        assert_eq!(
            safe_id(
                "https://a.atlassian.net/jira/software/projects/APP/boards/1?selectedIssue=APP-9"
            ),
            "APP-9"
        );
        assert_eq!(
            safe_id("https://a.atlassian.net/wiki/spaces/S/pages/98765/T"),
            "confluence-98765"
        );
        assert_eq!(
            safe_id("https://a.atlassian.net/wiki/pages/viewpage.action?pageId=42"),
            "confluence-42"
        );
        assert_eq!(
            safe_id("https://a.atlassian.net/browse/a-1"),
            safe_id("https://a.atlassian.net/browse/a-1")
        );
        let hashed = safe_id("https://a.atlassian.net/browse/a-1");
        assert!(
            hashed.starts_with("link-") && hashed.len() == 13,
            "{hashed}"
        );
        assert!(safe_id("https://a.atlassian.net/browse/A-x").starts_with("link-"));
    }
}
