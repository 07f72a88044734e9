//! Path arithmetic on strings, as `std::path::Path` would do it, for the
//! `no_std` shim: the directory that holds the socket (whose ownership
//! decides whether the socket can be trusted) and a file name with a
//! suffix (the fallback record next to the socket, see
//! [`fallback_record::record_path`](crate::fallback_record::record_path)).

use alloc::string::String;

/// The directory of `path`, like `Path::parent` but `.` when the path has
/// no directory part (`Path::parent` gives "" or `None` there).
pub fn parent(path: &str) -> &str {
    let trimmed = normalize_end(path);
    let Some(name_at) = trimmed.rfind('/') else {
        return ".";
    };
    let dir = trimmed[..name_at].trim_end_matches('/');
    match dir {
        "" if trimmed.starts_with('/') && !trimmed[name_at + 1..].is_empty() => "/",
        "" => ".",
        dir => dir,
    }
}

/// `path` with `suffix` appended to its file name, or `None` when it has
/// no file name (`/`, `..`), like `Path::file_name` + `with_file_name`.
pub fn with_name_suffix(path: &str, suffix: &str) -> Option<String> {
    let trimmed = normalize_end(path);
    let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
    if name.is_empty() || name == "." || name == ".." {
        return None;
    }
    let mut out = String::with_capacity(trimmed.len() + suffix.len());
    out.push_str(trimmed);
    out.push_str(suffix);
    Some(out)
}

/// Drops trailing `/` and `/.` components, which `Path` ignores.
fn normalize_end(mut path: &str) -> &str {
    loop {
        let shorter = path.trim_end_matches('/');
        let shorter = if shorter.is_empty() && path.starts_with('/') {
            "/"
        } else {
            shorter
        };
        match shorter.strip_suffix("/.") {
            Some(rest) => path = if rest.is_empty() { "/" } else { rest },
            None => return shorter,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const PATHS: [&str; 14] = [
        "/run/user/1/hookgate/gateway.sock",
        "/x/gw.sock",
        "/x/gw.sock/",
        "/x//gw.sock",
        "/x/./gw.sock/.",
        "gw.sock",
        "./gw.sock",
        "a/b",
        "a/..",
        "/gw.sock",
        "/",
        "//",
        ".",
        "..",
    ];

    #[test]
    fn parent_agrees_with_path() {
        for path in PATHS {
            let expected = match Path::new(path).parent() {
                Some(dir) if !dir.as_os_str().is_empty() => dir,
                _ => Path::new("."),
            };
            assert_eq!(Path::new(parent(path)), expected, "{path}");
        }
    }

    #[test]
    fn suffix_agrees_with_path() {
        for path in PATHS {
            let p = Path::new(path);
            let expected = p.file_name().map(|name| {
                let mut name = name.to_os_string();
                name.push(".fallbacks");
                p.with_file_name(name)
            });
            let got = with_name_suffix(path, ".fallbacks");
            assert_eq!(got.as_deref().map(Path::new), expected.as_deref(), "{path}");
        }
    }
}
