//! Secrets on command lines: password and token options, the clients whose
//! `-p`/`-P`/`-w`/`-a` takes a password, secrets piped into
//! `--password-stdin`, `user:password` and `user%password` arguments, and
//! variables set without `=` (PowerShell, `setx`, fish).

use regex::Captures;

use super::super::rule::{Rule, always, checked};
use super::super::{entropy, names};

/// A quoted or bare shell word.
macro_rules! word {
    () => {
        r#"("[^"]*"|'[^']*'|[^\s'"]+)"#
    };
}

/// An option's value (group 2) that is a value, not the next option, and
/// the option (group 1) not a `--no-...` switch.
fn option_value(caps: &Captures<'_>) -> bool {
    let option = caps.get(1).map_or("", |m| m.as_str().trim_start());
    let value = caps.get(2).map_or("", |m| m.as_str());
    !option.starts_with("--no-") && !value.starts_with('-') && !value.is_empty()
}

/// A cookie value (group 2) is `name=value` (curl's `-b file` is a path).
fn cookie_value(caps: &Captures<'_>) -> bool {
    caps.get(2).is_some_and(|v| v.as_str().contains('='))
}

/// A variable (group 2) whose name says secret or whose value (group 3)
/// looks random.
fn secret_variable(caps: &Captures<'_>) -> bool {
    let name = caps.get(2).map_or("", |m| m.as_str());
    let value = caps.get(3).map_or("", |m| m.as_str());
    let value = value.trim_matches(['"', '\'']);
    !value.is_empty()
        && (names::secret_name(name) || (entropy::looks_random(value) && !names::plain_name(name)))
}

pub(super) const RULES: &[Rule] = &[
    // `--password X`, `--password=X`, `--db-password X`, `--client-secret
    // X`, `--access-token X`, `-storepass X` ...
    checked(
        concat!(
            r"(?i)(\s--?(?:[a-z0-9]+[-_])*(?:password|passwd|pass|pwd|passphrase|token|secret|secret-key|api-?key|auth-token|bearer|storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass)(?:=|\s+))",
            word!()
        ),
        "${1}[REDACTED]",
        option_value,
    ),
    // `mysql -pX` (with a space, `-p` only prompts: the next word is the
    // database), 7-Zip's `-pX`.
    always(
        r#"\b((?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|7z|7za|7zz)\b[^\n|;&]*?\s-p)("[^"]*"|'[^']*'|[^\s'"-][^\s'"]*)"#,
        "${1}[REDACTED]",
    ),
    // Clients whose `-p X` is a password: sshpass, MongoDB, and the
    // `login` commands of registries and clouds.
    always(
        concat!(
            r"\b((?:sshpass|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b[^\n|;&]*?\s-p\s*",
            r"|\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?:\s+registry)?|az|oc|cf|argocd)\s+login\b[^\n|;&]*?\s-p\s*)",
            r#"("[^"]*"|'[^']*'|[^\s'"-][^\s'"]*)"#
        ),
        "${1}[REDACTED]",
    ),
    // `-P X` (sqlcmd, zip), `-w X` (ldap*), `-a X` (redis-cli).
    always(
        concat!(
            r"\b((?:sqlcmd\b[^\n|;&]*?\s-P|(?:zip|unzip)\b[^\n|;&]*?\s-P|ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn)\b[^\n|;&]*?\s-w|redis-cli\b[^\n|;&]*?\s-a)\s*)",
            r#"("[^"]*"|'[^']*'|[^\s'"-][^\s'"]*)"#
        ),
        "${1}[REDACTED]",
    ),
    // `htpasswd -b file user password`.
    always(
        concat!(
            r"\b(htpasswd\s+-[A-Za-z]*b[A-Za-z]*\s+\S+\s+\S+\s+)",
            word!()
        ),
        "${1}[REDACTED]",
    ),
    // `echo X | docker login --password-stdin`.
    always(
        concat!(
            r"\b((?:echo|printf)\s+(?:-[ne]\s+)?)",
            word!(),
            r"(\s*\|[^\n]*?--(?:password|token)-stdin)"
        ),
        "${1}[REDACTED]${3}",
    ),
    // openssl's `-pass pass:X` / `-passin pass:X`.
    always(
        r#"(\s-pass(?:in|out)?\s+pass:)("[^"]*"|'[^']*'|[^\s'"]+)"#,
        "${1}[REDACTED]",
    ),
    // `gh secret set NAME --body X` / `-b X`.
    always(
        concat!(
            r"\b(gh\s+secret\s+set\b[^\n|;&]*?\s(?:--body|-b)(?:=|\s+))",
            word!()
        ),
        "${1}[REDACTED]",
    ),
    // `kubectl create secret ... --from-literal=key=X`.
    always(
        concat!(r"(--from-literal(?:=|\s+)[^=\s]+=)", word!()),
        "${1}[REDACTED]",
    ),
    // `-u user:password` / `--user user:password` (curl and friends).
    always(
        r#"(\s(?:-u|--user|--proxy-user)(?:=|\s+)['"]?[^\s:'"]+):([^\s'"]+)"#,
        "${1}:[REDACTED]",
    ),
    // `-U user%password` (smbclient, rpcclient).
    always(r#"(\s-U\s*['"]?[^\s%'"]+)%([^\s'"]+)"#, "${1}%[REDACTED]"),
    // Cookies on the command line: `--cookie 'a=b'`, curl's `-b 'a=b'`.
    checked(
        concat!(r"(\s--cookie(?:=|\s+))", word!()),
        "${1}[REDACTED]",
        cookie_value,
    ),
    checked(
        concat!(r"(\bcurl\b[^\n|;&]*?\s-b\s*)", word!()),
        "${1}[REDACTED]",
        cookie_value,
    ),
    // Variables set without `=`: PowerShell `$env:NAME = X`, `setx NAME
    // X`, fish `set -gx NAME X`.
    checked(
        concat!(
            r"(?i)(\$env:([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*)",
            word!()
        ),
        "${1}[REDACTED]",
        secret_variable,
    ),
    checked(
        concat!(
            r"(\b(?:setx|set[ \t]+-[A-Za-z]*x[A-Za-z]*)[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+)",
            word!()
        ),
        "${1}[REDACTED]",
        secret_variable,
    ),
];
