// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Plan files on disk: where they are (plan id -> `<root>/<dir>/<id>.md`,
//! never outside the root, not even through a symlink), how they are read
//! (lossy UTF-8, etag = SHA-256 of the text, computed only when a caller
//! asks for it), written (a temporary file
//! renamed over the plan, through a symlink rather than over it), created
//! (exclusively), and how writers in any process take turns (an exclusive
//! lock on the plan file itself, checked to still be the file at the path).

use std::cell::OnceCell;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::toolsets::plans::error::PlanError;
use crate::toolsets::plans::syntax::id;
use crate::toolsets::plans::syntax::text::json_quote;

/// The default plans directory, relative to the root.
pub const DEFAULT_PLANS_DIR: &str = ".long-term-plan";

/// Where plans live: a root (the trust boundary) and a plans directory in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    root: PathBuf,
    plans_dir: String,
}

/// A plan file as read: where it is, what it holds, and its etag, computed
/// on first use: hashing a large plan costs as much as parsing it, and
/// searches, validations and most writes never show the etag of the text
/// they read.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The plan's absolute path (as configured, symlinks not resolved).
    pub path: PathBuf,
    /// The text (invalid UTF-8 replaced by U+FFFD).
    pub text: String,
    etag: OnceCell<String>,
}

impl Snapshot {
    fn new(path: PathBuf, bytes: Vec<u8>) -> Self {
        Self {
            path,
            text: text_of(bytes),
            etag: OnceCell::new(),
        }
    }

    /// SHA-256 of the text, lowercase hex.
    pub fn etag(&self) -> &str {
        self.etag.get_or_init(|| etag(&self.text))
    }
}

/// Lowercase hex SHA-256 of the text.
pub fn etag(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The bytes as text, invalid UTF-8 replaced by U+FFFD; valid text (the
/// usual case) keeps its buffer instead of being copied.
fn text_of(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|invalid| String::from_utf8_lossy(invalid.as_bytes()).into_owned())
}

/// `path.resolve`: makes `path` absolute against `base` and removes `.`
/// and `..` lexically.
pub fn resolve(base: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    };
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::Prefix(p) => out.push(p.as_os_str()),
            Component::RootDir => out.push(Component::RootDir.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
        }
    }
    out
}

/// `path.relative(from, to)` for two resolved absolute paths.
pub fn relative(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<Component<'_>> = from.components().collect();
    let to: Vec<Component<'_>> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for part in &to[common..] {
        out.push(part.as_os_str());
    }
    out
}

/// Node's message for a failed file-system call, e.g.
/// `ENOENT: no such file or directory, open '/abs/plan.md'`.
pub fn node_error(error: &std::io::Error, syscall: &str, path: &Path) -> PlanError {
    let path = path.display();
    let message = match error.raw_os_error() {
        Some(2) => format!("ENOENT: no such file or directory, {syscall} '{path}'"),
        Some(13) => format!("EACCES: permission denied, {syscall} '{path}'"),
        Some(17) => format!("EEXIST: file already exists, {syscall} '{path}'"),
        Some(20) => format!("ENOTDIR: not a directory, {syscall} '{path}'"),
        Some(21) => "EISDIR: illegal operation on a directory, read".to_owned(),
        Some(40) => format!("ELOOP: too many symbolic links encountered, {syscall} '{path}'"),
        _ => format!("{error}, {syscall} '{path}'"),
    };
    PlanError(message)
}

fn escapes(path: &Path) -> PlanError {
    PlanError(format!("Resolved path escapes rootDir: {}", path.display()))
}

