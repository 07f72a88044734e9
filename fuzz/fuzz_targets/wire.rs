//! Any bytes as a frame header and as request and reply bodies: the
//! decoders (the gateway's and the shim's view of a peer's bytes) never
//! panic, never allocate what a header merely claims, and what decodes
//! encodes back to the same body.

#![no_main]

use hookgate_wire::{HEADER_LEN, Header, MAX_REQUEST_BODY, Reply, ReplyFrame as _, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(header) = data.get(..HEADER_LEN) {
        let header: [u8; HEADER_LEN] = header.try_into().unwrap_or([0; HEADER_LEN]);
        let _ = Header::decode(&header, MAX_REQUEST_BODY);
    }
    if let Ok(request) = Request::decode(data) {
        assert_eq!(&request.encode()[HEADER_LEN..], data, "request round trip");
    }
    if let Ok(reply) = Reply::decode(data) {
        assert_eq!(&reply.encode()[HEADER_LEN..], data, "reply round trip");
    }
});
