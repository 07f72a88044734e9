//! What the tests share: bundles built in memory, keys made per run.

use std::process::Command;

use crate::bundle::{Algorithm, Key, sign};

/// A gzip tar of `files`, each header naming its path exactly as given
/// (the tests also need `..`, which a real builder refuses).
pub(crate) fn tar_gz(files: &[(&str, &[u8])]) -> Vec<u8> {
    let owned: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(p, b)| ((*p).to_owned(), b.to_vec()))
        .collect();
    crate::bundle::archive(&owned).unwrap()
}

/// A private key (PEM) and its verification [`Key`] named `id`.
pub(crate) struct Signer {
    pub(crate) private_pem: String,
    pub(crate) key: Key,
}

impl Signer {
    pub(crate) fn ec(id: &str) -> Signer {
        let pair = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
        Signer {
            private_pem: pair.serialize_pem(),
            key: Key {
                id: id.to_owned(),
                algorithm: Algorithm::Es256,
                pem: pair.public_key_pem(),
            },
        }
    }

    #[expect(clippy::disallowed_methods, reason = "a test, not on a runtime")]
    pub(crate) fn rsa(id: &str) -> Signer {
        let dir = tempfile::tempdir().unwrap();
        let private = dir.path().join("key.pem");
        let run = |args: &[&str]| {
            let out = Command::new("openssl").args(args).output().unwrap();
            assert!(out.status.success(), "openssl {args:?}: {out:?}");
            out.stdout
        };
        run(&[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-out",
            private.to_str().unwrap(),
        ]);
        let public = run(&["pkey", "-in", private.to_str().unwrap(), "-pubout"]);
        Signer {
            private_pem: std::fs::read_to_string(&private).unwrap(),
            key: Key {
                id: id.to_owned(),
                algorithm: Algorithm::Rs256,
                pem: String::from_utf8(public).unwrap(),
            },
        }
    }

    /// `files` with a `.signatures.json` signed by this key added.
    pub(crate) fn signed(&self, files: &[(&str, &[u8])]) -> Vec<u8> {
        let owned: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|(p, b)| ((*p).to_owned(), b.to_vec()))
            .collect();
        let signatures =
            sign::sign(&owned, self.key.algorithm, &self.private_pem, &self.key.id).unwrap();
        let mut all: Vec<(&str, &[u8])> = files.to_vec();
        all.push(("/.signatures.json", signatures.as_bytes()));
        tar_gz(&all)
    }
}
