//! Reading an agent's JSON config the way the agent itself reads it, and
//! editing one with comments in place.
//!
//! Plain JSON (the usual case) is read into [`Json`] and written back
//! pretty-printed by [`super::json_config`]. What else a file may hold is
//! the agent's call ([`Accepts`]): Gemini CLI and Qwen Code read their
//! settings with comments (Qwen also after a byte-order mark), so install
//! reads those too and edits them through a concrete syntax tree
//! (`jsonc-parser`'s CST), which keeps every comment, blank line and
//! indentation the user wrote. A file the agent would not read either is
//! refused with what is wrong and where, never with a guess.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};

use super::agents::Accepts;
use super::hooks::{self, Layout, Shape, ShapeError};
use super::json::Json;

/// Why a config file cannot be edited: each says what and where, so the
/// user can fix it (the agent would not read the file either).
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfigError {
    #[error("not valid JSON at line {line}, column {column}: {message}")]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("has {0}, which this agent does not accept in this file: remove them")]
    Unaccepted(&'static str),
    #[error(
        "starts with a byte-order mark, which this agent does not accept in this file: remove it"
    )]
    Bom,
    #[error("is nested {0} levels deep; install edits configs up to {max} levels", max = MAX_DEPTH)]
    TooDeep(usize),
    #[error("the file's top level is not a JSON object")]
    NotAnObject,
    #[error(transparent)]
    Shape(#[from] ShapeError),
}

/// The byte-order mark some editors put first.
const BOM: char = '\u{feff}';
/// Configs nested deeper than this are refused (serde_json's own limit;
/// no agent config comes near it, and the parsers recurse).
pub(crate) const MAX_DEPTH: usize = 128;

/// A config file as read.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) root: Json,
    /// It started with a byte-order mark (kept on write).
    pub(crate) bom: bool,
    /// It is plain JSON: written back pretty-printed; else edited in place.
    pub(crate) plain: bool,
}

/// Reads `text` as the agent would (`accepts`). Blank text is an empty
/// object, as agents treat an empty settings file.
pub(crate) fn parse(text: &str, accepts: Accepts) -> Result<Parsed, ConfigError> {
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(_) if !accepts.bom => return Err(ConfigError::Bom),
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if let Some(depth) = too_deep(body) {
        return Err(ConfigError::TooDeep(depth));
    }
    match Json::parse(body) {
        Ok(root) => Ok(Parsed {
            root,
            bom,
            plain: true,
        }),
        Err(strict) => match parse_cst(body, accepts) {
            Ok(cst) => Ok(Parsed {
                root: to_json(&cst.value().ok_or(ConfigError::NotAnObject)?)?,
                bom,
                plain: false,
            }),
            Err(_) => Err(refusal(body, accepts, &strict)),
        },
    }
}

/// Why `body`, which is not plain JSON, cannot be read: what the agent
/// does not accept, or where the syntax breaks.
fn refusal(body: &str, accepts: Accepts, strict: &serde_json::Error) -> ConfigError {
    let lenient = |comments, trailing_commas| {
        let options = Accepts {
            comments,
            trailing_commas,
            bom: false,
        };
        parse_cst(body, options).is_ok()
    };
    if !accepts.comments && lenient(true, accepts.trailing_commas) {
        return ConfigError::Unaccepted("comments");
    }
    if !accepts.trailing_commas && lenient(accepts.comments, true) {
        return ConfigError::Unaccepted("trailing commas");
    }
    if !(accepts.comments && accepts.trailing_commas) && lenient(true, true) {
        return ConfigError::Unaccepted("comments and trailing commas");
    }
    match parse_cst(body, accepts) {
        Err(err) => ConfigError::Syntax {
            line: err.line_display(),
            column: err.column_display(),
            message: err.kind().to_string(),
        },
        Ok(_) => ConfigError::Syntax {
            line: strict.line(),
            column: strict.column(),
            message: strict.to_string(),
        },
    }
}

fn parse_cst(
    body: &str,
    accepts: Accepts,
) -> Result<CstRootNode, jsonc_parser::errors::ParseError> {
    let options = ParseOptions {
        allow_comments: accepts.comments,
        allow_trailing_commas: accepts.trailing_commas,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
    };
    // Checked without collecting comments first: collected as CST tokens,
    // jsonc-parser 0.33 lets comments through whatever the option says.
    jsonc_parser::parse_to_ast(body, &jsonc_parser::CollectOptions::default(), &options)?;
    CstRootNode::parse(body, &options)
}

/// The nesting depth of `text` when it is over [`MAX_DEPTH`] (brackets
/// outside strings and comments).
fn too_deep(text: &str) -> Option<usize> {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut star = false;
                for c in chars.by_ref() {
                    if star && c == '/' {
                        break;
                    }
                    star = c == '*';
                }
            }
            '[' | '{' => {
                depth += 1;
                max = max.max(depth);
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (max > MAX_DEPTH).then_some(max)
}

/// A CST value as a [`Json`] tree, keys in file order.
fn to_json(node: &CstNode) -> Result<Json, ConfigError> {
    let bad = || ConfigError::Syntax {
        line: 0,
        column: 0,
        message: format!("cannot read `{node}`"),
    };
    if let Some(object) = node.as_object() {
        let mut members: Vec<(String, Json)> = Vec::new();
        for prop in object.properties() {
            let name = prop
                .name()
                .and_then(|name| name.decoded_value().ok())
                .ok_or_else(bad)?;
            let value = to_json(&prop.value().ok_or_else(bad)?)?;
            members.retain(|(k, _)| *k != name);
            members.push((name, value));
        }
        return Ok(Json::Object(members));
    }
    if let Some(array) = node.as_array() {
        return array
            .elements()
            .iter()
            .map(to_json)
            .collect::<Result<_, _>>()
            .map(Json::Array);
    }
    if let Some(text) = node.as_string_lit() {
        return text.decoded_value().map(Json::String).map_err(|_| bad());
    }
    if let Some(number) = node.as_number_lit() {
        return number
            .to_string()
            .parse::<serde_json::Number>()
            .map(Json::Number)
            .map_err(|_| bad());
    }
    if let Some(boolean) = node.as_boolean_lit() {
        return Ok(Json::Bool(boolean.value()));
    }
    if node.as_null_keyword().is_some() {
        return Ok(Json::Null);
    }
    Err(bad())
}

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

#[cfg(test)]
mod tests;
