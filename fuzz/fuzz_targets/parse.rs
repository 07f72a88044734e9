//! Any bytes, as every dialect: `parse` returns an event or an error and
//! never panics, whatever the nesting, escapes or encoding.

#![no_main]

use hookgate_adapters::{Dialect, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for dialect in Dialect::ALL {
        let _ = parse(dialect, data);
    }
});
