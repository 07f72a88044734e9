//! Tests of `operands.rs`.

use super::*;

fn simple(line: &str) -> Simple {
    let mut words = line.split(' ');
    Simple {
        name: words.next().unwrap_or_default().to_owned(),
        args: words.map(Word::literal).collect(),
        ..Simple::default()
    }
}

fn writes(line: &str) -> Vec<(String, Option<Certainty>, bool)> {
    let c = simple(line);
    touches(&c)
        .into_iter()
        .map(|t| (t.text.to_owned(), t.write, t.whole))
        .collect()
}

#[test]
fn operands_are_read_or_written_as_the_command_does() {
    use Certainty::{Maybe, Sure};
    assert_eq!(
        writes("cat a b"),
        [("a".into(), None, false), ("b".into(), None, false)]
    );
    assert_eq!(
        writes("cp -r a b"),
        [("a".into(), None, true), ("b".into(), Some(Sure), false)]
    );
    assert_eq!(
        writes("mv a b"),
        [
            ("a".into(), Some(Sure), true),
            ("b".into(), Some(Sure), true)
        ]
    );
    assert_eq!(
        writes("sed -i s/x/y/ f")[1],
        ("f".into(), Some(Sure), false)
    );
    assert_eq!(writes("sed s/x/y/ f")[1], ("f".into(), None, false));
    assert_eq!(writes("mytool f"), [("f".into(), Some(Maybe), false)]);
    assert_eq!(writes("git diff f"), [("f".into(), None, false)]);
    assert_eq!(
        writes("git checkout -- f"),
        [("f".into(), Some(Maybe), false)]
    );
    assert_eq!(writes("sudo rm f"), []);
    assert_eq!(writes("grep -r x d")[1], ("d".into(), None, true));
    assert_eq!(
        writes("curl --output=f u")[..2],
        [
            ("u".into(), Some(Maybe), false),
            ("f".into(), Some(Maybe), false)
        ]
    );
}
