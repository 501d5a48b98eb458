// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Plan files on disk: where they are (plan id -> `<root>/<dir>/<id>.md`,
//! never outside the root, not even through a symlink), how they are read
//! (lossy UTF-8, etag = SHA-256 of the text, computed only when a caller
//! asks for it), written (a temporary file
//! renamed over the plan, through a symlink rather than over it), created
//! (exclusively), and how writers in any process take turns (an exclusive
//! lock on the plan file itself, checked to still be the file at the path,
//! waited for at most the lock timeout). Every file is opened beneath the
//! root through directory handles ([`super::beneath`]), so a directory
//! swapped for a symlink cannot lead outside. A plan that is not valid
//! UTF-8 is read (invalid bytes shown as U+FFFD) but never written.

use std::cell::OnceCell;
use std::fs::{self, File};
use std::io::{ErrorKind, Read};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use super::beneath::{self, Dir, Root};
use crate::runtime::entropy::SystemEntropy;
use crate::runtime::file_lock::{Access, FileLock, LockError};
use crate::runtime::whole_file::{Step, Write};
use crate::toolsets::plans::error::PlanError;
use crate::toolsets::plans::syntax::id;
use crate::toolsets::plans::syntax::text::json_quote;

/// The default plans directory, relative to the root.
pub const DEFAULT_PLANS_DIR: &str = ".long-term-plan";

/// Where plans live: a root (the trust boundary) and a plans directory in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Store {
    root: PathBuf,
    plans_dir: String,
    lock_timeout: Duration,
}

/// A plan file as read: where it is, what it holds, and its etag, computed
/// on first use: hashing a large plan costs as much as parsing it, and
/// searches, validations and most writes never show the etag of the text
/// they read.
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    /// The plan's absolute path (as configured, symlinks not resolved).
    pub(crate) path: PathBuf,
    /// The text (invalid UTF-8 replaced by U+FFFD).
    pub(crate) text: String,
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
    pub(crate) fn etag(&self) -> &str {
        self.etag.get_or_init(|| etag(&self.text))
    }
}

