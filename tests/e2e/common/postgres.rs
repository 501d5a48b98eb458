// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A real PostgreSQL server for a test: a cluster made with `initdb` in a
//! temporary directory, on a free loopback port and a Unix socket in that
//! directory, stopped (`pg_ctl stop -m immediate`) and removed when the
//! [`Cluster`] is dropped. PostgreSQL refuses to run as root: as root (CI),
//! the cluster's programs run as `nobody` through `runuser`.
//!
//! A watchdog stops the cluster when the test process ends, even killed:
//! a child reading a pipe from the test that only the test's end closes.
//!
//! Without PostgreSQL's programs the test is skipped (`SKIPPED ...` on
//! stderr), unless `PLANNING_REQUIRE_POSTGRES=1` (as in `.ci/run`): then it
//! fails.
//!
//! Connections: the superuser `postgres` over the socket without a password
//! (for the test's own `psql`); over TCP every user needs its password
//! (scram-sha-256), so a wrong password is refused as in production.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use tempfile::TempDir;

/// The password of the user the servers connect as ([`Cluster::url`]):
/// unusual enough that a test finding it in any output is no accident.
pub(crate) const PASSWORD: &str = "pw-Zq8sEcret";

/// The user the servers connect as, owner of each database made by
/// [`Cluster::database`].
pub(crate) const USER: &str = "planner";

/// A running PostgreSQL cluster of one test.
pub(crate) struct Cluster {
    dir: TempDir,
    bin: PathBuf,
    /// The TCP port on 127.0.0.1.
    pub port: u16,
    /// Whether its programs run as `nobody` (this process is root).
    as_nobody: bool,
    /// Stops the cluster when its stdin closes (the test's end).
    watchdog: Option<Child>,
}

/// The directory of PostgreSQL's programs: `pg_config --bindir`, else the
/// newest `/usr/lib/postgresql/*/bin`.
fn bin_dir() -> Option<PathBuf> {
    let from_config = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let mut candidates: Vec<PathBuf> = from_config.into_iter().collect();
    if let Ok(versions) = std::fs::read_dir("/usr/lib/postgresql") {
        let mut found: Vec<PathBuf> = versions.flatten().map(|e| e.path().join("bin")).collect();
        found.sort();
        candidates.extend(found.into_iter().rev());
    }
    candidates
        .into_iter()
        .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
}

