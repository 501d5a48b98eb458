// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Files opened beneath the plans root through directory handles, never
//! through path strings checked first and used later: the kernel resolves
//! each path from the root's handle and refuses one that leaves it
//! (`openat2` with `RESOLVE_BENEATH`: `..` above the root, an absolute
//! symlink, a symlink to outside), so a directory swapped for a symlink
//! meanwhile cannot lead a write outside. Writes, renames and links then
//! happen inside a directory handle won that way.
//!
//! Where `openat2` is missing (Linux before 5.6, or a seccomp filter that
//! refuses it) the opens fall back to `openat`, and the store's path check
//! is the only guard.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path};

use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags, ResolveFlags};
use rustix::io::Errno;

use crate::runtime::whole_file;

/// The plans root, opened.
#[derive(Debug)]
pub(crate) struct Root(OwnedFd);

/// A directory beneath the root, opened.
#[derive(Debug)]
pub(crate) struct Dir(OwnedFd);

/// Whether an error says the path would have left the root.
pub(crate) fn is_escape(error: &io::Error) -> bool {
    error.raw_os_error() == Some(Errno::XDEV.raw_os_error())
}

/// `rel`, or `.` for the root itself.
fn or_dot(rel: &Path) -> &Path {
    if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    }
}

/// Opens `rel` beneath `dir`, following symlinks only while they stay
/// beneath it.
fn open_beneath(dir: &OwnedFd, rel: &Path, flags: OFlags) -> io::Result<OwnedFd> {
    let rel = or_dot(rel);
    let flags = flags | OFlags::CLOEXEC;
    let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
    match rustix::fs::openat2(dir, rel, flags, Mode::empty(), resolve) {
        // No openat2: an old kernel, or a container's seccomp filter
        // (older Docker profiles answer EPERM).
        Err(Errno::NOSYS | Errno::PERM) => Ok(rustix::fs::openat(dir, rel, flags, Mode::empty())?),
        opened => Ok(opened?),
    }
}

impl Root {
    /// Opens the root directory at `path` (the trust boundary itself may be
    /// reached through symlinks).
    pub(crate) fn open(path: &Path) -> io::Result<Self> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        Ok(Self(rustix::fs::openat(CWD, path, flags, Mode::empty())?))
    }

    /// Opens the file `rel` beneath the root for reading, without waiting
    /// (a FIFO does not block).
    pub(crate) fn open_file(&self, rel: &Path) -> io::Result<File> {
        let flags = OFlags::RDONLY | OFlags::NONBLOCK;
        Ok(File::from(open_beneath(&self.0, rel, flags)?))
    }

    /// Opens the directory `rel` beneath the root.
    pub(crate) fn open_dir(&self, rel: &Path) -> io::Result<Dir> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY;
        Ok(Dir(open_beneath(&self.0, rel, flags)?))
    }

    /// Makes the directory `rel` beneath the root and its missing parents,
    /// each inside the handle of its parent.
    pub(crate) fn create_dirs(&self, rel: &Path) -> io::Result<Dir> {
        let mut dir = self.open_dir(Path::new(""))?;
        for component in rel.components() {
            let Component::Normal(name) = component else {
                return Err(Errno::XDEV.into());
            };
            match rustix::fs::mkdirat(&dir.0, name, Mode::from_raw_mode(0o777)) {
                Ok(()) | Err(Errno::EXIST) => {}
                Err(error) => return Err(error.into()),
            }
            dir = Dir(open_beneath(&dir.0, Path::new(name), OFlags::DIRECTORY)?);
        }
        Ok(dir)
    }
}

impl Dir {
    /// Opens the file `name` in this directory for reading; a symlink there
    /// is refused (`ELOOP`) rather than followed.
    pub(crate) fn open_file(&self, name: &Path) -> io::Result<File> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        Ok(File::from(rustix::fs::openat(
            &self.0,
            name,
            flags,
            Mode::empty(),
        )?))
    }

    /// Whether `file` is the file now named `name` here (same device and inode).
    pub(crate) fn holds(&self, file: &File, name: &Path) -> io::Result<bool> {
        let open = file.metadata()?;
        let now = rustix::fs::statat(&self.0, name, AtFlags::SYMLINK_NOFOLLOW)?;
        Ok(open.dev() == now.st_dev && open.ino() == now.st_ino)
    }

    /// Writes `text` whole to the file `name` here, as `write` says (see
    /// `runtime::whole_file`: the temporary file, the rename or the new
    /// file's landing all happen inside this directory's handle).
    pub(crate) fn write_whole(
        &self,
        name: &Path,
        text: &str,
        write: &whole_file::Write,
    ) -> Result<(), whole_file::WriteError> {
        write.in_dir(self.0.as_fd(), name, text.as_bytes())
    }

    /// The names of the regular files here (not symlinks, as with Node's
    /// `Dirent`) that `wanted` admits, with their contents; a file that
    /// cannot be read is left out.
    pub(crate) fn read_files(
        &self,
        wanted: impl Fn(&str) -> bool,
    ) -> io::Result<Vec<(String, Vec<u8>)>> {
        let listing = rustix::fs::Dir::read_from(&self.0)?;
        let mut files = Vec::new();
        for entry in listing {
            let entry = entry?;
            let name = OsString::from(std::ffi::OsStr::from_bytes(entry.file_name().to_bytes()));
            let Some(text_name) = name.to_str() else {
                continue;
            };
            if !wanted(text_name) {
                continue;
            }
            let name = Path::new(&name);
            let regular = rustix::fs::statat(&self.0, name, AtFlags::SYMLINK_NOFOLLOW)
                .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile);
            if !regular {
                continue;
            }
            let mut bytes = Vec::new();
            let read = self
                .open_file(name)
                .and_then(|mut file| io::Read::read_to_end(&mut file, &mut bytes));
            if read.is_ok() {
                files.push((text_name.to_owned(), bytes));
            }
        }
        Ok(files)
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    /// What a swap between the store's path check and its open would
    /// present: the open itself refuses every way out of the root.
    #[test]
    fn opens_never_leave_the_root() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("p.md"), "outside\n").unwrap();
        symlink(outside.path(), dir.path().join("swap")).unwrap();
        symlink(outside.path().join("p.md"), dir.path().join("link.md")).unwrap();
        std::fs::create_dir(dir.path().join("in")).unwrap();
        symlink("../in", dir.path().join("in/up")).unwrap();
        let root = Root::open(dir.path()).unwrap();
        for escape in [
            root.open_file(Path::new("swap/p.md")).unwrap_err(),
            root.open_file(Path::new("link.md")).unwrap_err(),
            root.open_file(Path::new("../p.md")).unwrap_err(),
            root.open_dir(Path::new("swap")).unwrap_err(),
            root.create_dirs(Path::new("swap/new")).unwrap_err(),
        ] {
            assert!(is_escape(&escape), "{escape}");
        }
        assert!(!outside.path().join("new").exists());
        // Symlinks that stay beneath the root are followed.
        std::fs::write(dir.path().join("in/x.md"), "inside\n").unwrap();
        let mut text = String::new();
        io::Read::read_to_string(
            &mut root.open_file(Path::new("in/up/x.md")).unwrap(),
            &mut text,
        )
        .unwrap();
        assert_eq!(text, "inside\n");
        let made = root.create_dirs(Path::new("a/b")).unwrap();
        let new = whole_file::Write::new().new_only();
        made.write_whole(Path::new("c.md"), "c\n", &new).unwrap();
        assert!(made.write_whole(Path::new("c.md"), "d\n", &new).is_err());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/b/c.md")).unwrap(),
            "c\n"
        );
    }
}
