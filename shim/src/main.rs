//! gateway-shim: the hook command. IMPLEMENT.

fn main() {}
