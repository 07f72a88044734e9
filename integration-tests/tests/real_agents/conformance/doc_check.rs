//! docs/conformance.md against the adapters' capability tables, without
//! running any agent: the Expressed column is what `render` says today,
//! and every capability advertised for an event of the matrix was observed
//! (a `pass` row) or is a documented limit.

use hookgate_adapters::Capabilities;

use super::matrix::AgentUnderTest;
use super::meaning::{Expressed, Part, expressed};
use super::{agents, doc_path};

/// One table row: event, part, expressed, result.
struct DocRow {
    event: String,
    part: Part,
    expressed: Expressed,
    result: String,
}

/// The rows of `label`'s section.
fn section(doc: &str, label: &str) -> Vec<DocRow> {
    let heading = format!("## {label}\n");
    let Some(start) = doc.find(&heading) else {
        panic!("docs/conformance.md has no section {label:?}; run the conformance suite");
    };
    let body = &doc[start + heading.len()..];
    let body = body.split("\n## ").next().unwrap_or_default();
    body.lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| Event"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 5, "{line}");
            DocRow {
                event: cells[0].to_owned(),
                part: Part::from_name(cells[1]).unwrap_or_else(|| panic!("part in {line}")),
                expressed: Expressed::from_name(cells[2])
                    .unwrap_or_else(|| panic!("expressed in {line}")),
                result: cells[4].to_owned(),
            }
        })
        .collect()
}

/// The parts an event's capabilities advertise.
fn advertised(caps: Capabilities) -> Vec<Part> {
    [
        (caps.deny, Part::Deny),
        (caps.ask, Part::Ask),
        (caps.context, Part::Context),
        (caps.input_rewrite, Part::Rewrite),
        (caps.halt, Part::Halt),
        (caps.followup, Part::Followup),
        // Every agent that continues on a follow-up is checked to stop at
        // the gateway's cap.
        (caps.followup, Part::FollowupEveryStop),
    ]
    .into_iter()
    .filter_map(|(on, part)| on.then_some(part))
    .collect()
}

fn check(agent: &AgentUnderTest, doc: &str) -> Vec<String> {
    let rows = section(doc, &agent.label);
    let mut problems = Vec::new();
    for row in &rows {
        let Some(scenario) = agent.scenario(&row.event, row.part) else {
            problems.push(format!(
                "{}: {} {} is not in the table",
                agent.label,
                row.event,
                row.part.as_str()
            ));
            continue;
        };
        let now = expressed(scenario.phase, row.part, agent.capabilities(&row.event));
        if now != row.expressed {
            problems.push(format!(
                "{}: {} {} is rendered {:?} now, the matrix measured {:?}; rerun the suite",
                agent.label,
                row.event,
                row.part.as_str(),
                now,
                row.expressed
            ));
        }
    }
    let mut events: Vec<&str> = agent.scenarios.iter().map(|s| s.event).collect();
    events.dedup();
    for event in events {
        for part in advertised(agent.capabilities(event)) {
            let observed = rows.iter().any(|row| {
                row.event == event
                    && row.part == part
                    && (row.result == "pass" || row.result.starts_with("limit: "))
            });
            if !observed {
                problems.push(format!(
                    "{}: {event} advertises {} but the matrix did not observe it",
                    agent.label,
                    part.as_str()
                ));
            }
        }
    }
    problems
}

#[test]
fn render_advertises_only_what_the_matrix_observed() {
    let doc = std::fs::read_to_string(doc_path()).expect("read docs/conformance.md");
    let problems: Vec<String> = agents()
        .iter()
        .flat_map(|agent| check(agent, &doc))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
