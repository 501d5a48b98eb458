// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A toolset's skill: the long form of its instructions, served through
//! the Skills extension (SEP-2640, `io.modelcontextprotocol/skills`) as one
//! file, `skill://{name}/SKILL.md`. The instructions stay short and point
//! to it; a client without the extension reads the same file as an
//! ordinary resource.
//!
//! The text is a section of the toolset's docs page, cut out at compile
//! time ([`docs_section`]): the page a person reads and the skill an agent
//! loads are the same bytes, so they cannot drift apart.

use rmcp::model::{
    ReadResourceResult, Resource, ResourceContents, SkillFrontmatter, SkillResource, SkillResources,
};

/// The MIME type of a `SKILL.md`.
const MARKDOWN: &str = "text/markdown";

/// The line that opens a skill's section of a docs page.
pub(crate) const SECTION_BEGIN: &str = "<!-- skill:begin -->\n";

/// The line that closes it.
pub(crate) const SECTION_END: &str = "<!-- skill:end -->";

/// A toolset's skill, declared in its folder (`Toolset::skill`).
#[derive(Debug)]
pub(crate) struct Skill {
    /// Its name: lowercase ASCII letters and digits, words joined by single
    /// hyphens, at most 64 characters (the Agent Skills rules, which the
    /// registry's tests check); the last segment of its URI.
    pub(crate) name: &'static str,
    /// What it teaches and when to load it, one line: hosts show it before
    /// they load the skill (its frontmatter's `description`).
    pub(crate) description: &'static str,
    /// Its Markdown text, a section of the docs page `source`.
    pub(crate) body: &'static str,
    /// The docs page it is cut from, from the repository's root (e.g.
    /// `docs/team.md`): where a person reads it, and what the tests compare.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "read by the registry's tests, which compare each skill with this page"
        )
    )]
    pub(crate) source: &'static str,
}

impl Skill {
    /// `skill://{name}/SKILL.md`.
    pub(crate) fn uri(&self) -> String {
        format!("skill://{}/SKILL.md", self.name)
    }

    /// Its `SKILL.md`: YAML frontmatter (the description double-quoted as a
    /// JSON string, which YAML reads as the same string whatever it holds),
    /// then the body.
    pub(crate) fn file(&self) -> String {
        let description = serde_json::Value::from(self.description);
        format!(
            "---\nname: {}\ndescription: {description}\n---\n\n{}",
            self.name, self.body
        )
    }

    /// Its frontmatter, as `skills/list` carries it: the same fields, with
    /// the same values, as the file's.
    pub(crate) fn frontmatter(&self) -> SkillFrontmatter {
        SkillFrontmatter::new(self.name, self.description)
    }

    /// Its entry in `skills/list` and `skills/get`: the frontmatter and the
    /// manifest of its one file, with that file's digest and size.
    pub(crate) fn entry(&self) -> rmcp::model::Skill {
        let uri = self.uri();
        let file = SkillResource::from_bytes(uri.clone(), self.file().as_bytes());
        rmcp::model::Skill::new(uri, self.frontmatter(), SkillResources::Files(vec![file]))
    }

    /// Its file as `resources/list` shows it, to every client.
    pub(crate) fn resource(&self) -> Resource {
        Resource::new(self.uri(), self.name)
            .with_title(format!("Skill {}", self.name))
            .with_description(self.description)
            .with_mime_type(MARKDOWN)
    }

    /// Its file as `resources/read` answers it.
    pub(crate) fn read(&self) -> ReadResourceResult {
        ReadResourceResult::new(vec![
            ResourceContents::text(self.file(), self.uri()).with_mime_type(MARKDOWN),
        ])
    }
}

/// The text between [`SECTION_BEGIN`] and [`SECTION_END`] in `page`, the
/// first such section. Run in a `const`, a page without one does not
/// compile: a skill always has its docs.
pub(crate) const fn docs_section(page: &'static str) -> &'static str {
    let bytes = page.as_bytes();
    let Some(begin) = find(bytes, SECTION_BEGIN.as_bytes(), 0) else {
        panic!("the docs page has no `<!-- skill:begin -->` line");
    };
    let start = begin + SECTION_BEGIN.len();
    let Some(end) = find(bytes, SECTION_END.as_bytes(), start) else {
        panic!("the docs page's skill section has no `<!-- skill:end -->` line");
    };
    let (before_end, _) = bytes.split_at(end);
    let (_, section) = before_end.split_at(start);
    match std::str::from_utf8(section) {
        Ok(section) => section,
        // Cut at ASCII markers out of a `str`: always UTF-8.
        Err(_) => panic!("a skill section is not UTF-8"),
    }
}

/// Where `needle` first occurs in `haystack` at or after `from`.
const fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while at + needle.len() <= haystack.len() {
        let mut matched = 0;
        while matched < needle.len() && haystack[at + matched] == needle[matched] {
            matched += 1;
        }
        if matched == needle.len() {
            return Some(at);
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use rmcp::model::{ResourceContents, validate_skills};

    use super::*;

    const PAGE: &str = "# A page\n\nProse.\n\n<!-- skill:begin -->\nUse `tool` first.\n\n- then this\n<!-- skill:end -->\n\nMore prose.\n";

    static EXAMPLE: Skill = Skill {
        name: "an-example",
        description: "How to use \"tool\": first, then: this # not a comment",
        body: docs_section(PAGE),
        source: "docs/example.md",
    };

    #[test]
    fn the_section_is_the_text_between_the_markers() {
        assert_eq!(EXAMPLE.body, "Use `tool` first.\n\n- then this\n");
        assert_eq!(find(b"abcabc", b"bc", 2), Some(4));
        assert_eq!(find(b"abc", b"abcd", 0), None);
        assert_eq!(find(b"", b"", 0), Some(0));
    }

    #[test]
    fn the_file_is_frontmatter_then_the_body() {
        assert_eq!(
            EXAMPLE.file(),
            "---\nname: an-example\ndescription: \"How to use \\\"tool\\\": first, then: this # not a comment\"\n---\n\nUse `tool` first.\n\n- then this\n"
        );
    }

    #[test]
    fn the_entry_lists_the_file_with_its_digest_and_size() {
        let entry = EXAMPLE.entry();
        assert_eq!(entry.uri, "skill://an-example/SKILL.md");
        assert_eq!(entry.frontmatter.name, "an-example");
        assert_eq!(entry.frontmatter.description, EXAMPLE.description);
        let SkillResources::Files(files) = &entry.resources else {
            panic!("a static skill lists its files");
        };
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].uri, entry.uri);
        files[0].verify(EXAMPLE.file().as_bytes()).unwrap();
        validate_skills(&[entry]).unwrap();
    }

    #[test]
    fn the_resource_reads_as_the_file() {
        let resource = EXAMPLE.resource();
        assert_eq!(resource.uri, EXAMPLE.uri());
        assert_eq!(resource.mime_type.as_deref(), Some(MARKDOWN));
        let read = EXAMPLE.read();
        let [ResourceContents::TextResourceContents { text, uri, .. }] = &read.contents[..] else {
            panic!("one text: {read:?}");
        };
        assert_eq!(uri, &EXAMPLE.uri());
        assert_eq!(text, &EXAMPLE.file());
    }
}
