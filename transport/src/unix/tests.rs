//! Tests of the Unix backend: the directory and socket modes, foreign
//! and open directories refused, a stale socket replaced and a live
//! gateway refused, peers of another user refused and named.

use super::*;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[tokio::test]
async fn creates_a_private_dir_and_socket_and_removes_it() {
    let tmp = crate::testing::private_tempdir();
    let path = tmp.path().join("run").join("hookgate").join("gateway.sock");
    let listener = Listener::bind(&path).await.unwrap();
    assert_eq!(mode(path.parent().unwrap()), 0o700);
    assert_eq!(mode(&path), 0o600);
    assert!(
        std::fs::symlink_metadata(&path)
            .unwrap()
            .file_type()
            .is_socket()
    );
    drop(listener);
    assert!(!path.exists());
}

#[tokio::test]
async fn refuses_a_live_gateway_and_replaces_a_stale_socket() {
    let tmp = crate::testing::private_tempdir();
    let path = tmp.path().join("gateway.sock");
    let first = Listener::bind(&path).await.unwrap();
    let err = Listener::bind(&path).await.unwrap_err();
    assert!(matches!(err, BindError::AlreadyRunning(_)), "{err}");

    // A stale socket: bound, then its listener gone without cleanup.
    drop(first);
    let stale_path = tmp.path().join("stale.sock");
    drop(std::os::unix::net::UnixListener::bind(&stale_path).unwrap());
    assert!(stale_path.exists());
    let listener = Listener::bind(&stale_path).await.unwrap();
    assert_eq!(listener.path(), stale_path);
}

#[tokio::test]
async fn refuses_foreign_dirs_and_non_sockets() {
    let tmp = crate::testing::private_tempdir();
    let path = tmp.path().join("gateway.sock");
    let other_uid = current_uid().wrapping_add(1);
    let err = Listener::bind_as(&path, other_uid).await.unwrap_err();
    assert!(matches!(err, BindError::ForeignDir { .. }), "{err}");

    std::fs::write(&path, b"not a socket").unwrap();
    let err = Listener::bind(&path).await.unwrap_err();
    assert!(matches!(err, BindError::NotASocket(_)), "{err}");
    assert!(path.exists(), "a regular file is never removed");
}

#[tokio::test]
async fn refuses_a_dir_others_can_use() {
    let tmp = crate::testing::private_tempdir();
    let dir = tmp.path().join("shared");
    std::fs::create_dir(&dir).unwrap();
    for open in [0o750, 0o705, 0o755, 0o777] {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(open)).unwrap();
        let err = Listener::bind(&dir.join("gateway.sock")).await.unwrap_err();
        assert!(matches!(err, BindError::OpenDir { .. }), "{err}");
        assert!(err.to_string().contains("chmod 700"), "{err}");
    }
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    Listener::bind(&dir.join("gateway.sock")).await.unwrap();
}

#[tokio::test]
async fn serves_our_own_user_and_names_a_missing_socket() {
    let tmp = crate::testing::private_tempdir();
    let path = tmp.path().join("gateway.sock");
    let listener = Listener::bind(&path).await.unwrap();
    let (client, accepted) = tokio::join!(connect(&path), listener.accept());
    client.unwrap();
    accepted.unwrap();

    let err = connect(&tmp.path().join("absent.sock")).await.unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::NotFound);
    assert_eq!(err.to_string(), "no such socket");
}

#[tokio::test]
async fn a_peer_of_another_user_is_refused_and_named() {
    let tmp = crate::testing::private_tempdir();
    let path = tmp.path().join("gateway.sock");
    let mut listener = Listener::bind(&path).await.unwrap();
    // Serve another user: our own connection is then the foreign one.
    listener.uid = current_uid().wrapping_add(1);
    let (client, accepted) = tokio::join!(connect(&path), listener.accept());
    client.unwrap();
    match accepted {
        Err(AcceptError::Refused(Refused::ForeignPeer(peer))) => {
            assert_eq!(peer.uid, current_uid());
            assert_eq!(peer.pid, Some(std::process::id() as i32));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn drop_leaves_a_replaced_socket_alone() {
    let tmp = crate::testing::private_tempdir();
    let path = tmp.path().join("gateway.sock");
    let listener = Listener::bind(&path).await.unwrap();
    std::fs::remove_file(&path).unwrap();
    let _other = std::os::unix::net::UnixListener::bind(&path).unwrap();
    drop(listener);
    assert!(
        path.exists(),
        "someone else's socket must survive our shutdown"
    );
}
