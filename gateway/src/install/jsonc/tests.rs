//! Tests of `jsonc.rs`.

use super::*;

const GEMINI: Accepts = Accepts {
    comments: true,
    ..Accepts::JSON
};

#[test]
fn plain_json_with_or_without_a_bom() {
    let parsed = parse("{\"a\": 1}", Accepts::JSON).unwrap();
    assert!(parsed.plain && !parsed.bom);
    let qwen = Accepts {
        bom: true,
        ..GEMINI
    };
    let parsed = parse("\u{feff}{\"a\": 1}", qwen).unwrap();
    assert!(parsed.plain && parsed.bom);
    assert_eq!(parsed.root.get("a"), Some(&Json::uint(1)));
    let err = parse("\u{feff}{}", GEMINI).unwrap_err();
    assert!(err.to_string().contains("byte-order mark"), "{err}");
}

#[test]
fn refusals_say_what_is_wrong_and_where() {
    let cases = [
        ("// mine\n{}", Accepts::JSON, "has comments"),
        ("{\"a\": 1,}", Accepts::JSON, "has trailing commas"),
        ("{\"a\": 1,}", GEMINI, "has trailing commas"),
        ("{\"a\": }", GEMINI, "line 1, column"),
        ("{\n\"a\" 1}", Accepts::JSON, "line 2, column"),
    ];
    for (text, accepts, expected) in cases {
        let err = parse(text, accepts).unwrap_err().to_string();
        assert!(err.contains(expected), "{text:?}: {err}");
        assert!(!err.contains("comments are not supported"), "{err}");
    }
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    let err = parse(&deep, Accepts::JSON).unwrap_err().to_string();
    assert!(err.contains("nested 129 levels deep"), "{err}");
    // Brackets in strings and comments do not count.
    let quoted = format!("{{\"a\": \"{}\"}} // {}", "[".repeat(300), "{".repeat(300));
    assert!(parse(&quoted, GEMINI).is_ok());
}

#[test]
fn comments_are_read_where_the_agent_reads_them() {
    let text = "{\n  // the model\n  \"model\": \"x\", /* inline */ \"n\": 2\n}\n";
    let parsed = parse(text, GEMINI).unwrap();
    assert!(!parsed.plain);
    let keys: Vec<&str> = match &parsed.root {
        Json::Object(members) => members.iter().map(|(k, _)| k.as_str()).collect(),
        _ => panic!(),
    };
    assert_eq!(keys, ["model", "n"]);
}
