//! Round trips and rejections of the frame format, over the public API and
//! the field codec.

use crate::codec::{put_bytes, put_u32};
use crate::*;

fn header_of(frame: &[u8]) -> [u8; HEADER_LEN] {
    let mut header = [0u8; HEADER_LEN];
    header.copy_from_slice(&frame[..HEADER_LEN]);
    header
}

fn sample_request() -> Request {
    Request {
        args: vec!["claude-code".into()],
        cwd: "/home/dev/acme".into(),
        env: vec![("CLAUDE_PROJECT_DIR".into(), "/home/dev/acme".into())],
        stdin: br#"{"hook_event_name":"PreToolUse"}"#.to_vec(),
    }
}

#[test]
fn request_round_trips() {
    let request = sample_request();
    let frame = request.encode();
    let header = Header::decode(&header_of(&frame), MAX_REQUEST_BODY).unwrap();
    assert_eq!(header.kind, FrameKind::Request);
    assert_eq!(header.body_len, frame.len() - HEADER_LEN);
    assert_eq!(Request::decode(&frame[HEADER_LEN..]).unwrap(), request);
}

#[test]
fn negative_exit_codes_survive() {
    let reply = Reply {
        exit_code: -1,
        ..Reply::default()
    };
    let frame = reply.encode();
    assert_eq!(Reply::decode(&frame[HEADER_LEN..]).unwrap().exit_code, -1);
}

#[test]
fn bad_headers_are_rejected() {
    let frame = sample_request().encode();
    let mut header = header_of(&frame);
    header[0] = b'X';
    assert_eq!(
        Header::decode(&header, MAX_REQUEST_BODY),
        Err(WireError::BadMagic)
    );

    let mut header = header_of(&frame);
    header[4] = 9;
    assert_eq!(
        Header::decode(&header, MAX_REQUEST_BODY),
        Err(WireError::UnsupportedVersion(9))
    );

    let mut header = header_of(&frame);
    header[5] = 7;
    assert_eq!(
        Header::decode(&header, MAX_REQUEST_BODY),
        Err(WireError::UnknownKind(7))
    );

    let header = header_of(&frame);
    assert!(matches!(
        Header::decode(&header, 4),
        Err(WireError::TooLarge { max: 4, .. })
    ));
    assert_eq!(
        Header::decode(&header, MAX_REQUEST_BODY)
            .unwrap()
            .expect(FrameKind::Reply),
        Err(WireError::UnexpectedKind(FrameKind::Request))
    );
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    let frame = sample_request().encode();
    let body = &frame[HEADER_LEN..];
    for cut in 0..body.len() {
        assert!(Request::decode(&body[..cut]).is_err(), "cut at {cut}");
    }
    let mut long = body.to_vec();
    long.push(0);
    assert_eq!(Request::decode(&long), Err(WireError::TrailingBytes));
}

#[test]
fn huge_claimed_lengths_do_not_allocate() {
    let mut body = Vec::new();
    put_u32(&mut body, u32::MAX);
    assert_eq!(
        Request::decode(&body),
        Err(WireError::TooManyItems(u32::MAX as usize))
    );
    let mut body = Vec::new();
    put_u32(&mut body, 0);
    put_u32(&mut body, u32::MAX);
    assert_eq!(Request::decode(&body), Err(WireError::Truncated));
}

#[test]
fn non_utf8_text_is_rejected() {
    let mut body = Vec::new();
    put_u32(&mut body, 1);
    put_bytes(&mut body, &[0xff, 0xfe]);
    assert_eq!(Request::decode(&body), Err(WireError::NotUtf8));
}

#[test]
fn a_replys_body_len_is_its_encoded_body() {
    let reply = crate::Reply {
        exit_code: 2,
        stdout: b"{}\n".to_vec(),
        stderr: b"no".to_vec(),
    };
    assert_eq!(reply.body_len(), reply.encode().len() - crate::HEADER_LEN);
    assert_eq!(crate::Reply::default().body_len(), 12);
}

#[test]
fn ack_frames_are_bare_headers() {
    let frame = FrameKind::ack_frame();
    assert_eq!(frame.len(), HEADER_LEN);
    let header = Header::decode(&header_of(&frame), 0).unwrap();
    assert_eq!(header.kind, FrameKind::Ack);
    assert_eq!(header.body_len, 0);
    assert_eq!(header.expect(FrameKind::Ack), Ok(header));
}

#[test]
fn hold_round_trips_and_is_strict() {
    let frame = Hold { wait_ms: 90_000 }.encode();
    let header = Header::decode(&header_of(&frame), MAX_REPLY_BODY).unwrap();
    assert_eq!(header.kind, FrameKind::Hold);
    assert_eq!(header.body_len, Hold::BODY_LEN);
    assert_eq!(
        Hold::decode(&frame[HEADER_LEN..]).unwrap(),
        Hold { wait_ms: 90_000 }
    );
    assert_eq!(Hold::decode(&[0, 0]), Err(WireError::Truncated));
    assert_eq!(
        Hold::decode(&[0, 0, 0, 1, 9]),
        Err(WireError::TrailingBytes)
    );
    // An older reader refuses it by kind, never misreads it as a reply.
    let header = Header::decode(&header_of(&frame), MAX_REPLY_BODY).unwrap();
    assert_eq!(
        header.expect(FrameKind::Reply),
        Err(WireError::UnexpectedKind(FrameKind::Hold))
    );
}
