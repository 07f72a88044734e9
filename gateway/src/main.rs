//! gateway: the hookgate daemon. IMPLEMENT.

fn main() {}
