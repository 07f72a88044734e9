//! Test support shared by the dialect tests: golden files and fixtures,
//! and (in submodules) the checks every dialect runs the same way.
//!
//! The files themselves (payloads in `test_data/<agent>/`, goldens below
//! them) are read by `hookgate-test-data`, re-exported here.

pub(crate) mod claude_protocol;
mod malformed;
mod parsed;
mod replies;
mod suite;

use serde_json::{Map, Value};

pub(crate) use hookgate_test_data::{check_golden, fixture, fixtures};
pub(crate) use malformed::{never_panics_on_truncated_or_retyped_fields, wrong};
pub(crate) use parsed::{Case, check_parsed_fixtures};
pub(crate) use replies::{
    EVERY_LOSS, ScenarioText, check_json_replies, check_replies, every_answer, scenarios,
    stdout_json,
};
pub(crate) use suite::{Suite, check_tool_classes};

/// A fixture payload (`test_data/<rel>`, a JSON object) after `edit`.
pub(crate) fn edited_fixture(rel: &str, edit: impl FnOnce(&mut Map<String, Value>)) -> Vec<u8> {
    let mut value: Value = serde_json::from_slice(&fixture(rel)).expect("fixture is JSON");
    edit(value.as_object_mut().expect("fixture is a JSON object"));
    serde_json::to_vec(&value).expect("edited fixture serializes")
}
