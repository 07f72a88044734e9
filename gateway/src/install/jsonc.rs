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
use jsonc_parser::cst::{CstNode, CstRootNode};

use super::agents::Accepts;
use super::hooks::ShapeError;
use super::json::Json;

mod edit;

pub(crate) use edit::{Document, merge, remove_all};

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

#[cfg(test)]
mod tests;
