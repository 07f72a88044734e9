//! Starting the HTTP hook endpoint: its token, the port (the one the
//! service manager passed, else bound here), and what a port another user
//! holds means for the start (the socket is served anyway).

use std::net::SocketAddr;

use anyhow::Context as _;
use tokio::net::TcpListener;

use crate::admin::document::StatusSource;
use crate::http::{self, Token};
use hookgate_config::HttpConfig;
use hookgate_transport::Listener;

/// The HTTP hook endpoint: its token first, so a bad token file stops the
/// start before it listens; bound before the admin socket, so a client
/// that sees the admin socket can reach it too. The port the service
/// manager holds for it (socket activation) is taken over rather than
/// bound; a port someone else holds is an error naming them.
pub(super) async fn bind_http(
    http: &HttpConfig,
    listener: &Listener,
    source: &StatusSource,
) -> anyhow::Result<(TcpListener, Token, HttpConfig)> {
    let token_path = http::token::token_path(listener.path())?;
    let token = http::token::load_or_create(&token_path)
        .with_context(|| format!("HTTP hook token {}", token_path.display()))?;
    let bound = match inherited_http(http.listen)? {
        Some(bound) => bound,
        None => http::port::bind(http.listen).await?,
    };
    let _ = source.http_addr.set(bound.local_addr()?);
    Ok((bound, token, http.clone()))
}

/// The HTTP endpoint, or none when another user holds its port: the
/// agents' HTTP hooks reach that user whether this gateway runs or not, so
/// the shims' socket is served anyway (an ERROR line names the holder and
/// `gateway doctor` reports it) rather than letting a squatter take the
/// command hooks down too. Any other failure stops the start.
pub(super) fn serve_http_unless_squatted(
    bound: anyhow::Result<(TcpListener, Token, HttpConfig)>,
) -> anyhow::Result<Option<(TcpListener, Token, HttpConfig)>> {
    match bound {
        Ok(endpoint) => Ok(Some(endpoint)),
        Err(err)
            if matches!(
                err.downcast_ref::<http::port::PortError>(),
                Some(http::port::PortError::TakenByOther { .. })
            ) =>
        {
            tracing::error!("{err:#}; serving command hooks (the socket) only");
            Ok(None)
        }
        Err(err) => Err(err),
    }
}

/// The HTTP hook port's socket systemd passed (`hookgate-http.socket`), if
/// any.
#[cfg(unix)]
fn inherited_http(configured: SocketAddr) -> anyhow::Result<Option<TcpListener>> {
    let Some((std, addr)) =
        hookgate_transport::inherited_http().context("socket activation of the HTTP hook port")?
    else {
        return Ok(None);
    };
    tracing::info!(http = %addr, "socket activation: serving the inherited HTTP hook port");
    if addr != configured {
        tracing::info!(
            inherited = %addr,
            configured = %configured,
            "serving the HTTP port systemd passed, not the one in [http] listen"
        );
    }
    Ok(Some(TcpListener::from_std(std)?))
}

#[cfg(not(unix))]
fn inherited_http(_configured: SocketAddr) -> anyhow::Result<Option<TcpListener>> {
    Ok(None)
}
