// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Tests over the whole registry, the way ripgrep tests its flag set: every
//! toolset's name, tables, flags, tools and instructions against all the
//! others'. Each check takes a registry and runs on the server's and on the
//! server's with the scratch toolset added by one line, which shows that a
//! sixth toolset needs its folder and that line, nothing else.

// figment's Jail closures return figment::Error, which is large; fine in tests.
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};

use figment::Jail;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::json;

use super::{REGISTRY, scratch};
use crate::config::{
    self, ConfigError, ConfigFlags, FILE_NAME, Loaded, SERVER_FLAGS, SERVER_TABLES, known_tables,
    tiers_with,
};
use crate::server::enabled::INSTRUCTIONS_LIMIT;
use crate::server::toolset::ToolsetKind;
use crate::server::{BoardName, Registry, SessionServer};

/// What stands between two toolsets' instructions.
const SEPARATOR: &str = crate::server::enabled::INSTRUCTIONS_SEPARATOR;

/// The server's registry, then the scratch toolset: the one line a sixth
/// toolset adds to `REGISTRY`.
fn with_scratch() -> Vec<&'static dyn ToolsetKind> {
    REGISTRY.kinds().chain([&scratch::KIND as _]).collect()
}

/// Runs `check` on the server's registry and on the one with the scratch toolset.
fn on_both(check: fn(Registry<'_>)) {
    check(REGISTRY);
    check(Registry::new(&with_scratch()));
}

/// `--toolsets` naming every toolset of `registry`, as flags.
fn all_of(registry: Registry<'_>) -> ConfigFlags {
    let names: Vec<&str> = registry.names().collect();
    ConfigFlags::parse_with(registry, &["--toolsets", &names.join(",")]).unwrap()
}

/// The configuration with every toolset of `registry` on, each listing all
/// the tools it can (plans' legacy doc tools too), read in a jail.
fn everything(jail: &mut Jail, registry: Registry<'_>) -> Loaded {
    jail.set_env("HOME", jail.directory().join("home").display());
    jail.set_env("PLANNING_PLANS_LEGACY_DOC_TOOLS", "true");
    config::load_with(registry, &all_of(registry)).unwrap()
}

/// The lines of an invalid configuration.
fn invalid(result: Result<Loaded, ConfigError>) -> String {
    match result {
        Err(ConfigError::Invalid(lines)) => lines.join("\n"),
        other => panic!("expected an invalid configuration, got {other:?}"),
    }
}

/// Whether `name` is lowercase ASCII letters and digits, words joined by
/// single `_` (or `-` where `dash` allows it), starting with a letter.
fn is_plain_name(name: &str, dash: bool) -> bool {
    let joins = |c: char| c == '_' || (dash && c == '-');
    let mut words = name.split(joins);
    let first_is_letter = name.starts_with(|c: char| c.is_ascii_lowercase());
    first_is_letter
        && words.all(|word| {
            !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

#[test]
fn toolset_names_are_unique_plain_and_come_after_what_they_require() {
    on_both(|registry| {
        let mut seen = BTreeSet::new();
        for kind in registry.kinds() {
            let name = kind.name();
            assert!(is_plain_name(name, true), "toolset name {name:?}");
            for required in kind.requires() {
                assert!(
                    seen.contains(required),
                    "{name} requires {required}, which must come earlier in the registry"
                );
            }
            assert!(seen.insert(name), "two toolsets named {name}");
            assert!(
                !kind.about().trim().is_empty(),
                "{name} says what it offers"
            );
        }
    });
}

#[test]
fn tables_are_unique_and_each_reachable_from_the_environment() {
    on_both(|registry| {
        let known = known_tables(registry);
        let unique: BTreeSet<_> = known.iter().collect();
        assert_eq!(unique.len(), known.len(), "a table named twice: {known:?}");
        for table in &known {
            assert!(is_plain_name(table, false), "table name {table:?}");
            for other in &known {
                assert!(
                    !other.starts_with(&format!("{table}_")),
                    "PLANNING_{}_* could set [{table}] or [{other}]: rename one",
                    other.to_ascii_uppercase()
                );
            }
        }
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            for table in &known {
                let variable = format!("PLANNING_{}_PROBE_KEY", table.to_ascii_uppercase());
                jail.set_env(variable, table);
            }
            let (figment, _) = tiers_with(registry, &ConfigFlags::default()).unwrap();
            for table in &known {
                let value = figment.find_value(&format!("{table}.probe_key"));
                assert_eq!(
                    value.ok().and_then(|v| v.into_string()).as_deref(),
                    Some(*table),
                    "PLANNING_{}_PROBE_KEY sets {table}.probe_key",
                    table.to_ascii_uppercase()
                );
            }
            Ok(())
        });
    });
}

#[test]
fn flags_are_unique_set_their_owners_tables_and_parse() {
    on_both(|registry| {
        let all = ConfigFlags::all_of(registry);
        let longs: BTreeSet<_> = all.iter().map(|flag| flag.long).collect();
        let keys: BTreeSet<_> = all.iter().map(|flag| flag.key).collect();
        assert_eq!(longs.len(), all.len(), "a flag named twice");
        assert_eq!(keys.len(), all.len(), "a key set by two flags");
        for taken in [
            "config",
            "help",
            "version",
            "generate-config",
            "list-toolsets",
        ] {
            assert!(!longs.contains(taken), "--{taken} is the binary's own");
        }
        let owners = std::iter::once((&SERVER_TABLES[..], SERVER_FLAGS));
        let owners = owners.chain(registry.kinds().map(|kind| (kind.tables(), kind.flags())));
        for (tables, flags) in owners {
            for flag in flags {
                let table = flag.key.split_once('.').map(|(table, _)| table);
                assert!(
                    table.is_some_and(|table| tables.contains(&table)),
                    "--{} sets {}, a table its owner does not have",
                    flag.long,
                    flag.key
                );
            }
        }
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            for flag in &all {
                let value = match flag.kind {
                    crate::server::settings::FlagKind::Choice(values) => values[0],
                    crate::server::settings::FlagKind::Number => "1",
                    _ => "x",
                };
                let given = format!("--{}", flag.long);
                let flags = ConfigFlags::parse_with(registry, &[&given, value]).unwrap();
                let (figment, _) = tiers_with(registry, &flags).unwrap();
                assert!(
                    figment.find_value(flag.key).is_ok(),
                    "{given} sets {}",
                    flag.key
                );
            }
            Ok(())
        });
    });
}

