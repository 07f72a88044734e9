//! Glob operands against well-known secret file names: `cat .e*`,
//! `cat .en?`, `cat ~/.ssh/*` read `.env` and `id_rsa` without naming them.
//! The shell would expand the glob against the disk; the guard cannot, so
//! it asks whether the glob could match one of these names, with the
//! shell's rule that only a glob starting with `.` matches a dotfile.

use globset::GlobBuilder;

/// (the directory the file lives in, when it matters; the file name).
const WELL_KNOWN: &[(Option<&str>, &str)] = &[
    (None, ".env"),
    (None, ".env.local"),
    (None, ".env.production"),
    (None, ".envrc"),
    (None, ".netrc"),
    (None, ".git-credentials"),
    (None, ".pgpass"),
    (Some(".ssh"), "id_rsa"),
    (Some(".ssh"), "id_ecdsa"),
    (Some(".ssh"), "id_ed25519"),
    (Some(".aws"), "credentials"),
    (Some(".kube"), "config"),
    (Some(".docker"), "config.json"),
];

/// The well-known secret paths glob `path` could match (none when it has
/// no glob characters in its last component).
pub fn secret_matches(path: &str) -> Vec<String> {
    let (dir, base) = match path.rsplit_once('/') {
        Some((dir, base)) => (Some(dir), base),
        None => (None, path),
    };
    let in_known_dir = dir.is_some_and(|d| {
        WELL_KNOWN
            .iter()
            .filter_map(|(in_dir, _)| *in_dir)
            .any(|wanted| in_dir_named(d, wanted))
    });
    // Most globs (`*`, `*.rs`) can name none of them: no glob is compiled.
    if !base.contains(['*', '?', '[']) || !(base.starts_with('.') || in_known_dir) {
        return Vec::new();
    }
    let Ok(glob) = GlobBuilder::new(base).literal_separator(true).build() else {
        return Vec::new();
    };
    let matcher = glob.compile_matcher();
    WELL_KNOWN
        .iter()
        .filter(|(in_dir, name)| {
            let dir_fits = match in_dir {
                None => true,
                Some(wanted) => dir.is_some_and(|d| in_dir_named(d, wanted)),
            };
            let dot_fits = !name.starts_with('.') || base.starts_with('.');
            dir_fits && dot_fits && matcher.is_match(name)
        })
        .map(|(_, name)| match dir {
            Some(dir) => format!("{dir}/{name}"),
            None => (*name).to_owned(),
        })
        .collect()
}

/// Is `dir` a directory named `name` (`.ssh`, `~/.ssh`, `/home/x/.ssh`)?
fn in_dir_named(dir: &str, name: &str) -> bool {
    dir == name
        || dir
            .strip_suffix(name)
            .is_some_and(|head| head.ends_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_that_could_name_a_secret() {
        assert_eq!(
            secret_matches(".e*"),
            [".env", ".env.local", ".env.production", ".envrc"]
        );
        assert_eq!(secret_matches("./.en?"), ["./.env"]);
        assert_eq!(secret_matches(".[e]nv"), [".env"]);
        assert_eq!(
            secret_matches("~/.ssh/*"),
            ["~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ed25519"]
        );
        assert_eq!(
            secret_matches("/home/dev/.aws/cred*"),
            ["/home/dev/.aws/credentials"]
        );
        for plain in ["*", "src/*", "*.rs", ".env", "~/.ssh/known_hosts", "*.ts"] {
            assert!(secret_matches(plain).is_empty(), "{plain}");
        }
    }
}
