//! Why a payload could not be parsed. Errors name the field and the shape
//! that was wrong and never echo payload content: payloads hold prompts,
//! file contents and secrets, and errors end up in logs.

use crate::Dialect;

/// A payload that does not fit its dialect.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{dialect:?} payload: {kind}")]
pub struct ParseError {
    pub dialect: Dialect,
    pub kind: ParseErrorKind,
}

/// What exactly was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    #[error("not valid JSON (line {line}, column {column})")]
    NotJson { line: usize, column: usize },
    #[error("not a JSON object")]
    NotAnObject,
    #[error("nested deeper than {} levels", crate::MAX_DEPTH)]
    TooDeep,
    #[error("missing field `{0}`")]
    MissingField(String),
    #[error("field `{field}` should be {expected}")]
    WrongType {
        field: String,
        expected: &'static str,
    },
}

impl ParseError {
    pub(crate) fn new(dialect: Dialect, kind: ParseErrorKind) -> Self {
        ParseError { dialect, kind }
    }
}
