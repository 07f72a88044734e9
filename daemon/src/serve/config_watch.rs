//! Watching the config files for reloads: the user's layer (its
//! directory created when missing, so a first `gateway.toml` is seen) and
//! the system's, watched before the gateway reports itself up.

use notify::RecommendedWatcher;

use super::Options;
use crate::reload::{self, Handle as ReloadHandle};
use hookgate_config::Env;

/// Both layers' files, watched before anything reports the gateway up
/// (the admin socket): an edit from then on is never missed. A system
/// directory that does not exist is no managed layer, not a warning. The
/// user's config directory is created (0700) when it does not exist yet,
/// so a first `gateway.toml` written there is seen like any later edit
/// (a watch needs a directory to watch).
pub(super) fn watch_config_files(
    options: &Options,
    reloads: &ReloadHandle,
) -> Vec<RecommendedWatcher> {
    let env = Env::from_process();
    let user_path = match &options.config_path {
        Some(path) => Some(path.clone()),
        None => {
            let path = env.user_config_path();
            if let Some(dir) = path.as_deref().and_then(std::path::Path::parent) {
                create_config_dir(dir);
            }
            path
        }
    };
    let system_path = env
        .system_config
        .filter(|p| p.parent().is_some_and(std::path::Path::is_dir));
    user_path
        .into_iter()
        .chain(system_path)
        .filter_map(|path| reload::watch(&path, reloads))
        .collect()
}

/// Creates the user's config directory (and its parents) if missing,
/// private; a failure is logged: the gateway runs on without the watch.
fn create_config_dir(dir: &std::path::Path) {
    if dir.is_dir() {
        return;
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    match builder.create(dir) {
        Ok(()) => {
            tracing::info!(dir = %dir.display(), "created the config directory, watched for a gateway.toml")
        }
        Err(err) => {
            tracing::warn!(dir = %dir.display(), error = %err, "cannot create the config directory; a config written there later needs SIGHUP or `gateway reload`")
        }
    }
}
