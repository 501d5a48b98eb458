// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! TLS to the database through rustls (on ring), with libpq's `sslmode`
//! semantics: `prefer` and `require` without `sslrootcert` encrypt without
//! checking who answers (as libpq does; the docs say to use `verify-full`);
//! `verify-ca` (and `require` with `sslrootcert`) checks that the server's
//! certificate chains to `sslrootcert`; `verify-full` also that it names
//! the host. The handshake's signatures are always checked.

use std::path::Path;
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::url::TlsMode;
use crate::runtime::regular_file;

/// The most bytes a TLS file (`sslrootcert`) may hold: a bundle of every
/// public CA is under 300 KB. Only a regular file is read (a FIFO would
/// block start-up, a device such as `/dev/zero` never ends).
const MAX_TLS_FILE_BYTES: u64 = 4 << 20;

/// The TLS connector for `mode`, trusting the PEM certificates in
/// `root_cert` when given. The error says what is wrong with the file.
pub(super) fn connector(
    mode: TlsMode,
    root_cert: Option<&Path>,
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
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| format!("TLS cannot be set up: {error}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
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
        let error = connector(TlsMode::VerifyFull, Some(&empty)).err().unwrap();
        assert!(error.ends_with("holds no certificate"), "{error}");
        let missing = dir.path().join("missing.pem");
        let error = connector(TlsMode::VerifyCa, Some(&missing)).err().unwrap();
        assert!(error.starts_with("cannot read sslrootcert"), "{error}");
        assert!(connector(TlsMode::Prefer, None).is_ok());
    }

    #[test]
    fn a_root_file_is_read_only_as_a_regular_file_of_bounded_size() {
        let error = connector(TlsMode::VerifyFull, Some(Path::new("/dev/zero")))
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
        let error = connector(TlsMode::VerifyCa, Some(&fifo)).err().unwrap();
        assert!(
            error.ends_with("it is not a regular file but a FIFO"),
            "{error}"
        );
        let large = dir.path().join("large.pem");
        std::fs::File::create(&large)
            .unwrap()
            .set_len(MAX_TLS_FILE_BYTES + 1)
            .unwrap();
        let error = connector(TlsMode::VerifyCa, Some(&large)).err().unwrap();
        assert!(
            error.ends_with("it is larger than 4194304 bytes"),
            "{error}"
        );
    }
}
