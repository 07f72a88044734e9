//! A policy in Rego stops a real agent (issue #29): the built-in `rego`
//! subscriber, with a policy file that denies `terraform destroy` with a
//! reason of its own, behind a real gateway, under the real Claude Code and
//! Gemini CLI. In one session the model asks for `terraform destroy
//! -auto-approve; touch <mark>` (denied: the mark is never written, and
//! the next model request carries the policy's reason as the tool's
//! result), then for `terraform plan; touch <mark>` (allowed: its mark is
//! written, so the test cannot pass with everything denied).
//!
//! Neither line finds a `terraform` in the agent's sandbox: the `touch`
//! after `;` is what would run, so a mark on disk is exactly "the agent
//! ran the line".

use hookgate_adapters::Dialect;
use hookgate_integration_tests::fake_model::{RecordedRequest, Script, Step};
use hookgate_integration_tests::{TestGateway, private_dir};

use crate::flows::{ToolTexts, anthropic_tool_texts};
use crate::scenario::Marker;
use crate::support::run;

/// The policy's own reason, which the model must read.
const REASON: &str = "no terraform destroy (policy)";

/// Denies `terraform destroy` on the commands as the guard parses the line
/// (so `echo terraform destroy` or `terraform plan` go ahead).
const POLICY: &str = r#"package hookgate

decision := {"permission": "deny", "reason": "no terraform destroy (policy)"} if {
    some c in input.tool.commands
    c.name == "terraform"
    c.operands[0] == "destroy"
}
"#;

/// The gateway's config: only the `rego` subscriber (no guard, so nothing
/// else can deny), failing closed.
const CONFIG: &str = "[[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\n\
                      policy = [\"terraform.rego\"]\non_error = \"deny\"\n";

/// A gateway running [`POLICY`] from a file next to its config.
async fn policy_gateway() -> TestGateway {
    let dir = private_dir();
    std::fs::write(dir.path().join("terraform.rego"), POLICY).expect("write the policy file");
    TestGateway::start_in(dir, CONFIG, &[]).await
}

/// The scenario for `agent`, whose requests show tool results as
/// `tool_texts` says.
async fn destroy_is_stopped_and_plan_runs(agent: Dialect, tool_texts: ToolTexts) {
    let gateway = policy_gateway().await;
    let run = run(agent);
    let destroyed = Marker::in_work(&run, "destroyed-marker");
    let planned = Marker::in_work(&run, "planned-marker");
    let destroy = format!("terraform destroy -auto-approve; {}", destroyed.touch());
    let plan = format!("terraform plan; {}", planned.touch());
    let script = Script {
        turns: vec![
            Step::Shell { command: destroy },
            Step::Shell { command: plan },
            Step::Text {
                text: "Understood.".to_owned(),
            },
        ],
        side_text: "ok".to_owned(),
    };

    let outcome = run.socket(gateway.socket()).script(script).run().await;

    destroyed.assert_not_ran(&outcome, "the policy's deny did not stop the line");
    planned.assert_ran(&outcome, "the allowed line did not run");
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 3, "two tool turns and a final one\n{outcome}");
    let after_destroy = tool_texts(calls[1]);
    assert!(
        after_destroy.len() == 1 && after_destroy[0].contains(REASON),
        "the model must read the policy's reason as the tool's result: {after_destroy:?}\n{outcome}"
    );
    let after_plan = tool_texts(calls[2]);
    assert!(
        after_plan.len() == 2 && !after_plan[1].contains(REASON),
        "the second call's result is its own, not a deny: {after_plan:?}\n{outcome}"
    );
    // The gateway counted the policy's one deny and nothing it could not
    // evaluate (an error would have denied too, under `on_error`).
    let status = gateway.status_json().await;
    let policy = (status["subscribers"].as_array())
        .and_then(|subs| subs.iter().find(|s| s["name"] == "policy"))
        .unwrap_or_else(|| panic!("no policy subscriber in status: {status:#}"));
    assert!(
        policy["policy"]["revision"]
            .as_str()
            .is_some_and(|r| r.starts_with("sha256:")),
        "{policy:#}"
    );
    assert_eq!(policy["errors"], 0, "{policy:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_code_is_stopped_by_a_rego_policy_with_its_reason() {
    destroy_is_stopped_and_plan_runs(Dialect::ClaudeCode, anthropic_tool_texts).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gemini_cli_is_stopped_by_a_rego_policy_with_its_reason() {
    destroy_is_stopped_and_plan_runs(
        Dialect::GeminiCli,
        RecordedRequest::gemini_function_responses,
    )
    .await;
}