#[test]
fn tool_names_are_unique_across_every_toolset() {
    on_both(|registry| {
        Jail::expect_with(|jail| {
            let config = everything(jail, registry).config;
            let board = BoardName::default_board();
            let mut owner: BTreeMap<String, &str> = BTreeMap::new();
            for toolset in config.toolsets.iter() {
                let tools = toolset.open(&board).unwrap().tools();
                assert!(
                    !tools.is_empty(),
                    "toolset {} lists no tool",
                    toolset.name()
                );
                for tool in tools {
                    let name = tool.name.to_string();
                    if let Some(first) = owner.insert(name.clone(), toolset.name()) {
                        panic!("tool {name} is both {first}'s and {}'s", toolset.name());
                    }
                }
            }
            let endpoint = config.toolsets.open(&board).unwrap();
            assert_eq!(endpoint.tool_list().len(), owner.len());
            Ok(())
        });
    });
}

#[test]
fn instructions_fit_their_budgets_and_every_budget_fits_the_limit() {
    on_both(|registry| {
        Jail::expect_with(|jail| {
            let config = everything(jail, registry).config;
            let mut budgets = 0;
            for (kind, toolset) in registry.kinds().zip(config.toolsets.iter()) {
                assert_eq!(kind.name(), toolset.name(), "registry order");
                let length = toolset.instructions().chars().count();
                let budget = kind.instructions_budget();
                assert!(length > 0, "{} has instructions", kind.name());
                assert!(
                    length <= budget,
                    "{}'s instructions take {length} characters, over its budget of {budget}",
                    kind.name()
                );
                budgets += budget;
            }
            let separators = SEPARATOR.chars().count() * (config.toolsets.iter().count() - 1);
            assert!(
                budgets + separators <= INSTRUCTIONS_LIMIT,
                "the budgets take {budgets} characters, and {separators} the separators"
            );
            assert!(config.toolsets.instructions().chars().count() <= INSTRUCTIONS_LIMIT);
            Ok(())
        });
    });
}

/// Every name a toolset's tools give a model: the tools', their
/// parameters' (nested too) and the values their enums allow.
fn tool_vocabulary(tools: &[rmcp::model::Tool]) -> BTreeSet<String> {
    fn walk(value: &serde_json::Value, words: &mut BTreeSet<String>) {
        match value {
            serde_json::Value::Object(object) => {
                if let Some(serde_json::Value::Object(properties)) = object.get("properties") {
                    words.extend(properties.keys().cloned());
                }
                if let Some(serde_json::Value::Array(values)) = object.get("enum") {
                    words.extend(values.iter().filter_map(|v| v.as_str().map(str::to_owned)));
                }
                object.values().for_each(|v| walk(v, words));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, words)),
            _ => {}
        }
    }
    let mut words = BTreeSet::new();
    for tool in tools {
        words.insert(tool.name.to_string());
        walk(
            &serde_json::Value::Object((*tool.input_schema).clone()),
            &mut words,
        );
    }
    words
}

