//! Subscribers that ship inside the gateway: `audit` (a masked JSON-lines
//! log) and `guard` (regex deny rules), configured like remote ones.

pub mod audit;
pub mod auditlog;
pub mod guard;
pub mod mask;
