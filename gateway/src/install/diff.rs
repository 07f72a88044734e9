//! A line diff for `--dry-run`: what install or uninstall would change, in
//! unified-diff style (`-` removed, `+` added, two lines of context).

/// Above this many line pairs the diff is not worth computing: the whole
/// old and new text are shown instead.
const MAX_CELLS: usize = 4_000_000;
const CONTEXT: usize = 2;

/// The diff from `before` to `after` (`None`: no file), headed by `name`.
pub(crate) fn unified(name: &str, before: Option<&str>, after: Option<&str>) -> String {
    let old: Vec<&str> = before.map(|t| t.lines().collect()).unwrap_or_default();
    let new: Vec<&str> = after.map(|t| t.lines().collect()).unwrap_or_default();
    let from = if before.is_some() { name } else { "/dev/null" };
    let to = if after.is_some() { name } else { "/dev/null" };
    let mut out = format!("--- {from}\n+++ {to}\n");
    let ops = if old.len().saturating_mul(new.len()) > MAX_CELLS {
        let mut ops: Vec<Op<'_>> = old.iter().map(|l| Op::Del(l)).collect();
        ops.extend(new.iter().map(|l| Op::Add(l)));
        ops
    } else {
        lcs_ops(&old, &new)
    };
    let changed: Vec<usize> = (0..ops.len())
        .filter(|&i| !matches!(ops[i], Op::Same(_)))
        .collect();
    let mut last_shown: Option<usize> = None;
    for (i, op) in ops.iter().enumerate() {
        let near = changed.iter().any(|&c| c.abs_diff(i) <= CONTEXT);
        if !near {
            continue;
        }
        if last_shown.is_some_and(|l| l + 1 != i) {
            out.push_str("@@\n");
        }
        last_shown = Some(i);
        let (mark, line) = match op {
            Op::Same(l) => (' ', l),
            Op::Del(l) => ('-', l),
            Op::Add(l) => ('+', l),
        };
        out.push(mark);
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op<'a> {
    Same(&'a str),
    Del(&'a str),
    Add(&'a str),
}

/// The edit script of a longest common subsequence.
fn lcs_ops<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Op<'a>> {
    let (n, m) = (old.len(), new.len());
    // lengths[i][j]: LCS of old[i..] and new[j..].
    let mut lengths = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lengths[i][j] = if old[i] == new[j] {
                lengths[i + 1][j + 1] + 1
            } else {
                lengths[i + 1][j].max(lengths[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::with_capacity(n + m);
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            ops.push(Op::Same(old[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lengths[i + 1][j] >= lengths[i][j + 1]) {
            ops.push(Op::Del(old[i]));
            i += 1;
        } else {
            ops.push(Op::Add(new[j]));
            j += 1;
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs_show_changes_with_context() {
        let cases = [
            (
                Some("a\nb\nc\n"),
                Some("a\nb\nx\nc\n"),
                "--- f\n+++ f\n a\n b\n+x\n c\n",
            ),
            (None, Some("new\n"), "--- /dev/null\n+++ f\n+new\n"),
            (Some("old\n"), None, "--- f\n+++ /dev/null\n-old\n"),
            (
                Some("1\n2\n3\n4\n5\n6\n7\n8\n9\n"),
                Some("0\n2\n3\n4\n5\n6\n7\n8\n9!\n"),
                "--- f\n+++ f\n-1\n+0\n 2\n 3\n@@\n 7\n 8\n-9\n+9!\n",
            ),
        ];
        for (before, after, expected) in cases {
            assert_eq!(unified("f", before, after), expected);
        }
    }
}
