//! Finding the layers and merging them into one [`Config`]: the embedded
//! default, the system file when it exists, the user's file when it
//! exists (or `--config`), each parsed over the ones below (`layers`).

use std::collections::BTreeMap;
use std::path::Path;

use super::error::{ConfigError, LoadError};
use super::layers::LayerFile;
use super::layers::{Layer, Refusal, Stack};
use super::validate;
use super::{
    Config, DEFAULT_TOML, EMBEDDED_NAME, Env, IdentityConfig, OtelConfig, ServerConfig,
    SubscriberConfig,
};

/// One layer's text and where it came from.
#[derive(Debug, Clone)]
pub struct Source {
    pub layer: Layer,
    /// The file, or [`EMBEDDED_NAME`].
    pub origin: String,
    pub text: String,
}

impl Source {
    /// The embedded default.
    pub fn embedded() -> Source {
        Source {
            layer: Layer::Default,
            origin: EMBEDDED_NAME.to_owned(),
            text: DEFAULT_TOML.to_owned(),
        }
    }

    /// Reads `path` as `layer`.
    pub fn read(path: &Path, layer: Layer) -> Result<Source, LoadError> {
        /// A config is a few KiB; this only stops a runaway file.
        const MAX_CONFIG_BYTES: u64 = 4 << 20;
        let origin = path.display().to_string();
        let text = hookgate_transport::files::read_to_string(path, MAX_CONFIG_BYTES).map_err(
            |source| LoadError::Read {
                path: origin.clone(),
                source,
            },
        )?;
        Ok(Source {
            layer,
            origin,
            text,
        })
    }
}

impl Config {
    /// The embedded default config alone.
    pub fn embedded() -> Result<Config, ConfigError> {
        Config::from_layers(&[Source::embedded()], &Env::from_process())
    }

    /// Parses and validates `text` as a user config on its own (no layer
    /// under it); `origin` names it in errors.
    pub fn parse(origin: &str, text: &str, env: &Env) -> Result<Config, ConfigError> {
        let source = Source {
            layer: Layer::User,
            origin: origin.to_owned(),
            text: text.to_owned(),
        };
        Config::from_layers(&[source], env)
    }

    /// The layers `gateway serve` reads: the embedded default, the system
    /// file when it exists, then `--config PATH` when given, else the
    /// user's file when it exists.
    pub fn sources(explicit: Option<&Path>, env: &Env) -> Result<Vec<Source>, LoadError> {
        let mut sources = vec![Source::embedded()];
        if let Some(system) = env.system_config.as_deref().filter(|p| p.exists()) {
            sources.push(Source::read(system, Layer::System)?);
        }
        let user = match explicit {
            Some(path) => Some(path.to_path_buf()),
            None => env.user_config_path().filter(|p| p.exists()),
        };
        if let Some(user) = user {
            sources.push(Source::read(&user, Layer::User)?);
        }
        Ok(sources)
    }

    /// Loads the layers ([`Config::sources`]) and merges them. Warns about
    /// refused and doubtful settings and about subscriber deadlines the
    /// shim would not wait for.
    pub fn load(explicit: Option<&Path>) -> Result<Config, LoadError> {
        let env = Env::from_process();
        let config = Config::from_layers(&Config::sources(explicit, &env)?, &env)?;
        for refusal in &config.refused {
            tracing::warn!(%refusal, "user config setting refused by the system config's lock");
        }
        for warning in &config.warnings {
            tracing::warn!("config: {warning}");
        }
        config.warn_about_deadlines();
        Ok(config)
    }

    /// `sources`, bottom to top, each parsed over the ones below and
    /// merged (`layers`).
    pub fn from_layers(sources: &[Source], env: &Env) -> Result<Config, ConfigError> {
        let mut stack = Stack::default();
        let mut merged = Merged::default();
        for source in sources {
            let file = validate::parse_layer(
                &source.origin,
                &source.text,
                env,
                source.layer,
                &merged.server,
                &stack,
            )?;
            stack.push(&file);
            merged.add(file, &mut stack.refused);
        }
        let subscribers = stack
            .entries
            .iter()
            .map(|entry| {
                let mut sub: SubscriberConfig = validate::build(&entry.table, env, &entry.place)?;
                sub.layer = entry.defined_by;
                sub.provenance = entry.provenance.clone();
                Ok(sub)
            })
            .collect::<Result<Vec<_>, ConfigError>>()?;
        let top = sources.last().map(|s| s.origin.clone());
        let system_origin = sources
            .iter()
            .find(|s| s.layer == Layer::System)
            .map(|s| s.origin.clone());
        Ok(Config {
            origin: top.unwrap_or_else(|| EMBEDDED_NAME.to_owned()),
            server: merged.server,
            subscribers,
            otel: merged.otel,
            refused: stack.refused,
            warnings: stack.warnings,
            layers: sources
                .iter()
                .map(|s| (s.layer, s.origin.clone()))
                .collect(),
            key_layers: merged.key_layers,
            system_origin,
            http: merged.http,
            ui: merged.ui,
            identity: merged.identity,
        })
    }
}

/// The sections other than the subscribers, merged so far.
#[derive(Debug, Default)]
struct Merged {
    server: ServerConfig,
    key_layers: BTreeMap<String, Layer>,
    otel: Option<OtelConfig>,
    http: Option<super::HttpConfig>,
    ui: Option<super::UiConfig>,
    identity: IdentityConfig,
}

impl Merged {
    /// `file` over what is merged: `[server]` key by key (`file.server`
    /// was parsed over it), `[otel]` whole unless the one below is
    /// locked, `[http]` whole, `[identity]` the top file's.
    fn add(&mut self, file: LayerFile, refused: &mut Vec<Refusal>) {
        for key in &file.server_keys {
            self.key_layers.insert(format!("server.{key}"), file.layer);
        }
        for section in &file.sections {
            self.key_layers.insert(section.clone(), file.layer);
        }
        if !file.sections.iter().any(|s| s == "identity") {
            self.key_layers.remove("identity");
        }
        self.server = file.server;
        self.otel = match (self.otel.take(), file.otel) {
            (Some(below), Some(_)) if below.locked => {
                refused.push(Refusal {
                    what: "[otel]".to_owned(),
                    attempt: "replace",
                });
                Some(below)
            }
            (below, None) => below,
            (_, upper) => upper,
        };
        // The HTTP endpoint is the user's to turn on; a system file may
        // turn it on for everyone.
        self.http = file.http.or(self.http.take());
        // The console likewise: the top layer that writes `[ui]` wins.
        self.ui = file.ui.or(self.ui.take());
        // Who the events say they come from is the machine's unless the
        // user says otherwise: the user's file sets it whenever it has one.
        self.identity = file.identity;
    }
}
