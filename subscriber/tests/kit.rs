//! The test kit, and the crate through the real gateway and shim: every
//! agent's samples reach the handler typed, every agent's shell call carries
//! the parsed commands, and large payloads pass.
//!
//! The binaries are the ones `cargo test --workspace` built beside this
//! test (see `testing::binaries`).

use std::sync::{Arc, Mutex};

use hookgate_subscriber::testing::{Kit, samples, shell_call, shell_dialects};
use hookgate_subscriber::{Agent, Permission, Subscriber, context, deny, none};

fn no_destroy() -> Subscriber {
    Subscriber::new().on_pre_tool_use(|e| match e.runs("terraform", &["destroy"]) {
        true => deny("no terraform destroy"),
        false => none(),
    })
}

#[tokio::test]
async fn every_sample_of_every_agent_reaches_the_handler() {
    let every = samples(None).unwrap();
    for dir in ["claude-code", "cline", "codex", "cursor", "gemini-cli"] {
        assert!(every.iter().any(|s| s.directory == dir), "{dir}");
    }
    let kit = Kit::start(Subscriber::new().on_event(|_| none()))
        .await
        .unwrap();
    for sample in &every {
        let before = kit.events().len();
        let reply = kit.run(sample).await.unwrap();
        if sample.path() == "claude-code/WorktreeCreate.json" {
            // The hook replaces `git worktree add`: whatever the
            // subscribers say, hookgate answers that it cannot.
            assert_eq!(reply.exit_code, Some(1));
            assert!(
                reply.stderr.contains("cannot create worktrees"),
                "{reply:?}"
            );
        } else {
            assert_eq!(reply.exit_code, Some(0), "{}: {reply:?}", sample.path());
        }
        let events = kit.events();
        assert_eq!(
            events.len(),
            before + 1,
            "{}: the handler was not called",
            sample.path()
        );
        let event = events.last().unwrap();
        assert_ne!(event.agent, Agent::Unspecified, "{}", sample.path());
        assert!(!event.native_event.is_empty(), "{}", sample.path());
        let sent: serde_json::Value = serde_json::from_slice(&sample.payload).unwrap();
        let got: serde_json::Value = serde_json::from_str(&event.raw_json).unwrap();
        assert_eq!(got, sent, "{}", sample.path());
    }
    kit.stop().await;
}

#[tokio::test]
async fn a_shell_call_in_every_dialect_carries_its_parsed_commands() {
    let kit = Kit::start(no_destroy()).await.unwrap();
    let command = "cd infra && sudo terraform destroy -auto-approve";
    for dialect in shell_dialects().unwrap() {
        let reply = kit.shell(&dialect, command).await.unwrap();
        let events = kit.events();
        let event = events.last().unwrap();
        assert_eq!(event.command(), Some(command), "{dialect}");
        assert!(event.commands_resolved, "{dialect}");
        let names: Vec<&str> = event.commands.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["cd", "sudo", "terraform"], "{dialect}");
        let terraform = event.commands.last().unwrap();
        assert_eq!(terraform.operands[0], "destroy");
        assert!(
            terraform.cwd.as_deref().unwrap().ends_with("infra"),
            "{dialect}"
        );
        assert_eq!(
            kit.decisions().last().unwrap().permission,
            Some(Permission::Deny)
        );
        assert!(reply.says("no terraform destroy"), "{dialect}: {reply:?}");
    }
    kit.stop().await;
}

#[tokio::test]
async fn what_claude_code_cline_and_codex_receive() {
    let app = no_destroy().on_session_start(|_| context("hello from rust"));
    let kit = Kit::start(app).await.unwrap();
    for agent in ["claude-code", "codex"] {
        let reply = kit
            .shell(agent, "terraform destroy")
            .await
            .unwrap()
            .json()
            .unwrap();
        let specific = &reply["hookSpecificOutput"];
        assert_eq!(specific["permissionDecision"], "deny", "{agent}");
        assert_eq!(
            specific["permissionDecisionReason"], "no terraform destroy",
            "{agent}"
        );
        let start = kit
            .sample(&format!("{agent}/SessionStart"))
            .await
            .unwrap()
            .json()
            .unwrap();
        assert_eq!(
            start["hookSpecificOutput"]["additionalContext"],
            "hello from rust"
        );
    }
    let cline = kit
        .shell("cline", "terraform destroy")
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(
        cline,
        serde_json::json!({"context": "no terraform destroy", "overrideInput": {}})
    );
    let plan = kit.shell("claude-code", "terraform plan").await.unwrap();
    assert_eq!(plan.stdout, "", "no opinion: no output");
    kit.stop().await;
}

#[tokio::test]
async fn a_large_write_through_the_gateway_reaches_the_handler() {
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&sizes);
    let app = Subscriber::new().on_pre_tool_use(move |e| {
        let input = e.tool.as_ref().and_then(|t| t.input()).unwrap();
        seen.lock()
            .unwrap()
            .push(input["content"].as_str().unwrap().len());
        none()
    });
    let mut payload: serde_json::Value =
        serde_json::from_slice(&shell_call("claude-code", "true").unwrap().payload).unwrap();
    // The shim takes payloads up to 8 MiB.
    payload["tool_name"] = "Write".into();
    payload["tool_input"] =
        serde_json::json!({ "file_path": "big.txt", "content": "x".repeat(7 << 20) });
    let kit = Kit::start(app).await.unwrap();
    let reply = kit
        .run_raw(&["claude-code".into()], payload.to_string().as_bytes())
        .await
        .unwrap();
    assert_eq!(reply.exit_code, Some(0));
    kit.stop().await;
    assert_eq!(
        *sizes.lock().unwrap(),
        [7 << 20],
        "the event (~14 MiB) reached the handler"
    );
}

#[tokio::test]
async fn a_token_the_gateway_sends() {
    let app = Subscriber::new().on_event(|_| context("with a token"));
    let kit = Kit::start_with(app, Some("kit-secret")).await.unwrap();
    let start = kit
        .sample("claude-code/SessionStart")
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(
        start["hookSpecificOutput"]["additionalContext"],
        "with a token"
    );
    kit.stop().await;
}

#[tokio::test]
async fn a_handler_that_panics_fails_the_kit_call() {
    let kit = Kit::start(Subscriber::new().on_stop(|_| panic!("bad policy")))
        .await
        .unwrap();
    let failed = kit.sample("claude-code/Stop").await.unwrap_err();
    assert!(
        failed.to_string().contains("the handler panicked"),
        "{failed}"
    );
    kit.stop().await;
}
