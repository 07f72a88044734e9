//! Opening one new file from many connections at once, as the daemon's
//! writer, model thread and hook-path readers do when the first events of
//! a fresh install arrive together.

use std::sync::{Arc, Barrier};
use std::time::Duration;

use super::*;

#[test]
fn connections_opening_a_new_file_at_once_all_succeed() {
    for round in 0..200 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("memory.db");
        let start = Arc::new(Barrier::new(8));
        let threads: Vec<_> = (0..8)
            .map(|n| {
                let (path, start) = (path.clone(), Arc::clone(&start));
                std::thread::spawn(move || {
                    start.wait();
                    // A long wait: what failed was the switch to WAL
                    // refused at once, whatever the wait; a loaded machine
                    // must not fail the test by a wait run out.
                    let busy = Duration::from_secs(20);
                    let mut store = Store::open_with(&path, busy)?;
                    if n % 2 == 1 {
                        for i in 0..5 {
                            store.record(&Observation {
                                project: "/p".into(),
                                agent: "codex".into(),
                                session: format!("s{n}"),
                                kind: ObservationKind::Prompt,
                                text: format!("text {i}"),
                                at_ms: i,
                            })?;
                        }
                    }
                    Ok::<(), MemoryError>(())
                })
            })
            .collect();
        for thread in threads {
            let opened = thread.join().unwrap();
            assert!(opened.is_ok(), "round {round}: {opened:?}");
        }
    }
}