/// The user ID of `nobody`.
fn nobody_uid() -> u32 {
    let nobody = Command::new("id").args(["-u", "nobody"]).output().unwrap();
    String::from_utf8_lossy(&nobody.stdout)
        .trim()
        .parse()
        .unwrap()
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

impl Cluster {
    /// Starts a cluster, or returns `None` (the test is skipped) when
    /// PostgreSQL is not installed and `PLANNING_REQUIRE_POSTGRES` is not `1`.
    pub(crate) fn start_or_skip(test: &str) -> Option<Self> {
        let Some(bin) = bin_dir() else {
            let why = "PostgreSQL is not installed (apt-get install postgresql)";
            if std::env::var("PLANNING_REQUIRE_POSTGRES").as_deref() == Ok("1") {
                panic!("{test}: {why}, and PLANNING_REQUIRE_POSTGRES=1 requires it");
            }
            eprintln!(
                "SKIPPED {test}: {why}; set PLANNING_REQUIRE_POSTGRES=1 to make this a failure"
            );
            return None;
        };
        Some(Self::start(bin, &|_| {}))
    }

    /// Starts a cluster that speaks TLS only, over TCP, with a server
    /// certificate for `localhost` and `127.0.0.1` signed by a test CA;
    /// returns it and the CA's certificate (a PEM file), or `None` as
    /// [`Self::start_or_skip`].
    pub(crate) fn start_tls_or_skip(test: &str) -> Option<(Self, PathBuf)> {
        Self::start_or_skip(test)?;
        let bin = bin_dir()?;
        let ca = std::sync::Mutex::new(PathBuf::new());
        let cluster = Self::start(bin, &|cluster| {
            let dir = cluster.dir.path();
            let openssl = |args: &[&str]| {
                let output = Command::new("openssl")
                    .args(args)
                    .current_dir(dir)
                    .output()
                    .expect("openssl");
                assert!(
                    output.status.success(),
                    "openssl {args:?}: {}",
                    String::from_utf8_lossy(&output.stderr)
                );
            };
            openssl(&[
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "ca.key",
                "-out",
                "ca.crt",
                "-days",
                "2",
                "-subj",
                "/CN=planning test CA",
            ]);
            openssl(&[
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
                "-subj",
                "/CN=localhost",
            ]);
            std::fs::write(
                dir.join("san.ext"),
                "subjectAltName=DNS:localhost,IP:127.0.0.1\n",
            )
            .unwrap();
            openssl(&[
                "x509",
                "-req",
                "-in",
                "server.csr",
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                "server.crt",
                "-days",
                "2",
                "-extfile",
                "san.ext",
            ]);
            let data = cluster.data();
            for file in ["server.crt", "server.key"] {
                std::fs::copy(dir.join(file), data.join(file)).unwrap();
                std::fs::set_permissions(data.join(file), std::fs::Permissions::from_mode(0o600))
                    .unwrap();
                if cluster.as_nobody {
                    std::os::unix::fs::chown(data.join(file), Some(nobody_uid()), None).unwrap();
                }
            }
            let conf = data.join("postgresql.conf");
            let all = std::fs::read_to_string(&conf).unwrap() + "ssl = on\n";
            std::fs::write(&conf, all).unwrap();
            std::fs::write(
                data.join("pg_hba.conf"),
                "local all all trust\nhostssl all all 127.0.0.1/32 scram-sha-256\nhostnossl all all 127.0.0.1/32 reject\n",
            )
            .unwrap();
            *ca.lock().unwrap() = dir.join("ca.crt");
        });
        let ca = ca.into_inner().unwrap();
        Some((cluster, ca))
    }

    /// Starts a cluster; `prepare` runs after `initdb`, before the server starts.
    pub(crate) fn start(bin: PathBuf, prepare: &dyn Fn(&Cluster)) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let as_nobody = is_root();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let cluster = Self {
            dir,
            bin,
            port: super::free_port(),
            as_nobody,
            watchdog: None,
        };
        let data = cluster.data();
        std::fs::create_dir(&data).unwrap();
        if as_nobody {
            let nobody = Command::new("id").args(["-u", "nobody"]).output().unwrap();
            let uid: u32 = String::from_utf8_lossy(&nobody.stdout)
                .trim()
                .parse()
                .unwrap();
            std::os::unix::fs::chown(&data, Some(uid), None).unwrap();
            std::os::unix::fs::chown(cluster.dir.path(), Some(uid), None).unwrap();
        }
        let pwfile = cluster.dir.path().join("superuser-password");
        std::fs::write(&pwfile, "postgres-pw\n").unwrap();
        std::fs::set_permissions(&pwfile, std::fs::Permissions::from_mode(0o644)).unwrap();
        let data_arg = data.display().to_string();
        let pwfile_arg = format!("--pwfile={}", pwfile.display());
        cluster.run_ok(
            "initdb",
            &[
                "-D",
                &data_arg,
                "-U",
                "postgres",
                &pwfile_arg,
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        let mut conf = String::from("listen_addresses = '127.0.0.1'\nfsync = off\n");
        conf.push_str(&format!("port = {}\n", cluster.port));
        conf.push_str(&format!(
            "unix_socket_directories = '{}'\n",
            cluster.dir.path().display()
        ));
        let conf_path = data.join("postgresql.conf");
        let mut all = std::fs::read_to_string(&conf_path).unwrap();
        all.push_str(&conf);
        std::fs::write(&conf_path, all).unwrap();
        prepare(&cluster);
        let mut cluster = cluster;
        cluster.start_again();
        cluster.watchdog = Some(cluster.watchdog());
        cluster.psql(
            "postgres",
            &format!("CREATE USER {USER} PASSWORD '{PASSWORD}'"),
        );
        cluster
    }

    /// The data directory.
    pub(crate) fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// The directory holding the Unix socket.
    pub(crate) fn socket_dir(&self) -> &Path {
        self.dir.path()
    }

    /// A shell that stops the cluster once its stdin closes, which happens
    /// when this process drops the [`Cluster`] or ends in any way.
    fn watchdog(&self) -> Child {
        let script = "read _ignored; exec \"$0\" -D \"$1\" -m immediate -w stop";
        let pg_ctl = self.bin.join("pg_ctl").display().to_string();
        let data = self.data().display().to_string();
        self.command("sh", &["-c", script, &pg_ctl, &data])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the watchdog")
    }

    /// A command running `program` (as `nobody` when root).
    fn command(&self, program: &str, args: &[&str]) -> Command {
        let path = match program.contains('/') || program == "sh" {
            true => PathBuf::from(program),
            false => self.bin.join(program),
        };
        let mut command = match self.as_nobody {
            true => {
                let mut command = Command::new("runuser");
                command.args(["-u", "nobody", "--"]).arg(&path);
                command
            }
            false => Command::new(&path),
        };
        command.args(args).current_dir(self.dir.path());
        command
    }

    /// Runs one of PostgreSQL's programs (as `nobody` when root).
    fn run(&self, program: &str, args: &[&str]) -> Output {
        self.command(program, args)
            .output()
            .unwrap_or_else(|e| panic!("run {program}: {e}"))
    }

    fn run_ok(&self, program: &str, args: &[&str]) -> Output {
        let output = self.run(program, args);
        assert!(
            output.status.success(),
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// Starts the server (again), waiting until it accepts connections.
    pub(crate) fn start_again(&self) {
        let data = self.data().display().to_string();
        let log = self.dir.path().join("server.log").display().to_string();
        self.run_ok(
            "pg_ctl",
            &["-D", &data, "-l", &log, "-w", "-t", "120", "start"],
        );
    }

    /// Stops the server at once, as a crash would (`-m immediate`: no
    /// checkpoint, connections cut).
    pub(crate) fn stop_immediate(&self) {
        let data = self.data().display().to_string();
        self.run_ok("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]);
    }

    /// Runs `sql` as the superuser in database `db` and returns the
    /// unaligned, tuples-only output.
    pub(crate) fn psql(&self, db: &str, sql: &str) -> String {
        let output = Command::new(self.bin.join("psql"))
            .args([
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-U",
                "postgres",
            ])
            .arg("-h")
            .arg(self.socket_dir())
            .args(["-p", &self.port.to_string(), "-d", db, "-c", sql])
            .output()
            .expect("run psql");
        assert!(
            output.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    /// Makes database `name`, owned by [`USER`], and returns its URL.
    pub(crate) fn database(&self, name: &str) -> String {
        self.psql("postgres", &format!("CREATE DATABASE {name} OWNER {USER}"));
        self.url(name)
    }

    /// The URL of database `db` as [`USER`] with [`PASSWORD`] over TCP.
    pub(crate) fn url(&self, db: &str) -> String {
        self.url_with(db, "127.0.0.1", "sslmode=disable")
    }

    /// The URL of database `db` on `host` with the query `query`.
    pub(crate) fn url_with(&self, db: &str, host: &str, query: &str) -> String {
        format!(
            "postgres://{USER}:{PASSWORD}@{host}:{}/{db}?{query}",
            self.port
        )
    }

    /// The server's log so far.
    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("server.log")).unwrap_or_default()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Closing its stdin makes the watchdog stop the cluster; wait for
        // that before the directory goes.
        match self.watchdog.take() {
            Some(mut watchdog) => {
                drop(watchdog.stdin.take());
                let _ = watchdog.wait();
            }
            None => {
                let data = self.data().display().to_string();
                let _ = self.run("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]);
            }
        }
    }
}

/// The `--storage postgres --storage-url URL` flags.
pub(crate) fn storage(url: &str) -> Vec<String> {
    vec![
        "--storage".into(),
        "postgres".into(),
        "--storage-url".into(),
        url.into(),
    ]
}
