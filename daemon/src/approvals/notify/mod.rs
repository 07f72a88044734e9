//! Telling people a call is held: each `approval` subscriber's webhooks
//! (`body`: generic JSON, Slack, ntfy) and desktop notification
//! (`desktop`: `notify-send`, `osascript`), off the hook path.
//!
//! The built-in hands a [`Notice`] to [`Notifier::send`], which never
//! waits: the notice goes into a bounded queue (full: counted as a failed
//! notification and dropped) read by one thread of the notifier's own,
//! which makes the requests one after the other, each bounded by its
//! webhook's `timeout_ms`, and runs the desktop program under a time
//! limit. A hold never waits for any of it. Notices carry the input
//! masked as the decision log masks it. The client is the one bundle
//! downloads use (`hookgate_policy::fetch::http_agent`: rustls, the system's
//! roots, no redirect, every request bounded in time). Webhook URLs (Slack's hold a
//! secret) are never logged, only their place in the list.

#![allow(
    clippy::disallowed_methods,
    reason = "the notifier's own thread, never the gateway's runtime: its waits block nothing else"
)]

mod body;
mod desktop;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::time::Duration;

use hookgate_config::{Notify, Webhook, WebhookFormat};

use super::HeldCall;
use crate::metrics::SubscriberStats;

/// Notices waiting for the thread; more are dropped (and counted).
const QUEUE: usize = 32;
/// The most of a webhook's answer read (it is not used).
const MAX_ANSWER_BYTES: u64 = 16 * 1024;

/// One held call, as notifications show it.
#[derive(Debug, Clone)]
pub(crate) struct Notice {
    pub(crate) call: HeldCall,
    /// How long the call is held at most.
    pub(crate) time_left: Duration,
}

/// One `approval`'s way to its notification thread.
#[derive(Debug)]
pub(crate) struct Notifier {
    queue: Option<SyncSender<Notice>>,
    stats: Arc<SubscriberStats>,
}

impl Notifier {
    /// A notifier for `notify`; no thread when it names nobody to tell
    /// (or one cannot be started: said once, then counted per notice).
    pub(crate) fn start(
        subscriber: &str,
        notify: &Notify,
        stats: Arc<SubscriberStats>,
    ) -> Notifier {
        if notify.webhooks.is_empty() && !notify.desktop {
            return Notifier { queue: None, stats };
        }
        stats.notify.active.store(true, Ordering::Relaxed);
        let (queue, notices) = std::sync::mpsc::sync_channel(QUEUE);
        let worker = Worker {
            subscriber: subscriber.to_owned(),
            notify: notify.clone(),
            stats: Arc::clone(&stats),
        };
        let started = std::thread::Builder::new()
            .name("hookgate-notify".to_owned())
            .spawn(move || worker.run(&notices));
        match started {
            Ok(_) => Notifier {
                queue: Some(queue),
                stats,
            },
            Err(err) => {
                tracing::warn!(subscriber, "cannot start the notification thread: {err}");
                Notifier {
                    queue: Some(std::sync::mpsc::sync_channel(0).0),
                    stats,
                }
            }
        }
    }

    /// Queues `notice`; never waits.
    pub(crate) fn send(&self, notice: Notice) {
        let Some(queue) = &self.queue else { return };
        match queue.try_send(notice) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.stats.notify.failed.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("a notification was dropped: the queue is full or closed");
            }
        }
    }
}

/// The thread's side.
struct Worker {
    subscriber: String,
    notify: Notify,
    stats: Arc<SubscriberStats>,
}

impl Worker {
    /// Until the notifier is dropped (a reload, the gateway stopping).
    fn run(self, notices: &Receiver<Notice>) {
        let agents: Vec<ureq::Agent> = self
            .notify
            .webhooks
            .iter()
            .map(|hook| hookgate_policy::fetch::http_agent(hook.timeout))
            .collect();
        while let Ok(notice) = notices.recv() {
            let console = self.notify.console_url.as_deref();
            for (i, (hook, agent)) in self.notify.webhooks.iter().zip(&agents).enumerate() {
                let outcome = post(agent, hook, &notice, console);
                self.count(outcome.map_err(|why| format!("webhook {i}: {why}")));
            }
            if self.notify.desktop {
                let text = body::text(&notice, console, body::DESKTOP_INPUT_BYTES);
                self.count(desktop::show(&body::title(&notice), &text));
            }
        }
    }

    fn count(&self, outcome: Result<(), String>) {
        match outcome {
            Ok(()) => self.stats.notify.sent.fetch_add(1, Ordering::Relaxed),
            Err(why) => {
                tracing::warn!(subscriber = %self.subscriber, "a notification failed: {why}");
                self.stats.notify.failed.fetch_add(1, Ordering::Relaxed)
            }
        };
    }
}

/// One POST of `notice` in the webhook's format; a 2xx answer is success.
fn post(
    agent: &ureq::Agent,
    hook: &Webhook,
    notice: &Notice,
    console: Option<&str>,
) -> Result<(), String> {
    let request = agent.post(&hook.url);
    let sent = match hook.format {
        WebhookFormat::Json => request
            .header("content-type", "application/json")
            .send(body::json(notice, console).to_string()),
        WebhookFormat::Slack => request
            .header("content-type", "application/json")
            .send(body::slack(notice, console).to_string()),
        WebhookFormat::Ntfy => {
            let request = request.header("title", body::title(notice));
            let request = match console {
                Some(url) => request.header("click", url),
                None => request,
            };
            request
                .header("content-type", "text/plain; charset=utf-8")
                .send(body::text(notice, console, super::MAX_INPUT_SHOWN))
        }
    };
    let mut answer = sent.map_err(|err| err.to_string())?;
    let status = answer.status().as_u16();
    // Read (a bounded part of) the answer so the connection can be reused.
    let _ = answer
        .body_mut()
        .with_config()
        .limit(MAX_ANSWER_BYTES)
        .read_to_vec();
    if (200..300).contains(&status) {
        Ok(())
    } else {
        Err(format!("HTTP {status}"))
    }
}