/// The real path of `path`: its deepest existing ancestor with symlinks
/// resolved, and the rest appended.
fn real_path(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = fs::canonicalize(existing) {
            let mut real = real;
            for part in rest.iter().rev() {
                real.push(part);
            }
            return real;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

impl Store {
    /// A store; `root` is resolved against the working directory.
    pub fn new(root: &Path, plans_dir: &str) -> Self {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Self {
            root: resolve(&cwd, root),
            plans_dir: plans_dir.to_owned(),
        }
    }

    /// The root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `path` relative to the root, as shown in outputs.
    pub fn relative(&self, path: &Path) -> String {
        relative(&self.root, path).display().to_string()
    }

    /// Refuses `path` if it leaves the root, lexically or (our deviation)
    /// through a symlink; returns the path to operate on, symlinks resolved.
    fn guard(&self, path: &Path) -> Result<PathBuf, PlanError> {
        let rel = relative(&self.root, path);
        if rel.is_absolute() || rel.components().any(|c| c == Component::ParentDir) {
            return Err(escapes(path));
        }
        let real_root = real_path(&self.root);
        let real = real_path(path);
        if !real.starts_with(&real_root) {
            return Err(escapes(path));
        }
        Ok(real)
    }

    /// The plans directory (absolute) and its real path, both inside the root.
    pub fn plans_dir(&self) -> Result<(PathBuf, PathBuf), PlanError> {
        let dir = resolve(&self.root, Path::new(&self.plans_dir));
        let real = self.guard(&dir)?;
        Ok((dir, real))
    }

    /// A plan's path (absolute) and its real path: the id must be safe and
    /// the path inside the root.
    pub fn plan_path(&self, plan_id: &str) -> Result<(PathBuf, PathBuf), PlanError> {
        if !id::is_safe(plan_id) {
            return Err(PlanError(format!(
                "Invalid planId: {}",
                json_quote(plan_id)
            )));
        }
        let (dir, _) = self.plans_dir()?;
        let path = resolve(&dir, Path::new(&format!("{plan_id}.md")));
        let real = self.guard(&path)?;
        Ok((path, real))
    }

    /// Reads a plan; its etag is computed if asked for.
    pub fn read(&self, plan_id: &str) -> Result<Snapshot, PlanError> {
        let (path, real) = self.plan_path(plan_id)?;
        let bytes = read_file(&real).map_err(|e| node_error(&e, "open", &path))?;
        Ok(Snapshot::new(path, bytes))
    }

    /// Reads a plan under its lock, lets `change` compute a new text from
    /// it, and writes that text (if any) before the lock is released, so that
    /// no concurrent writer in any process loses an update.
    pub fn update<T>(
        &self,
        plan_id: &str,
        change: impl FnOnce(&Snapshot) -> Result<(T, Option<String>), PlanError>,
    ) -> Result<T, PlanError> {
        let (path, real) = self.plan_path(plan_id)?;
        // Held until `file` is dropped, after the write.
        let mut file = lock_current(&real).map_err(|e| node_error(&e, "open", &path))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| node_error(&e, "read", &path))?;
        let current = Snapshot::new(path, bytes);
        let (out, new_text) = change(&current)?;
        if let Some(text) = new_text {
            write_atomic(&real, &text).map_err(|e| node_error(&e, "open", &current.path))?;
        }
        Ok(out)
    }

    /// Creates a plan that must not exist yet: `Plan already exists: <id>`.
    /// Returns the plan's absolute path.
    pub fn create(&self, plan_id: &str, text: &str) -> Result<PathBuf, PlanError> {
        let (path, real) = self.plan_path(plan_id)?;
        let (dir, real_dir) = self.plans_dir()?;
        fs::create_dir_all(&real_dir).map_err(|e| node_error(&e, "mkdir", &dir))?;
        let temp = temp_path(&real);
        write_new(&temp, text).map_err(|e| node_error(&e, "open", &temp))?;
        let linked = fs::hard_link(&temp, &real);
        let _ = fs::remove_file(&temp);
        match linked {
            Ok(()) => Ok(path),
            Err(e) if e.kind() == ErrorKind::AlreadyExists || e.raw_os_error() == Some(21) => {
                Err(PlanError(format!("Plan already exists: {plan_id}")))
            }
            Err(e) => Err(node_error(&e, "link", &path)),
        }
    }
}

/// Reads a whole file.
pub fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens and exclusively locks the file now at `path`; closing the file
/// releases the lock. A writer replaces the file by renaming a new one over
/// it, so a lock won on a file that is no longer at the path is worthless:
/// then try again on the new one.
fn lock_current(path: &Path) -> std::io::Result<File> {
    loop {
        let file = File::open(path)?;
        file.lock()?;
        if same_file(&file, path)? {
            return Ok(file);
        }
    }
}

#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> std::io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let open = file.metadata()?;
    let now = fs::metadata(path)?;
    Ok(open.dev() == now.dev() && open.ino() == now.ino())
}

#[cfg(not(unix))]
fn same_file(_file: &File, _path: &Path) -> std::io::Result<bool> {
    Ok(true)
}

/// `<path>.tmp.<32 hex>` next to the plan, as the reference names them.
fn temp_path(path: &Path) -> PathBuf {
    let random = id::generate();
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp.");
    name.push(&random[2..]);
    PathBuf::from(name)
}

fn write_new(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(text.as_bytes())
}

