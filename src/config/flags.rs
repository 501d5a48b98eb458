// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The command-line tier: `--config` and one flag per [`Flag`] of the
//! server's tables and of every registered toolset, as a figment provider
//! that holds only the flags given. A subcommand that reads only some keys
//! (`summary`) takes only their flags: [`taken`], used by
//! [`super::subcommand`].

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches, value_parser};
use figment::value::{Dict, Map, Value};
use figment::{Metadata, Profile, Provider};

use crate::server::Registry;
use crate::server::settings::{FLAGS_PROVIDER, Flag, FlagKind};
use crate::toolsets::REGISTRY;

/// The flags that form the top tier of the configuration.
#[derive(Debug, Clone, Default)]
pub struct ConfigFlags {
    /// `--config PATH`: read this file instead of searching for one.
    pub(crate) config: Option<PathBuf>,
    /// The flags given, with their values.
    given: Vec<(&'static Flag, Value)>,
}

impl ConfigFlags {
    /// Every flag that sets a key: the server's, then each toolset's.
    pub(crate) fn all() -> Vec<&'static Flag> {
        Self::all_of(REGISTRY)
    }

    /// Every flag that sets a key: the server's, then those of each
    /// toolset of `registry`.
    pub(crate) fn all_of(registry: Registry<'_>) -> Vec<&'static Flag> {
        super::server::FLAGS
            .iter()
            .chain(registry.flags())
            .collect()
    }

    /// Reads flags from `args` (no program name), as the binary would
    /// (tests).
    #[cfg(test)]
    pub(crate) fn parse(args: &[&str]) -> Result<Self, clap::Error> {
        Self::parse_with(REGISTRY, args)
    }

    /// [`Self::parse`] with the flags of `registry`'s toolsets (tests).
    #[cfg(test)]
    pub(crate) fn parse_with(registry: Registry<'_>, args: &[&str]) -> Result<Self, clap::Error> {
        let flags = Self::all_of(registry);
        let command = Command::new("flags").no_binary_name(true);
        let command = Self::augment(command, &flags, |flag| flag.help);
        Ok(Self::read(&command.try_get_matches_from(args)?, &flags))
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

    /// `command` with `--config` and the arguments of `flags`.
    pub(super) fn augment(
        command: Command,
        flags: &[&'static Flag],
        help: fn(&Flag) -> &str,
    ) -> Command {
        let config = Arg::new("config")
            .long("config")
            .value_name("PATH")
            .value_parser(value_parser!(PathBuf))
            .help("Read this config file instead of searching for one (it must exist)");
        flags.iter().fold(command.arg(config), |command, flag| {
            command.arg(argument(flag, help(flag)))
        })
    }

    /// The values of `flags` (those `command` was augmented with) in `matches`.
    pub(super) fn read(matches: &ArgMatches, flags: &[&'static Flag]) -> Self {
        let mut given = Vec::new();
        for &flag in flags {
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
        Self {
            config: matches.get_one::<PathBuf>("config").cloned(),
            given,
        }
    }
}

/// The clap argument of `flag`, described by `help`; the help names the
/// key it sets.
fn argument(flag: &'static Flag, help: &str) -> Arg {
    let arg = Arg::new(flag.long)
        .long(flag.long)
        .value_name(flag.value_name)
        .help(format!("{help} [config: {}]", flag.key));
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
        Self::augment(command, &Self::all(), |flag| flag.help)
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for ConfigFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(Self::read(matches, &Self::all()))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The flags of a subcommand that reads only the keys `reads` names
/// (`table.key`; `table.` stands for every key of the table): those of
/// [`ConfigFlags::all`] that set one (`summary --help` lists neither
/// `--port` nor `--plans-root`, and refuses them).
pub(super) fn taken(reads: &[&str]) -> Vec<&'static Flag> {
    let read = |key: &str| {
        reads.iter().any(|read| match read.strip_suffix('.') {
            Some(table) => key.split_once('.').is_some_and(|(t, _)| t == table),
            None => key == *read,
        })
    };
    ConfigFlags::all()
        .into_iter()
        .filter(|flag| read(flag.key))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD_AND_STORAGE: &[&str] = &["server.board", "storage."];

    fn parse(args: &[&str]) -> Result<ConfigFlags, clap::Error> {
        let taken = taken(BOARD_AND_STORAGE);
        let command =
            ConfigFlags::augment(Command::new("t").no_binary_name(true), &taken, |flag| {
                flag.help
            });
        Ok(ConfigFlags::read(
            &command.try_get_matches_from(args)?,
            &taken,
        ))
    }

    #[test]
    fn a_command_takes_the_flags_of_the_keys_it_reads_and_no_others() {
        let longs: Vec<&str> = taken(BOARD_AND_STORAGE)
            .iter()
            .map(|flag| flag.long)
            .collect();
        assert_eq!(longs, ["board", "storage", "storage-dir", "storage-url"]);
        let flags = parse(&["--board", "b", "--storage", "file"]).unwrap();
        let given: Vec<&str> = flags.given.iter().map(|(f, _)| f.key).collect();
        assert_eq!(given, ["server.board", "storage.backend"]);
        for other in [
            ["--port", "1"],
            ["--plans-root", "x"],
            ["--toolsets", "team"],
        ] {
            let error = parse(&other).unwrap_err();
            assert_eq!(error.kind(), clap::error::ErrorKind::UnknownArgument);
        }
    }
}
