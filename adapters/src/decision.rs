//! A subscriber's answer to one event, in canonical form.

/// Allow, ask or deny, or no opinion. Ordered by strength: when decisions
/// are merged the strongest wins (deny > ask > allow > unspecified).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Permission {
    /// No opinion.
    #[default]
    Unspecified,
    Allow,
    Ask,
    Deny,
}

/// One decision. `Decision::default()` is "no opinion": rendering it gives
/// the agent's neutral reply.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Decision {
    pub permission: Permission,
    /// For the user: why it was denied or asked.
    pub reason: Option<String>,
    /// For the model: what it should do instead.
    pub agent_message: Option<String>,
    /// Extra context for the model.
    pub additional_context: Option<String>,
    /// A full replacement of the tool's input (a JSON object).
    pub updated_input: Option<serde_json::Value>,
    /// Stop the agent's loop.
    pub halt: bool,
    /// A message the agent submits as the user's next prompt.
    pub followup_message: Option<String>,
}

impl Decision {
    /// True when the decision says nothing at all.
    pub fn is_neutral(&self) -> bool {
        *self == Decision::default()
    }
}

/// `text` unless it is absent or empty: empty strings count as absent.
pub(crate) fn non_empty(text: &Option<String>) -> Option<&str> {
    text.as_deref().filter(|text| !text.is_empty())
}
