//! One row of `observations` or `memories`: the two tables share their
//! columns (the keys, a kind, a text, a time), so a raw observation and
//! the memories that replace it are written by one statement.

use rusqlite::Connection;

/// The tables whose rows are entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Table {
    Observations,
    Memories,
}

impl Table {
    fn insert_sql(self) -> &'static str {
        match self {
            Table::Observations => {
                "INSERT INTO observations (project, agent, session, kind, text, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
            }
            Table::Memories => {
                "INSERT INTO memories (project, agent, session, kind, text, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
            }
        }
    }
}

/// What one row holds (the text already cut to its table's bound).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<'a> {
    pub project: &'a str,
    pub agent: &'a str,
    pub session: &'a str,
    /// An [`ObservationKind`](crate::ObservationKind) or a
    /// [`MemoryKind`](crate::MemoryKind), as stored.
    pub kind: &'static str,
    pub text: &'a str,
    /// Milliseconds since the Unix epoch.
    pub at_ms: i64,
}

impl Entry<'_> {
    /// Adds this entry to `table` (`conn` may be a transaction).
    pub(crate) fn insert(&self, conn: &Connection, table: Table) -> rusqlite::Result<()> {
        conn.execute(
            table.insert_sql(),
            rusqlite::params![
                self.project,
                self.agent,
                self.session,
                self.kind,
                self.text,
                self.at_ms
            ],
        )?;
        Ok(())
    }
}
