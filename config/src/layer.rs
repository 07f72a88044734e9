//! Which configuration layer a setting came from: data both the config
//! (which merges the layers) and the metrics (which report each
//! subscriber's) name, so neither has to know the other.

/// Where a setting came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// The embedded default (no config file anywhere).
    Default,
    /// The managed system file.
    System,
    /// The user's file (or `--config`).
    User,
}

impl Layer {
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Default => "default",
            Layer::System => "system",
            Layer::User => "user",
        }
    }
}
