// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! TLS to the database through rustls (on ring), with libpq's `sslmode`
//! semantics: `prefer` and `require` without `sslrootcert` encrypt without
//! checking who answers (as libpq does; the docs say to use `verify-full`);
//! `verify-ca` (and `require` with `sslrootcert`) checks that the server's
//! certificate chains to `sslrootcert`; `verify-full` also that it names
//! the host. The handshake's signatures are always checked. `sslcert` and
//! `sslkey` give a client certificate, for a server that authenticates
//! clients by certificate (`cert` in pg_hba.conf); as libpq does, a key
//! that its group or others may read is refused.

use std::path::Path;
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::url::{ClientCert, TlsMode};
use crate::runtime::regular_file;

/// The most bytes a TLS file (`sslrootcert`, `sslcert`, `sslkey`) may hold: a bundle of every
/// public CA is under 300 KB. Only a regular file is read (a FIFO would
/// block start-up, a device such as `/dev/zero` never ends).
const MAX_TLS_FILE_BYTES: u64 = 4 << 20;

/// The TLS connector for `mode`, trusting the PEM certificates in
/// `root_cert` when given, and showing `client_cert` when asked. The error
/// says what is wrong with the file.
pub(super) fn connector(
    mode: TlsMode,
    root_cert: Option<&Path>,
    client_cert: Option<&ClientCert>,
) -> Result<MakeRustlsConnect, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let chain = match root_cert {
        None => None,
        Some(path) => Some(verifier_for(path, &provider)?),
    };
    let check = match (mode, chain) {
        (TlsMode::VerifyFull, Some(chain)) => Check::Full(chain),
        (TlsMode::VerifyCa | TlsMode::Require, Some(chain)) => Check::Chain(chain),
        _ => Check::Nothing,
    };
    let verifier = Verifier {
        check,
        algorithms: provider.signature_verification_algorithms,
    };
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| format!("TLS cannot be set up: {error}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier));
    let config = match client_cert {
        None => builder.with_no_client_auth(),
        Some(files) => {
            let (chain, key) = client_identity(files)?;
            builder.with_client_auth_cert(chain, key).map_err(|error| {
                format!(
                    "sslcert {} and sslkey {} cannot be used together: {error}",
                    files.cert.display(),
                    files.key.display()
                )
            })?
        }
    };
    Ok(MakeRustlsConnect::new(config))
}

/// The certificate chain and private key in the PEM files of `files`.
fn client_identity(
    files: &ClientCert,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), String> {
    let (cert, key) = (files.cert.display(), files.key.display());
    let bytes = regular_file::read(&files.cert, MAX_TLS_FILE_BYTES)
        .map_err(|refused| format!("cannot read sslcert {cert}: {refused}"))?;
    let chain = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| format!("sslcert {cert} is not PEM: {error}"))?;
    if chain.is_empty() {
        return Err(format!("sslcert {cert} holds no certificate"));
    }
    let mut file = regular_file::open(&files.key)
        .map_err(|error| format!("cannot read sslkey {key}: {error}"))?;
    regular_file::check_regular(&file)
        .map_err(|refused| format!("cannot read sslkey {key}: {refused}"))?;
    let mode = file
        .metadata()
        .map_err(|error| format!("cannot read sslkey {key}: {error}"))?
        .permissions();
    if std::os::unix::fs::PermissionsExt::mode(&mode) & 0o077 != 0 {
        return Err(format!(
            "sslkey {key} may be read by its group or others: make it u=rw (0600) or less"
        ));
    }
    let bytes = regular_file::read_all(&mut file, MAX_TLS_FILE_BYTES)
        .map_err(|refused| format!("cannot read sslkey {key}: {refused}"))?;
    let private = PrivateKeyDer::from_pem_slice(&bytes)
        .map_err(|error| format!("sslkey {key} holds no PEM private key: {error}"))?;
    Ok((chain, private))
}

