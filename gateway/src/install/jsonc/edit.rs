//! Editing a config with comments in place: a [`Document`] holds the
//! file's concrete syntax tree, and hookgate's handlers are merged into
//! (or removed from) an event's list there, so every comment, blank line
//! and indentation the user wrote stays as it was.

use jsonc_parser::cst::{CstArray, CstInputValue, CstObject, CstRootNode};

use super::super::agents::Accepts;
use super::super::hooks::{self, Layout, Shape, ShapeError};
use super::super::json::Json;
use super::{BOM, ConfigError, parse, parse_cst, to_json};

/// A [`Json`] value for insertion into a CST.
fn to_input(value: &Json) -> CstInputValue {
    match value {
        Json::Null => CstInputValue::Null,
        Json::Bool(b) => CstInputValue::Bool(*b),
        Json::Number(n) => CstInputValue::Number(n.to_string()),
        Json::String(s) => CstInputValue::String(s.clone()),
        Json::Array(items) => CstInputValue::Array(items.iter().map(to_input).collect()),
        Json::Object(members) => CstInputValue::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), to_input(v)))
                .collect(),
        ),
    }
}

/// A file with comments, to edit in place.
pub(crate) struct Document {
    root: CstRootNode,
    bom: bool,
}

impl Document {
    /// `text` (not plain JSON, but what `accepts` reads) as a CST.
    pub(crate) fn parse(text: &str, accepts: Accepts) -> Result<Document, ConfigError> {
        let parsed = parse(text, accepts)?;
        let body = text.strip_prefix(BOM).unwrap_or(text);
        let root = parse_cst(body, accepts).map_err(|err| ConfigError::Syntax {
            line: err.line_display(),
            column: err.column_display(),
            message: err.kind().to_string(),
        })?;
        if root.object_value().is_none() {
            return Err(ConfigError::NotAnObject);
        }
        Ok(Document {
            root,
            bom: parsed.bom,
        })
    }

    /// The edited text.
    pub(crate) fn render(&self) -> String {
        let text = self.root.to_string();
        if self.bom {
            format!("{BOM}{text}")
        } else {
            text
        }
    }

    fn object(&self) -> Result<CstObject, ConfigError> {
        self.root.object_value().ok_or(ConfigError::NotAnObject)
    }

    /// Sets `"key": value` at the top level unless present.
    pub(crate) fn ensure_member(&self, key: &str, value: &Json) -> Result<(), ConfigError> {
        let object = self.object()?;
        if object.get(key).is_none() {
            object.append(key, to_input(value));
        }
        Ok(())
    }

    /// The events object (`hooks_key`, created empty when absent; `None`:
    /// the top level).
    pub(crate) fn events(&self, hooks_key: Option<&str>) -> Result<Option<CstObject>, ConfigError> {
        let root = self.object()?;
        let Some(key) = hooks_key else {
            return Ok(Some(root));
        };
        match root.get(key) {
            None => Ok(None),
            Some(prop) => match prop.value().and_then(|v| v.as_object()) {
                Some(events) => Ok(Some(events)),
                None => Err(ShapeError(key.to_owned(), "object").into()),
            },
        }
    }

    /// [`Document::events`], created when absent.
    pub(crate) fn events_or_create(
        &self,
        hooks_key: Option<&str>,
    ) -> Result<CstObject, ConfigError> {
        if let Some(events) = self.events(hooks_key)? {
            return Ok(events);
        }
        let root = self.object()?;
        let key = hooks_key.unwrap_or_default();
        let prop = root.append(key, CstInputValue::Object(Vec::new()));
        prop.object_value().ok_or(ConfigError::NotAnObject)
    }

    /// Removes the events object when hookgate's removal left it empty.
    pub(crate) fn drop_empty_events(&self, hooks_key: Option<&str>) -> Result<(), ConfigError> {
        if let (Some(key), Some(events)) = (hooks_key, self.events(hooks_key)?)
            && events.properties().is_empty()
            && let Some(prop) = self.object()?.get(key)
        {
            prop.remove();
        }
        Ok(())
    }
}

/// [`hooks::merge`] on a CST: `ours` becomes the one hookgate item of
/// `event`, after the user's own, unless it already is.
pub(crate) fn merge(
    events: &CstObject,
    event: &str,
    ours: &Json,
    layout: Layout,
) -> Result<(), ConfigError> {
    let list = match events.get(event) {
        Some(prop) => prop
            .value()
            .and_then(|v| v.as_array())
            .ok_or_else(|| ShapeError(event.to_owned(), "list"))?,
        None => events
            .append(event, CstInputValue::Array(Vec::new()))
            .array_value()
            .ok_or_else(|| ShapeError(event.to_owned(), "list"))?,
    };
    let items = list_json(&list)?;
    if hooks::count(&items, layout) == 1 && items.contains(ours) {
        return Ok(());
    }
    strip(&list, layout)?;
    list.append(to_input(ours));
    Ok(())
}

/// [`hooks::remove_all`] on a CST. Returns how many handlers it removed.
pub(crate) fn remove_all(events: &CstObject, layout: Layout) -> Result<usize, ConfigError> {
    let mut removed = 0;
    for prop in events.properties() {
        let Some(list) = prop.value().and_then(|v| v.as_array()) else {
            continue;
        };
        let n = strip(&list, layout)?;
        removed += n;
        if n > 0 && list.elements().is_empty() {
            prop.remove();
        }
    }
    Ok(removed)
}

fn list_json(list: &CstArray) -> Result<Vec<Json>, ConfigError> {
    list.elements().iter().map(to_json).collect()
}

/// Removes hookgate's handlers from one event's list (and each group they
/// leave empty); returns how many.
fn strip(list: &CstArray, layout: Layout) -> Result<usize, ConfigError> {
    let mut removed = 0;
    for item in list.elements() {
        match layout.shape {
            Shape::Flat => {
                if hooks::is_our_handler(&to_json(&item)?, layout) {
                    item.remove();
                    removed += 1;
                }
            }
            Shape::Grouped => {
                let handlers = item
                    .as_object()
                    .and_then(|group| group.get("hooks"))
                    .and_then(|prop| prop.value())
                    .and_then(|value| value.as_array());
                let Some(handlers) = handlers else { continue };
                let had = handlers.elements().len();
                for handler in handlers.elements() {
                    if hooks::is_our_handler(&to_json(&handler)?, layout) {
                        handler.remove();
                        removed += 1;
                    }
                }
                if had > 0 && handlers.elements().is_empty() {
                    item.remove();
                }
            }
        }
    }
    Ok(removed)
}
