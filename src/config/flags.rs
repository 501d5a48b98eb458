// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The command-line tier: `--config` and one flag per [`Flag`] of the
//! server's tables and of every registered toolset, as a figment provider
//! that holds only the flags given.

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches, value_parser};
use figment::value::{Dict, Map, Value};
use figment::{Metadata, Profile, Provider};

use crate::server::settings::{FLAGS_PROVIDER, Flag, FlagKind};
use crate::toolsets::REGISTRY;

/// The flags that form the top tier of the configuration.
#[derive(Debug, Clone, Default)]
pub struct ConfigFlags {
    /// `--config PATH`: read this file instead of searching for one.
    pub config: Option<PathBuf>,
    /// The flags given, with their values.
    given: Vec<(&'static Flag, Value)>,
}

impl ConfigFlags {
    /// Every flag that sets a key: the server's, then each toolset's.
    pub fn all() -> Vec<&'static Flag> {
        let toolsets = REGISTRY.iter().flat_map(|kind| kind.flags());
        super::server::FLAGS.iter().chain(toolsets).collect()
    }

    /// Reads flags from `args` (no program name), as the binary would.
    pub fn parse(args: &[&str]) -> Result<Self, clap::Error> {
        let command = Self::augment_args(Command::new("flags").no_binary_name(true));
        Self::from_arg_matches(&command.try_get_matches_from(args)?)
    }

    /// The flags given, as a figment provider.
    pub(super) fn provider(&self) -> FlagValues {
        let mut tables = Dict::new();
        for (flag, value) in &self.given {
            let (table, key) = flag.key.split_once('.').unwrap_or(("", flag.key));
            let entry = tables
                .entry(table.to_owned())
                .or_insert_with(|| Dict::new().into());
            if let Value::Dict(_, keys) = entry {
                keys.insert(key.to_owned(), value.clone());
            }
        }
        FlagValues(tables)
    }
}

/// The clap argument of `flag`; its help names the key it sets.
fn argument(flag: &'static Flag) -> Arg {
    let arg = Arg::new(flag.long)
        .long(flag.long)
        .value_name(flag.value_name)
        .help(format!("{} [config: {}]", flag.help, flag.key));
    match flag.kind {
        FlagKind::Text => arg,
        FlagKind::Number => arg
            .value_parser(value_parser!(i64))
            .allow_negative_numbers(true),
        FlagKind::Choice(values) => arg.value_parser(PossibleValuesParser::new(values)),
        FlagKind::List => arg.value_delimiter(',').action(ArgAction::Append),
    }
}

impl Args for ConfigFlags {
    fn augment_args(command: Command) -> Command {
        let config = Arg::new("config")
            .long("config")
            .value_name("PATH")
            .value_parser(value_parser!(PathBuf))
            .help("Read this config file instead of searching for one (it must exist)");
        Self::all()
            .into_iter()
            .fold(command.arg(config), |command, flag| {
                command.arg(argument(flag))
            })
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for ConfigFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for flag in Self::all() {
            let value = match flag.kind {
                FlagKind::Number => matches.get_one::<i64>(flag.long).map(|n| Value::from(*n)),
                FlagKind::List => matches
                    .get_many::<String>(flag.long)
                    .map(|items| Value::from(items.cloned().collect::<Vec<_>>())),
                FlagKind::Text | FlagKind::Choice(_) => matches
                    .get_one::<String>(flag.long)
                    .cloned()
                    .map(Value::from),
            };
            given.extend(value.map(|value| (flag, value)));
        }
        Ok(Self {
            config: matches.get_one::<PathBuf>("config").cloned(),
            given,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The flags given, as the top tier.
pub(super) struct FlagValues(Dict);

impl Provider for FlagValues {
    fn metadata(&self) -> Metadata {
        Metadata::named(FLAGS_PROVIDER)
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        Ok(Profile::Default.collect(self.0.clone()))
    }
}