/// A verifier of certificates chaining to the PEM certificates in `path`.
fn verifier_for(
    path: &Path,
    provider: &Arc<CryptoProvider>,
) -> Result<Arc<WebPkiServerVerifier>, String> {
    let shown = path.display();
    let mut roots = RootCertStore::empty();
    let bytes = regular_file::read(path, MAX_TLS_FILE_BYTES)
        .map_err(|refused| format!("cannot read sslrootcert {shown}: {refused}"))?;
    for certificate in CertificateDer::pem_slice_iter(&bytes) {
        let certificate =
            certificate.map_err(|error| format!("sslrootcert {shown} is not PEM: {error}"))?;
        roots
            .add(certificate)
            .map_err(|error| format!("sslrootcert {shown} holds a bad certificate: {error}"))?;
    }
    if roots.is_empty() {
        return Err(format!("sslrootcert {shown} holds no certificate"));
    }
    WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
        .build()
        .map_err(|error| format!("sslrootcert {shown} cannot be used: {error}"))
}

/// What is checked of the server's certificate.
#[derive(Debug)]
enum Check {
    /// Nothing (libpq's `prefer`, and `require` without roots).
    Nothing,
    /// That it chains to the roots (`verify-ca`).
    Chain(Arc<WebPkiServerVerifier>),
    /// That it chains to the roots and names the host (`verify-full`).
    Full(Arc<WebPkiServerVerifier>),
}

#[derive(Debug)]
struct Verifier {
    check: Check,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let (verifier, names_matter) = match &self.check {
            Check::Nothing => return Ok(ServerCertVerified::assertion()),
            Check::Chain(verifier) => (verifier, false),
            Check::Full(verifier) => (verifier, true),
        };
        match verifier.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !names_matter => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_file_must_hold_certificates() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "no certificate here\n").unwrap();
        let error = connector(TlsMode::VerifyFull, Some(&empty), None)
            .err()
            .unwrap();
        assert!(error.ends_with("holds no certificate"), "{error}");
        let missing = dir.path().join("missing.pem");
        let error = connector(TlsMode::VerifyCa, Some(&missing), None)
            .err()
            .unwrap();
        assert!(error.starts_with("cannot read sslrootcert"), "{error}");
        assert!(connector(TlsMode::Prefer, None, None).is_ok());
    }

    #[test]
    fn a_root_file_is_read_only_as_a_regular_file_of_bounded_size() {
        let error = connector(TlsMode::VerifyFull, Some(Path::new("/dev/zero")), None)
            .err()
            .unwrap();
        assert_eq!(
            error,
            "cannot read sslrootcert /dev/zero: it is not a regular file but a device"
        );
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Returns at once: no writer is waited for.
        let error = connector(TlsMode::VerifyCa, Some(&fifo), None)
            .err()
            .unwrap();
        assert!(
            error.ends_with("it is not a regular file but a FIFO"),
            "{error}"
        );
        let large = dir.path().join("large.pem");
        std::fs::File::create(&large)
            .unwrap()
            .set_len(MAX_TLS_FILE_BYTES + 1)
            .unwrap();
        let error = connector(TlsMode::VerifyCa, Some(&large), None)
            .err()
            .unwrap();
        assert!(
            error.ends_with("it is larger than 4194304 bytes"),
            "{error}"
        );
    }

    #[test]
    fn client_files_are_regular_bounded_and_the_key_private() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let pair = |cert: &Path, key: &Path| ClientCert {
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
        };
        let connect = |files: &ClientCert| connector(TlsMode::Require, None, Some(files)).err();
        let (cert, key) = (dir.path().join("client.crt"), dir.path().join("client.key"));
        std::fs::write(&cert, "no certificate\n").unwrap();
        std::fs::write(&key, "no key\n").unwrap();
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
        let zero = Path::new("/dev/zero");
        assert_eq!(
            connect(&pair(zero, &key)).unwrap(),
            "cannot read sslcert /dev/zero: it is not a regular file but a device"
        );
        let error = connect(&pair(&cert, &key)).unwrap();
        assert!(error.ends_with("holds no certificate"), "{error}");
        std::fs::write(
            &cert,
            "-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n",
        )
        .unwrap();
        assert_eq!(
            connect(&pair(&cert, zero)).unwrap(),
            "cannot read sslkey /dev/zero: it is not a regular file but a device"
        );
        let error = connect(&pair(&cert, &key)).unwrap();
        assert!(error.contains("holds no PEM private key"), "{error}");
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o640)).unwrap();
        let error = connect(&pair(&cert, &key)).unwrap();
        assert!(
            error.ends_with("may be read by its group or others: make it u=rw (0600) or less"),
            "{error}"
        );
    }
}