/// Writes `text` to a temporary file and renames it over `path`: readers
/// see the old or the new file, never a part.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let temp = temp_path(path);
    let written = write_new(&temp, text).and_then(|()| fs::rename(&temp, path));
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_and_relative_are_lexical() {
        let root = Path::new("/r/root");
        assert_eq!(
            resolve(root, Path::new(".long-term-plan")),
            Path::new("/r/root/.long-term-plan")
        );
        assert_eq!(
            resolve(root, Path::new("./a/../b/")),
            Path::new("/r/root/b")
        );
        assert_eq!(resolve(root, Path::new("/abs")), Path::new("/abs"));
        assert_eq!(resolve(root, Path::new(".")), Path::new("/r/root"));
        assert_eq!(resolve(Path::new("/"), Path::new("../..")), Path::new("/"));
        assert_eq!(
            relative(root, Path::new("/r/root/p/x.md")),
            Path::new("p/x.md")
        );
        assert_eq!(relative(root, Path::new("/r/other")), Path::new("../other"));
        assert_eq!(relative(root, root), Path::new(""));
    }

    #[test]
    fn etags_are_sha256_hex() {
        assert_eq!(
            etag(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn ids_and_paths_are_guarded() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), ".long-term-plan");
        assert_eq!(
            store.plan_path("../x").unwrap_err().message(),
            "Invalid planId: \"../x\""
        );
        let (path, _) = store.plan_path("demo").unwrap();
        assert_eq!(store.relative(&path), ".long-term-plan/demo.md");
        let outside = Store::new(dir.path(), "../elsewhere");
        let err = outside.plan_path("demo").unwrap_err();
        assert!(
            err.message().starts_with("Resolved path escapes rootDir: "),
            "{err}"
        );
        assert!(err.message().ends_with("/elsewhere"), "{err}");
        let dot = Store::new(dir.path(), ".");
        assert_eq!(dot.relative(&dot.plan_path("x").unwrap().0), "x.md");
        let absolute = Store::new(dir.path(), &dir.path().join("p").display().to_string());
        assert_eq!(
            absolute.relative(&absolute.plan_path("x").unwrap().0),
            "p/x.md"
        );
    }

    #[test]
    fn read_errors_speak_node() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), ".long-term-plan");
        let err = store.read("missing").unwrap_err();
        let path = store.plan_path("missing").unwrap().0;
        assert_eq!(
            err.message(),
            format!(
                "ENOENT: no such file or directory, open '{}'",
                path.display()
            )
        );
    }

    #[test]
    fn create_is_exclusive_and_update_writes_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), ".long-term-plan");
        let path = store.create("p", "one\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "one\n");
        assert_eq!(
            store.create("p", "two\n").unwrap_err().message(),
            "Plan already exists: p"
        );
        let etag_seen = store
            .update("p", |s| Ok((s.etag().to_owned(), Some("two\n".to_owned()))))
            .unwrap();
        assert_eq!(etag_seen, etag("one\n"));
        assert_eq!(store.read("p").unwrap().text, "two\n");
        let leftovers: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file left");
        // A failed change writes nothing.
        let failed: Result<(), _> = store.update("p", |_| Err("no".into()));
        assert_eq!(failed.unwrap_err().message(), "no");
        assert_eq!(store.read("p").unwrap().text, "two\n");
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), ".");
        fs::write(dir.path().join("b.md"), b"a\xffb").unwrap();
        let read = store.read("b").unwrap();
        assert_eq!(read.text, "a\u{FFFD}b");
        assert_eq!(read.etag(), etag("a\u{FFFD}b"));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_cannot_leave_the_root_and_are_written_through() {
        use std::os::unix::fs::symlink;
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret.md"), "secret\n").unwrap();
        let store = Store::new(dir.path(), ".");
        symlink(outside.path().join("secret.md"), dir.path().join("leak.md")).unwrap();
        let err = store.read("leak").unwrap_err();
        assert!(
            err.message().starts_with("Resolved path escapes rootDir: "),
            "{err}"
        );
        let err = store
            .update("leak", |_| Ok(((), Some("x".into()))))
            .unwrap_err();
        assert!(
            err.message().starts_with("Resolved path escapes rootDir: "),
            "{err}"
        );
        assert_eq!(
            fs::read_to_string(outside.path().join("secret.md")).unwrap(),
            "secret\n"
        );

        // A symlinked plans directory pointing outside is refused too.
        symlink(outside.path(), dir.path().join("plans")).unwrap();
        let via_dir = Store::new(dir.path(), "plans");
        assert!(
            via_dir
                .read("secret")
                .unwrap_err()
                .message()
                .starts_with("Resolved path escapes")
        );

        // Inside the root, a symlinked plan is written through, not replaced.
        fs::write(dir.path().join("real.md"), "old\n").unwrap();
        symlink("real.md", dir.path().join("alias.md")).unwrap();
        store
            .update("alias", |_| Ok(((), Some("new\n".into()))))
            .unwrap();
        assert!(
            fs::symlink_metadata(dir.path().join("alias.md"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("real.md")).unwrap(),
            "new\n"
        );
    }
}
