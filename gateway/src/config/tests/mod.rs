//! Config parsing tests: `errors` checks every kind of mistake is reported
//! at the right line and key, `semantics` what valid files mean.

mod errors;
mod semantics;

use std::path::PathBuf;

use super::*;

fn env() -> Env {
    Env {
        home: Some(PathBuf::from("/home/dev")),
        xdg_config_home: None,
        xdg_state_home: None,
    }
}

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse("gw.toml", text, &env())
}
