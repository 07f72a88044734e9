//! A throw-away PKI per test, made with rcgen: a CA, a server certificate
//! for `localhost` and a client certificate it issued, and an unrelated CA
//! (what a wrong `tls_ca_file` would hold). Written to files the gateway
//! reads, 0600 as a user would keep them.

use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

/// The files of one PKI, and the PEM the test subscriber serves.
#[derive(Debug)]
pub(crate) struct Pki {
    pub(crate) ca: PathBuf,
    pub(crate) other_ca: PathBuf,
    pub(crate) client_cert: PathBuf,
    pub(crate) client_key: PathBuf,
    /// The client key's PEM: it must never show in a log.
    pub(crate) client_key_pem: String,
    pub(crate) ca_pem: String,
    pub(crate) server_cert_pem: String,
    pub(crate) server_key_pem: String,
}

fn new_ca(name: &str) -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    CertifiedIssuer::self_signed(params, KeyPair::generate().expect("CA key")).expect("CA")
}

fn leaf(
    issuer: &CertifiedIssuer<'static, KeyPair>,
    names: &[&str],
    usage: ExtendedKeyUsagePurpose,
) -> (String, String) {
    let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    let mut params = CertificateParams::new(names).expect("leaf params");
    params
        .distinguished_name
        .push(DnType::CommonName, "hookgate test");
    params.extended_key_usages = vec![usage];
    let key = KeyPair::generate().expect("leaf key");
    let cert = params.signed_by(&key, issuer).expect("leaf certificate");
    (cert.pem(), key.serialize_pem())
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a PKI file");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .expect("chmod a PKI file");
    }
    path
}

impl Pki {
    /// A new PKI in `dir`.
    pub(crate) fn new(dir: &Path) -> Pki {
        let ca = new_ca("hookgate test CA");
        let other = new_ca("some other CA");
        let (server_cert_pem, server_key_pem) =
            leaf(&ca, &["localhost"], ExtendedKeyUsagePurpose::ServerAuth);
        let (client_cert, client_key_pem) =
            leaf(&ca, &["laptop-17"], ExtendedKeyUsagePurpose::ClientAuth);
        Pki {
            ca: write(dir, "ca.pem", &ca.pem()),
            other_ca: write(dir, "other-ca.pem", &other.pem()),
            client_cert: write(dir, "client.pem", &client_cert),
            client_key: write(dir, "client.key", &client_key_pem),
            client_key_pem,
            ca_pem: ca.pem(),
            server_cert_pem,
            server_key_pem,
        }
    }
}
