//! The test layout every agent follows: its `tests.rs` fills in a
//! [`Suite`] (where its sample files are, their dialect, its parse and
//! render) and calls these checks with its tables (parse cases, detection
//! variables, tool names), then adds the rules measured on its real CLI.

use serde_json::Value;

use super::{Case, check_json_replies, check_parsed_fixtures, check_replies, fixture, fixtures};
use crate::{
    Decision, Dialect, FailMode, HookEvent, ParseError, Rendered, ToolClass, detect, fallback,
};
use hookgate_dialect::events::EventSpec;

/// One agent's sample files and entry points.
#[derive(Debug)]
pub(crate) struct Suite {
    /// `test_data/<dir>/`.
    pub(crate) dir: &'static str,
    pub(crate) dialect: Dialect,
    /// Parses a sample by its file stem (which names the event for the
    /// dialects whose payload does not) and bytes.
    pub(crate) parse: fn(&str, &[u8]) -> Result<HookEvent, ParseError>,
    pub(crate) render: fn(&HookEvent, &Decision) -> Rendered,
}

impl Suite {
    /// The sample `<dir>/<stem>.json`, parsed.
    pub(crate) fn event(&self, stem: &str) -> HookEvent {
        let bytes = fixture(&format!("{}/{stem}.json", self.dir));
        (self.parse)(stem, &bytes).unwrap_or_else(|err| panic!("{stem}: {err}"))
    }

    /// `event` rendered with `decision`.
    pub(crate) fn rendered(&self, event: &HookEvent, decision: &Decision) -> Rendered {
        (self.render)(event, decision)
    }

    /// Every sample parses to an event of this dialect that meets its row
    /// in `cases` and `check`, pinned in `<dir>/parsed/<stem>.txt`.
    pub(crate) fn check_parsed(&self, cases: &[Case], check: impl Fn(&str, &HookEvent)) {
        check_parsed_fixtures(self.dir, cases, self.parse, |stem, event| {
            assert_eq!(event.dialect, self.dialect, "{stem}");
            check(stem, event);
        });
    }

    /// Every sample rendered with every scenario, pinned in
    /// `<dir>/replies/<stem>.txt`.
    pub(crate) fn check_replies(&self, scenarios: &[(&'static str, Decision)]) {
        check_replies(self.dir, self.parse, self.render, scenarios);
    }

    /// [`Suite::check_replies`] for a dialect that answers only in JSON on
    /// stdout: every reply also exits 0 with empty stderr and one JSON
    /// value, which `check(stem, scenario, stdout)` may look at further.
    pub(crate) fn check_json_replies(
        &self,
        scenarios: &[(&'static str, Decision)],
        check: impl Fn(&str, &str, &Value),
    ) {
        check_json_replies(self.dir, self.parse, self.render, scenarios, check);
    }

    /// The dialect `detect` finds, with no hint and the variables `env`
    /// set, for every sample (less its key `without`, if any).
    pub(crate) fn detected(&self, env: &[&str], without: Option<&str>) -> Vec<(String, Dialect)> {
        fixtures(self.dir)
            .into_iter()
            .map(|(stem, bytes)| {
                let bytes = match without {
                    Some(key) => super::edited_fixture(&format!("{}/{stem}.json", self.dir), |m| {
                        m.remove(key);
                    }),
                    None => bytes,
                };
                let found = detect(&bytes, None, env).unwrap_or_else(|err| panic!("{stem}: {err}"));
                (stem, found.dialect)
            })
            .collect()
    }

    /// Every sample is detected as this dialect (see [`Suite::detected`]).
    pub(crate) fn check_detected(&self, env: &[&str], without: Option<&str>) {
        for (stem, dialect) in self.detected(env, without) {
            assert_eq!(dialect, self.dialect, "{stem} with {env:?}");
        }
    }

    /// For every event in `events`: fail-closed differs from fail-open
    /// exactly where `blocks(spec, parsed)`, and fail-open is the rendered
    /// neutral reply.
    pub(crate) fn check_fallback(
        &self,
        events: &[EventSpec],
        blocks: impl Fn(&EventSpec, &HookEvent) -> bool,
    ) {
        for spec in events {
            let payload = format!(r#"{{"hook_event_name":"{}"}}"#, spec.name);
            let parsed = (self.parse)(spec.name, payload.as_bytes())
                .unwrap_or_else(|err| panic!("{}: {err}", spec.name));
            let reply = |mode| fallback(Some(self.dialect), Some(spec.name), mode, "down");
            let (closed, open) = (reply(FailMode::Closed), reply(FailMode::Open));
            assert_eq!(closed != open, blocks(spec, &parsed), "{}", spec.name);
            let neutral = (self.render)(&parsed, &Decision::default()).reply;
            assert_eq!(open, neutral, "{}", spec.name);
        }
    }
}

/// Each tool name in `table` has its class by `tool_class`.
pub(crate) fn check_tool_classes(tool_class: fn(&str) -> ToolClass, table: &[(&str, ToolClass)]) {
    for (name, class) in table {
        assert_eq!(tool_class(name), *class, "{name}");
    }
}