/// The `code spans` of a Markdown text.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Names a skill quotes that are not its tools' (file formats, reply fields).
const NOT_TOOL_WORDS: &[&str] = &[
    "task_name",
    "message_to_user",
    "instructions_to_coding_agent",
];

#[test]
fn skills_are_valid_unique_pointed_to_and_name_only_their_tools() {
    on_both(|registry| {
        Jail::expect_with(|jail| {
            let config = everything(jail, registry).config;
            let board = BoardName::default_board();
            let mut names = BTreeSet::new();
            let mut entries = Vec::new();
            let tools_of = |name: &str| {
                let toolset = config.toolsets.iter().find(|t| t.name() == name).unwrap();
                toolset.open(&board).unwrap().tools()
            };
            for (kind, toolset) in registry.kinds().zip(config.toolsets.iter()) {
                let Some(skill) = toolset.skill() else {
                    continue;
                };
                let name = toolset.name();
                assert!(is_plain_name(skill.name, true) && !skill.name.contains('_'));
                assert!(skill.name.len() <= 64, "{}", skill.name);
                assert!(names.insert(skill.name), "two skills named {}", skill.name);
                let description = skill.description;
                assert!(
                    (1..=1024).contains(&description.chars().count())
                        && !description.chars().any(char::is_control),
                    "{name}'s skill description is one line of at most 1,024 characters"
                );
                assert!(
                    toolset.instructions().contains(&skill.uri()),
                    "{name}'s instructions point to {}",
                    skill.uri()
                );
                // The instructions are the short form: the skill has more to say.
                assert!(
                    skill.body.len() > 2 * toolset.instructions().len(),
                    "{name}"
                );
                assert!(
                    skill.file().len() <= 8 * 1024,
                    "{name}'s skill is over 8 KiB"
                );

                // Its tools', and those of the toolsets it works on.
                let tools = tools_of(name);
                let required = kind.requires().iter().flat_map(|r| tools_of(r));
                let vocabulary =
                    tool_vocabulary(&tools.iter().cloned().chain(required).collect::<Vec<_>>());
                let body = skill.body.to_lowercase();
                for tool in &tools {
                    let tool = tool.name.to_lowercase();
                    let words = body.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                    assert!(
                        words.into_iter().any(|word| word == tool),
                        "{name}'s skill says nothing of its tool {tool}"
                    );
                }
                for span in code_spans(skill.body) {
                    let looks_like_a_name = span.contains('_')
                        && span.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                    assert!(
                        !looks_like_a_name
                            || vocabulary.contains(span)
                            || NOT_TOOL_WORDS.contains(&span),
                        "{name}'s skill names `{span}`, which none of its tools has"
                    );
                }
                entries.push(skill.entry());
            }
            rmcp::model::validate_skills(&entries).unwrap();
            Ok(())
        });
    });
}

#[test]
fn each_skill_is_its_docs_pages_section_as_the_page_is_now() {
    Jail::expect_with(|jail| {
        let config = everything(jail, REGISTRY).config;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut skills = 0;
        for skill in config.toolsets.iter().filter_map(|t| t.skill()) {
            let page = std::fs::read_to_string(root.join(skill.source)).unwrap();
            let section = format!(
                "{}{}{}",
                crate::server::skill::SECTION_BEGIN,
                skill.body,
                crate::server::skill::SECTION_END
            );
            assert!(
                page.contains(&section),
                "{} holds {}'s text",
                skill.source,
                skill.name
            );
            assert_eq!(page.matches(crate::server::skill::SECTION_BEGIN).count(), 1);
            skills += 1;
        }
        assert_eq!(
            skills, 4,
            "planning, team, workflow and commit have a skill"
        );
        Ok(())
    });
}

#[test]
fn the_budgets_of_every_combination_fit_the_limit() {
    on_both(|registry| {
        let kinds: Vec<&dyn ToolsetKind> = registry.kinds().collect();
        for mask in 1..(1u32 << kinds.len()) {
            let chosen: Vec<&dyn ToolsetKind> = (0..kinds.len())
                .filter(|bit| mask & (1 << bit) != 0)
                .map(|bit| kinds[bit])
                .collect();
            let budgets: usize = chosen.iter().map(|kind| kind.instructions_budget()).sum();
            let separators = SEPARATOR.chars().count() * (chosen.len() - 1);
            let names: Vec<&str> = chosen.iter().map(|kind| kind.name()).collect();
            assert!(
                budgets + separators <= INSTRUCTIONS_LIMIT,
                "{}: the budgets take {budgets} characters and the separators {separators}, \
                 over {INSTRUCTIONS_LIMIT}: shorten a toolset's instructions",
                names.join(",")
            );
        }
    });
}

