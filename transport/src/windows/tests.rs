//! The named pipe backend on a real pipe (Windows, or Wine).

use std::io;
use std::path::Path;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::*;
use crate::testing::{private_tempdir, socket_path};

/// The name rules are `hookgate_wire::socket::is_pipe_name`'s (tested
/// there); this checks only the `Path` wrapper around it.
#[test]
fn pipe_names() {
    assert!(is_pipe_name(Path::new(r"\\.\pipe\hookgate-ada\gateway")));
    assert!(!is_pipe_name(Path::new(r"C:\run\gateway.sock")));
}

#[test]
fn our_user_is_a_sid() {
    let us = UserSid::current().unwrap();
    assert_eq!(UserSid::of_process(std::process::id()).unwrap(), us);
    assert!(us.to_string().starts_with("S-1-"), "{us}");
    OwnerOnly::new(&us).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_our_own_user_one_instance_after_another() {
    let dir = private_tempdir();
    let path = socket_path(&dir, "gateway");
    let listener = Listener::bind(&path).await.unwrap();
    // More clients than one instance: the next one is always listening.
    for round in 0..3u8 {
        let (client, accepted) = tokio::join!(connect(&path), listener.accept());
        let (mut client, mut served) = (client.unwrap(), accepted.unwrap());
        client.write_all(&[round; 3]).await.unwrap();
        let mut request = [0u8; 3];
        served.read_exact(&mut request).await.unwrap();
        assert_eq!(request, [round; 3]);
        // A reply written and dropped at once still reaches the client.
        served.write_all(b"reply").await.unwrap();
        served.shutdown().await.unwrap();
        drop(served);
        let mut reply = Vec::new();
        client.read_to_end(&mut reply).await.unwrap();
        assert_eq!(reply, b"reply");
    }
    let err = connect(&socket_path(&dir, "absent")).await.unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::NotFound);
    assert_eq!(err.to_string(), "no such pipe");
}

#[tokio::test]
async fn refuses_a_live_gateway_and_names_that_are_not_pipes() {
    let dir = private_tempdir();
    let path = socket_path(&dir, "gateway");
    let first = Listener::bind(&path).await.unwrap();
    let err = Listener::bind(&path).await.unwrap_err();
    assert!(matches!(err, BindError::AlreadyRunning(_)), "{err}");
    drop(first);
    Listener::bind(&path).await.unwrap();

    let file = dir.path().join("gateway.sock");
    let err = Listener::bind(&file).await.unwrap_err();
    assert!(matches!(err, BindError::NotAPipe(_)), "{err}");
}

/// A client that connects and leaves before `accept` gets to its instance
/// (a shim that gave up while the accept loop waited for a slot) is no
/// accept failure, and the next client is served. (Windows reports that
/// instance as `ERROR_NO_DATA`; Wine hands it out as a connection that
/// reads nothing, as a Unix socket would.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_gone_before_accept_is_no_accept_failure() {
    let dir = private_tempdir();
    let path = socket_path(&dir, "gateway");
    let listener = Listener::bind(&path).await.unwrap();
    drop(connect(&path).await.unwrap());
    let next = tokio::spawn({
        let path = path.clone();
        async move {
            let mut client = connect(&path).await.unwrap();
            client.write_all(b"next").await.unwrap();
            client
        }
    });
    let mut request = [0u8; 4];
    for _ in 0..2 {
        let mut served = listener.accept().await.unwrap();
        if served.read_exact(&mut request).await.is_ok() {
            break;
        }
    }
    assert_eq!(&request, b"next");
    drop(next.await.unwrap());
}
