// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Reading a file that someone else may have replaced with something
//! hostile: only a regular file is read (a FIFO would block the reader, a
//! device such as `/dev/zero` would never end), it is opened without
//! blocking, and at most a given size is read.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadRefused {
    /// The system refused (missing, permission, ...).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// It is a FIFO, a device, a directory or a socket.
    #[error("it is not a regular file but {0}")]
    NotRegular(&'static str),
    /// It is larger than the limit.
    #[error("it is larger than {limit} bytes")]
    TooLarge {
        /// The most bytes read.
        limit: u64,
    },
}

impl ReadRefused {
    /// Whether the file does not exist.
    pub(crate) fn is_not_found(&self) -> bool {
        matches!(self, Self::Io(error) if error.kind() == std::io::ErrorKind::NotFound)
    }
}

/// The `O_NONBLOCK` flag for [`OpenOptionsExt::custom_flags`]: opening a
/// FIFO for reading waits for a writer unless it is set. It does not change
/// how a regular file reads.
pub(crate) fn nonblocking() -> i32 {
    rustix::fs::OFlags::NONBLOCK
        .bits()
        .try_into()
        .unwrap_or_default()
}

/// Opens `path` for reading without blocking; [`check_regular`] it next.
pub(crate) fn open(path: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .read(true)
        .custom_flags(nonblocking())
        .open(path)
}

/// Refuses anything but a regular file.
pub(crate) fn check_regular(file: &File) -> Result<(), ReadRefused> {
    let kind = file.metadata()?.file_type();
    let what = if kind.is_file() {
        return Ok(());
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "something else"
    };
    Err(ReadRefused::NotRegular(what))
}

/// Reads the whole of `file`, a regular file, refusing one larger than
/// `limit` bytes (checked before reading, and while reading, in case it grows).
pub(crate) fn read_all(file: &mut File, limit: u64) -> Result<Vec<u8>, ReadRefused> {
    check_regular(file)?;
    let len = file.metadata()?.len();
    if len > limit {
        return Err(ReadRefused::TooLarge { limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or_default());
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadRefused::TooLarge { limit });
    }
    Ok(bytes)
}

/// Opens and reads the regular file at `path` (see [`read_all`]).
pub(crate) fn read(path: &Path, limit: u64) -> Result<Vec<u8>, ReadRefused> {
    read_all(&mut open(path)?, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a");
        std::fs::write(&file, b"12345").unwrap();
        assert_eq!(read(&file, 5).unwrap(), b"12345");
        assert!(matches!(
            read(&file, 4),
            Err(ReadRefused::TooLarge { limit: 4 })
        ));
        assert_eq!(
            read(dir.path(), 5).unwrap_err().to_string(),
            "it is not a regular file but a directory"
        );
        assert_eq!(
            read(Path::new("/dev/zero"), 5).unwrap_err().to_string(),
            "it is not a regular file but a device"
        );
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(
            read(&fifo, 5).unwrap_err().to_string(),
            "it is not a regular file but a FIFO",
            "and it did not wait for a writer"
        );
        assert!(
            read(&dir.path().join("missing"), 5)
                .unwrap_err()
                .is_not_found()
        );
    }
}