#[test]
fn a_sixth_toolset_needs_only_its_folder_and_one_registry_line() {
    let kinds = with_scratch();
    let registry = Registry::new(&kinds);
    Jail::expect_with(|jail| {
        jail.set_env("HOME", jail.directory().join("home").display());
        let flags = |args: &[&str]| ConfigFlags::parse_with(registry, args).unwrap();
        let greeting = |flags: &ConfigFlags| {
            let config = config::load_with(registry, flags).unwrap().config;
            let scratch = config.toolsets.state::<scratch::Scratch>();
            scratch.map(|scratch| scratch.0.greeting.clone())
        };
        let on = flags(&["--toolsets", "planning,scratch"]);

        // Documented in the generated config, whose values are the defaults.
        let example = config::example_of(registry);
        assert!(
            example.contains("'scratch' (a test's sixth toolset)"),
            "{example}"
        );
        let own_part = scratch::EXAMPLE.trim_start_matches('\n');
        assert!(example.ends_with(own_part), "{example}");
        jail.create_file(FILE_NAME, &example)?;
        assert_eq!(greeting(&on).as_deref(), Some("Hello"));
        assert_eq!(greeting(&flags(&[])), None, "off by default");

        // Configured from the file, the environment and the flags, in that order.
        jail.create_file(FILE_NAME, "[scratch_pad]\ngreeting = 'Ahoy'\n")?;
        assert_eq!(greeting(&on).as_deref(), Some("Ahoy"));
        jail.set_env("PLANNING_SCRATCH_PAD_GREETING", "Hi");
        assert_eq!(greeting(&on).as_deref(), Some("Hi"));
        let flagged = flags(&[
            "--toolsets",
            "planning,scratch",
            "--scratch-greeting",
            "Hey",
        ]);
        assert_eq!(greeting(&flagged).as_deref(), Some("Hey"));
        jail.set_env("PLANNING_SCRATCH_PAD_GREETING", " ");
        assert_eq!(
            invalid(config::load_with(registry, &on)),
            "scratch_pad.greeting (from the environment variable \
             PLANNING_SCRATCH_PAD_GREETING): must not be blank"
        );
        jail.set_env("PLANNING_SCRATCH_PAD_GREETING", "Hi");
        let names = invalid(config::load_with(registry, &flags(&["--toolsets", "nope"])));
        assert!(names.ends_with("workflow, commit, scratch"), "{names}");

        // Listed beside the board's tools and called, through an MCP client.
        let config = config::load_with(registry, &flagged).unwrap().config;
        let endpoint = config.toolsets.open(&BoardName::default_board()).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (server_end, client_end) = tokio::io::duplex(1 << 16);
            let server = tokio::spawn(SessionServer::new(endpoint).serve(server_end));
            let client = ().serve(client_end).await.unwrap();
            let _server = server.await.unwrap().unwrap();
            let info = client.peer_info().unwrap();
            let instructions = info.instructions.clone().unwrap();
            assert!(instructions.ends_with("greets the name you give it."));
            let tools = client.list_all_tools().await.unwrap();
            let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
            assert!(names.contains(&"scratch_greet") && names.contains(&"get_tasks"));
            let call = CallToolRequestParams::new("scratch_greet")
                .with_arguments(json!({"name": "Ada"}).as_object().unwrap().clone());
            let result = client.call_tool(call).await.unwrap();
            let text = result.content[0].as_text().unwrap().text.clone();
            assert_eq!(text, "Hey, Ada.");
            client.cancel().await.unwrap();
        });
        Ok(())
    });
}

#[test]
fn a_tool_name_two_enabled_toolsets_share_stops_start_up() {
    let kinds = with_scratch();
    let registry = Registry::new(&kinds);
    Jail::expect_with(|jail| {
        jail.set_env("HOME", jail.directory().join("home").display());
        jail.set_env("PLANNING_SCRATCH_PAD_TOOL", "get_tasks");
        let flags = ConfigFlags::parse_with(registry, &["--toolsets", "planning,scratch"]);
        let config = config::load_with(registry, &flags.unwrap()).unwrap().config;
        let error = config.toolsets.open(&BoardName::default_board()).err();
        assert_eq!(
            error.map(|error| error.to_string()).as_deref(),
            Some(
                "toolsets 'planning' and 'scratch' both have a tool named 'get_tasks': a call \
                 could reach only one of them; enable one of the two"
            )
        );
        // Either alone is fine.
        for alone in ["planning", "scratch"] {
            let flags = ConfigFlags::parse_with(registry, &["--toolsets", alone]).unwrap();
            let config = config::load_with(registry, &flags).unwrap().config;
            let endpoint = config.toolsets.open(&BoardName::default_board()).unwrap();
            assert!(endpoint.tool_list().iter().any(|t| t.name == "get_tasks"));
        }
        Ok(())
    });
}
