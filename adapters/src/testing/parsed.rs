//! The parse check shared by the dialect tests: every fixture of an agent
//! has a row of expectations, parses to an event that meets it, and is
//! pinned in `test_data/<agent>/parsed/<stem>.txt`.

use super::{check_golden, fixtures};
use crate::{EventKind, HookEvent, ParseError, ToolClass};

/// (fixture, kind, blocking, tool name and class)
pub(crate) type Case = (
    &'static str,
    EventKind,
    bool,
    Option<(&'static str, ToolClass)>,
);

/// Parses every fixture of `agent` with `parse(stem, bytes)`, checks it
/// against its row in `cases` and against `check(stem, event)` (the
/// dialect's own expectations), and pins it as its `Debug` form.
pub(crate) fn check_parsed_fixtures(
    agent: &str,
    cases: &[Case],
    parse: impl Fn(&str, &[u8]) -> Result<HookEvent, ParseError>,
    check: impl Fn(&str, &HookEvent),
) {
    let all = fixtures(agent);
    assert_eq!(
        all.len(),
        cases.len(),
        "a fixture without a case (or the reverse)"
    );
    for (stem, bytes) in &all {
        let (_, kind, blocking, tool) = cases
            .iter()
            .find(|case| case.0 == stem)
            .unwrap_or_else(|| panic!("no expectation for fixture {stem}"));
        let event = parse(stem, bytes).unwrap_or_else(|err| panic!("{stem}: {err}"));
        assert_eq!(event.kind, *kind, "{stem}");
        assert_eq!(event.blocking, *blocking, "{stem}");
        check(stem, &event);
        let actual_tool = event.tool.as_ref().map(|t| (t.name.as_str(), t.class));
        assert_eq!(actual_tool, *tool, "{stem}");
        check_golden(
            &format!("{agent}/parsed/{stem}.txt"),
            &format!("{event:#?}\n"),
        );
    }
}