/// Lowercase hex SHA-256 of the text.
pub(crate) fn etag(text: &str) -> String {
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
pub(crate) fn relative(from: &Path, to: &Path) -> PathBuf {
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
pub(crate) fn node_error(error: &std::io::Error, syscall: &str, path: &Path) -> PlanError {
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

/// The directory of the plan at `real` (relative to the root) and its
/// file name; `path` names it in the error.
fn parent_and_name<'a>(path: &Path, real: &'a Path) -> Result<(&'a Path, &'a Path), PlanError> {
    match (real.parent(), real.file_name()) {
        (Some(parent), Some(name)) => Ok((parent, Path::new(name))),
        _ => Err(escapes(path)),
    }
}

/// An error of an open beneath the root: the path left it, or what the
/// system said.
fn open_error(error: &std::io::Error, syscall: &str, path: &Path) -> PlanError {
    if beneath::is_escape(error) {
        escapes(path)
    } else {
        node_error(error, syscall, path)
    }
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
    pub(crate) fn new(root: &Path, plans_dir: &str) -> Self {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Self {
            root: resolve(&cwd, root),
            plans_dir: plans_dir.to_owned(),
            lock_timeout: Duration::from_secs(10),
        }
    }

    /// The same, waiting at most `lock_timeout` for a plan another process
    /// has locked.
    pub(crate) fn with_lock_timeout(self, lock_timeout: Duration) -> Self {
        Self {
            lock_timeout,
            ..self
        }
    }

    /// `path` relative to the root, as shown in outputs.
    pub(crate) fn relative(&self, path: &Path) -> String {
        relative(&self.root, path).display().to_string()
    }

    /// Refuses `path` if it leaves the root, lexically or (our deviation)
    /// through a symlink; returns the path to operate on, symlinks resolved,
    /// relative to the root. The opens beneath the root check again, so a
    /// symlink swapped in after this check cannot lead outside either.
    fn guard(&self, path: &Path) -> Result<PathBuf, PlanError> {
        let rel = relative(&self.root, path);
        if rel.is_absolute() || rel.components().any(|c| c == Component::ParentDir) {
            return Err(escapes(path));
        }
        let real_root = real_path(&self.root);
        match real_path(path).strip_prefix(&real_root) {
            Ok(real) => Ok(real.to_path_buf()),
            Err(_) => Err(escapes(path)),
        }
    }

    /// The root, opened.
    fn open_root(&self) -> Result<Root, PlanError> {
        Root::open(&self.root).map_err(|e| node_error(&e, "open", &self.root))
    }

    /// The root, opened, and created first (with its missing parents) when
    /// it does not exist yet, as the reference's `mkdir -p` does on create.
    /// The root is the trust boundary itself, so making it leads nowhere
    /// outside; everything below it is still made beneath its handle.
    fn open_or_create_root(&self) -> Result<Root, PlanError> {
        match Root::open(&self.root) {
            Err(error) if error.kind() == ErrorKind::NotFound => {
                fs::create_dir_all(&self.root).map_err(|e| node_error(&e, "mkdir", &self.root))?;
                self.open_root()
            }
            opened => opened.map_err(|e| node_error(&e, "open", &self.root)),
        }
    }

    /// The plans directory (absolute) and its real path relative to the
    /// root, inside it.
    pub(crate) fn plans_dir(&self) -> Result<(PathBuf, PathBuf), PlanError> {
        let dir = resolve(&self.root, Path::new(&self.plans_dir));
        let real = self.guard(&dir)?;
        Ok((dir, real))
    }

    /// The regular files of the plans directory whose names `wanted`
    /// admits, with their contents; none when the directory is missing.
    pub(crate) fn read_plan_files(
        &self,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<Vec<(String, Vec<u8>)>, PlanError> {
        let (dir, real) = self.plans_dir()?;
        let opened = self.open_root().and_then(|root| {
            root.open_dir(&real)
                .map_err(|e| open_error(&e, "scandir", &dir))
        });
        match opened {
            Ok(handle) => handle
                .read_files(wanted)
                .map_err(|e| node_error(&e, "scandir", &dir)),
            Err(_) if fs::metadata(&dir).is_err() => Ok(Vec::new()),
            Err(error) => Err(error),
        }
    }

    /// A plan's path (absolute) and its real path relative to the root: the
    /// id must be safe and the path inside the root.
    pub(crate) fn plan_path(&self, plan_id: &str) -> Result<(PathBuf, PathBuf), PlanError> {
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
    pub(crate) fn read(&self, plan_id: &str) -> Result<Snapshot, PlanError> {
        let (path, real) = self.plan_path(plan_id)?;
        let mut bytes = Vec::new();
        self.open_root()?
            .open_file(&real)
            .map_err(|e| open_error(&e, "open", &path))?
            .read_to_end(&mut bytes)
            .map_err(|e| node_error(&e, "read", &path))?;
        Ok(Snapshot::new(path, bytes))
    }

    /// The directory a plan is in, opened beneath the root, and its name.
    fn plan_dir(&self, path: &Path, real: &Path) -> Result<(Dir, PathBuf), PlanError> {
        let (parent, name) = parent_and_name(path, real)?;
        let dir = self
            .open_root()?
            .open_dir(parent)
            .map_err(|e| open_error(&e, "open", path))?;
        Ok((dir, PathBuf::from(name)))
    }

    /// Reads a plan under its lock, lets `change` compute a new text from
    /// it, and writes that text (if any) before the lock is released, so that
    /// no concurrent writer in any process loses an update. A plan that is
    /// not valid UTF-8 is refused: writing it would replace the invalid
    /// bytes everywhere, even in lines the change did not touch.
    pub(crate) fn update<T>(
        &self,
        plan_id: &str,
        change: impl FnOnce(&Snapshot) -> Result<(T, Option<String>), PlanError>,
    ) -> Result<T, PlanError> {
        let (path, real) = self.plan_path(plan_id)?;
        let (dir, name) = self.plan_dir(&path, &real)?;
        // Held until `lock` is dropped, after the write.
        let until = Instant::now() + self.lock_timeout;
        let lock = match lock_current(&dir, &name, until) {
            Ok(Some(lock)) => lock,
            Ok(None) => {
                return Err(PlanError(format!(
                    "Plan {plan_id} is locked by another process, which did not release it within {} s (server.lock_timeout); nothing was changed, retry later.",
                    self.lock_timeout.as_secs_f64()
                )));
            }
            Err(e) => return Err(node_error(&e, "open", &path)),
        };
        let mut bytes = Vec::new();
        (&**lock.file())
            .read_to_end(&mut bytes)
            .map_err(|e| node_error(&e, "read", &path))?;
        if let Err(invalid) = std::str::from_utf8(&bytes) {
            return Err(PlanError(format!(
                "Plan {plan_id} is not valid UTF-8 (at byte {}); it is left as it is. Fix its encoding to edit it.",
                invalid.valid_up_to()
            )));
        }
        let current = Snapshot::new(path, bytes);
        let (out, new_text) = change(&current)?;
        if let Some(text) = new_text {
            let write = plain_write().temp_named(temp_name(&name));
            dir.write_whole(&name, &text, &write)
                .map_err(|e| node_error(&e.source, "open", &current.path))?;
        }
        Ok(out)
    }

    /// Creates a plan that must not exist yet: `Plan already exists: <id>`.
    /// Returns the plan's absolute path.
    pub(crate) fn create(&self, plan_id: &str, text: &str) -> Result<PathBuf, PlanError> {
        let (path, real) = self.plan_path(plan_id)?;
        let (dir, _) = self.plans_dir()?;
        let (parent, name) = parent_and_name(&path, &real)?;
        let handle = self
            .open_or_create_root()?
            .create_dirs(parent)
            .map_err(|e| open_error(&e, "mkdir", &dir))?;
        let temp = temp_name(name);
        let write = plain_write().new_only().temp_named(temp.clone());
        match handle.write_whole(name, text, &write) {
            Ok(()) => Ok(path),
            Err(e)
                if e.step == Step::Land
                    && (e.kind() == ErrorKind::AlreadyExists
                        || e.source.raw_os_error() == Some(21)) =>
            {
                Err(PlanError(format!("Plan already exists: {plan_id}")))
            }
            Err(e) if e.step == Step::Land => Err(node_error(&e.source, "link", &path)),
            Err(e) => Err(node_error(&e.source, "open", &path.with_file_name(&temp))),
        }
    }
}

/// Reads a whole file.
pub(crate) fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens and exclusively locks the file now named `name` in `dir`, waiting
/// until `until` at most (`None` if another process held it that long);
/// dropping the lock releases it. A writer replaces the file by renaming a
/// new one over it, so a lock won on a file that is no longer at the path
/// is worthless: then try again on the new one.
fn lock_current(dir: &Dir, name: &Path, until: Instant) -> std::io::Result<Option<FileLock>> {
    loop {
        let lock = match FileLock::wait(dir.open_file(name)?, Access::Exclusive, until) {
            Ok(lock) => lock,
            Err(LockError::Held) => return Ok(None),
            Err(LockError::Io(error)) => return Err(error),
        };
        if dir.holds(lock.file(), name)? {
            return Ok(Some(lock));
        }
    }
}

/// `<name>.tmp.<32 hex>` next to the plan, as the reference names them.
fn temp_name(name: &Path) -> PathBuf {
    let random = id::generate(&SystemEntropy::default());
    let mut temp = name.as_os_str().to_owned();
    temp.push(".tmp.");
    temp.push(&random[2..]);
    PathBuf::from(temp)
}

/// How a plan is written: whole (readers see the old or the new file,
/// never a part), and, as the reference writes, not synced.
fn plain_write() -> Write {
    Write::new().synced(false)
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
    fn create_makes_a_missing_root_and_plans_directory() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("sub/deeper");
        let store = Store::new(&root, ".long-term-plan");
        // Reads of a root that does not exist yet create nothing.
        assert!(store.read_plan_files(|_| true).unwrap().is_empty());
        assert!(!dir.path().join("sub").exists());
        let path = store.create("inner", "# Inner\n").unwrap();
        assert_eq!(path, root.join(".long-term-plan/inner.md"));
        assert_eq!(fs::read_to_string(&path).unwrap(), "# Inner\n");
        // A root in the way as a file is reported, not replaced.
        fs::write(dir.path().join("file"), "").unwrap();
        let blocked = Store::new(&dir.path().join("file/root"), ".long-term-plan");
        let error = blocked
            .create("p", "# p\n")
            .unwrap_err()
            .message()
            .to_owned();
        assert!(
            error.starts_with("ENOTDIR: not a directory, open '"),
            "{error}"
        );
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

    #[test]
    fn a_plan_that_is_not_utf8_is_read_but_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), ".");
        fs::write(dir.path().join("b.md"), b"# b\n\n- [ ] a\xffb\n").unwrap();
        let refused = store
            .update("b", |_| Ok(((), Some("# b\n".into()))))
            .unwrap_err();
        assert_eq!(
            refused.message(),
            "Plan b is not valid UTF-8 (at byte 12); it is left as it is. Fix its encoding to edit it."
        );
        assert_eq!(
            fs::read(dir.path().join("b.md")).unwrap(),
            b"# b\n\n- [ ] a\xffb\n"
        );
    }

    #[test]
    fn a_plan_locked_elsewhere_is_waited_for_within_the_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), ".").with_lock_timeout(Duration::ZERO);
        fs::write(dir.path().join("p.md"), "old\n").unwrap();
        // Another holder (a lock on another open file counts as another process).
        let holder = File::open(dir.path().join("p.md")).unwrap();
        holder.lock().unwrap();
        let refused = store
            .update("p", |_| Ok(((), Some("new\n".into()))))
            .unwrap_err();
        assert_eq!(
            refused.message(),
            "Plan p is locked by another process, which did not release it within 0 s (server.lock_timeout); nothing was changed, retry later."
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("p.md")).unwrap(),
            "old\n"
        );
        holder.unlock().unwrap();
        store
            .update("p", |_| Ok(((), Some("new\n".into()))))
            .unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join("p.md")).unwrap(),
            "new\n"
        );
    }

    /// A directory inside the root is swapped with a symlink to an outside
    /// directory (`renameat2` with `RENAME_EXCHANGE`) over and over while
    /// plans are created, written and read in it: nothing is ever written
    /// outside, whatever the interleaving.
    #[test]
    fn a_directory_swapped_for_a_symlink_never_leads_outside() {
        use std::os::unix::fs::symlink;
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};

        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("plans")).unwrap();
        symlink(outside.path(), dir.path().join("swap")).unwrap();
        fs::write(dir.path().join("plans/p.md"), "# p\n").unwrap();
        fs::write(outside.path().join("p.md"), "# outside\n").unwrap();
        let store = Store::new(dir.path(), "plans");
        let done = Arc::new(AtomicBool::new(false));
        let swapper = {
            let (root, done) = (dir.path().to_path_buf(), done.clone());
            std::thread::spawn(move || {
                let mut swaps = 0u64;
                while !done.load(Ordering::Relaxed) || swaps == 0 {
                    rustix::fs::renameat_with(
                        rustix::fs::CWD,
                        root.join("plans"),
                        rustix::fs::CWD,
                        root.join("swap"),
                        rustix::fs::RenameFlags::EXCHANGE,
                    )
                    .unwrap();
                    swaps += 1;
                }
                swaps
            })
        };
        for n in 0..300 {
            let _ = store.create(&format!("new{n}"), "# new\n");
            let _ = store.update("p", |_| Ok(((), Some(format!("# p {n}\n")))));
            if let Ok(read) = store.read("p") {
                assert!(read.text.starts_with("# p"), "{}", read.text);
            }
        }
        done.store(true, Ordering::Relaxed);
        assert!(swapper.join().unwrap() > 0);
        let names: Vec<String> = fs::read_dir(outside.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["p.md"], "nothing was created outside");
        assert_eq!(
            fs::read_to_string(outside.path().join("p.md")).unwrap(),
            "# outside\n"
        );
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
