//! What a shell command line does to hookgate: the commands it runs
//! aimed at the gateway's process, and every path they touch compared with
//! hookgate's parts, within the call's budget.

use super::{Certainty, Finding, Protection, known_cwd, operands, signals};
use crate::budget::Budget;
use crate::shell::{self, Place};

impl Protection {
    /// What the shell `line` run in `cwd` does to hookgate, each finding
    /// given to `note`; stops where `budget` runs out.
    pub(super) fn check_line(
        &self,
        line: &str,
        cwd: Option<&str>,
        budget: &mut Budget,
        note: &mut impl FnMut(Option<Finding>),
    ) {
        let place = Place {
            cwd,
            home: self.home.as_deref(),
            fold: false,
        };
        let parsed = shell::parse(line, place, budget);
        if !budget.ok() {
            return;
        }
        let lower = line.to_lowercase();
        let mentioned = self.needles.iter().any(|n| lower.contains(n.as_str()));
        // A `kill` of an unknown pid counts on a line that names the
        // gateway's process (`# stop the gateway`, `pgrep gateway`).
        let named = mentioned
            || self
                .processes
                .names
                .iter()
                .chain(&self.processes.programs)
                .any(|n| {
                    let base = n.rsplit('/').next().unwrap_or(n);
                    !n.contains(' ') && lower.contains(&base.to_lowercase())
                });
        let searched = parsed
            .commands
            .iter()
            .any(|c| signals::searches(c, &self.processes));
        for c in &parsed.commands {
            note(
                signals::aimed(c, &self.processes, searched, named)
                    .map(|(certainty, detail)| Finding { certainty, detail }),
            );
            for touch in operands::touches(c) {
                if !budget.charge(self.compare_cost(touch.text)) {
                    return;
                }
                note(self.touched(&c.name, &touch, known_cwd(&c.cwd), mentioned));
            }
            if mentioned && operands::is_interpreter(c) {
                note(Some(Finding {
                    certainty: Certainty::Maybe,
                    detail: format!(
                        "`{}` runs a program that names hookgate's files; hookgate cannot \
                         tell what it does with them",
                        c.name
                    ),
                }));
            }
        }
    }
}
