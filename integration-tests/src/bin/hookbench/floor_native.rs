//! Section "Floor"'s independent client: a C program compiled in the run
//! that speaks the documented wire frame (a 10-byte header: "HKGT",
//! version, kind, body length u32 big endian; then the body) on a fresh
//! AF_UNIX connection per request, as the shim does, and HTTP/1.1 on one
//! keep-alive loopback connection per target; none of the bench's Rust,
//! so a harness artefact in either shows up as a disagreement.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use anyhow::{Context as _, bail};

/// `floorclient RUNS WARMUP IDLE_US FRAME_FILE HTTP_FILE TARGET...`, a
/// target being `u:SOCKET_PATH` or `t:PORT`. Each round calls every target
/// once in a new shuffled order, sleeping IDLE_US before each call
/// (untimed); prints one line per measured call: the target's index and
/// the nanoseconds from connect (AF_UNIX) or write (HTTP) to the last
/// byte of the answer.
const FLOORCLIENT_C: &str = r#"#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
/*SHUFFLE*/
static long long now_ns(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb"); if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n); if (fread(b, 1, (size_t)n, f) != (size_t)n) exit(2);
  fclose(f); *len = (size_t)n; return b;
}
static int full_write(int fd, const char *b, size_t n) {
  while (n) { ssize_t w = write(fd, b, n); if (w <= 0) return -1; b += w; n -= (size_t)w; }
  return 0;
}
static int full_read(int fd, char *b, size_t n) {
  while (n) { ssize_t r = read(fd, b, n); if (r <= 0) return -1; b += r; n -= (size_t)r; }
  return 0;
}
static char reply[1 << 20];
/* One shim-like call: fresh connection, request frame, reply frame. */
static int unix_call(const char *path, const char *frame, size_t len) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un a; memset(&a, 0, sizeof a); a.sun_family = AF_UNIX;
  strncpy(a.sun_path, path, sizeof a.sun_path - 1);
  if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) return -1;
  if (full_write(fd, frame, len) || full_read(fd, reply, 10)) { close(fd); return -1; }
  if (memcmp(reply, "HKGT", 4) != 0 || reply[5] != 2) { close(fd); return -1; }
  unsigned body = ((unsigned char)reply[6] << 24) | ((unsigned char)reply[7] << 16) |
                  ((unsigned char)reply[8] << 8) | (unsigned char)reply[9];
  if (body > sizeof reply || full_read(fd, reply, body)) { close(fd); return -1; }
  close(fd);
  return 0;
}
/* One keep-alive exchange: the request, then headers and the body. */
static int http_call(int fd, const char *req, size_t len) {
  if (full_write(fd, req, len)) return -1;
  size_t have = 0; char *end = NULL;
  while (!end) {
    ssize_t r = read(fd, reply + have, sizeof reply - 1 - have);
    if (r <= 0) return -1;
    have += (size_t)r; reply[have] = 0;
    end = strstr(reply, "\r\n\r\n");
  }
  if (strncmp(reply, "HTTP/1.1 200", 12) != 0) return -1;
  char *cl = strcasestr(reply, "content-length:");
  if (!cl || cl > end) return -1;
  size_t want = (size_t)(end + 4 - reply) + strtoul(cl + 15, NULL, 10);
  if (want >= sizeof reply) return -1;
  while (have < want) {
    ssize_t r = read(fd, reply + have, want - have);
    if (r <= 0) return -1;
    have += (size_t)r;
  }
  return 0;
}
int main(int argc, char **argv) {
  if (argc < 7) { fprintf(stderr, "usage: floorclient RUNS WARMUP IDLE_US FRAME HTTP TARGET...\n"); return 2; }
  int runs = atoi(argv[1]), warmup = atoi(argv[2]);
  long idle_us = atol(argv[3]);
  size_t flen, hlen; char *frame = slurp(argv[4], &flen), *http = slurp(argv[5], &hlen);
  int n = argc - 6; if (n > 32) n = 32;
  int fds[32];
  for (int k = 0; k < n; k++) {
    const char *t = argv[6 + k]; fds[k] = -1;
    if (t[0] == 't') {
      struct sockaddr_in a; memset(&a, 0, sizeof a); a.sin_family = AF_INET;
      a.sin_port = htons((unsigned short)atoi(t + 2)); a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      fds[k] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      int one = 1; setsockopt(fds[k], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (connect(fds[k], (struct sockaddr *)&a, sizeof a) != 0) { perror("floorclient: connect"); return 2; }
    }
  }
  long long *samples = calloc((size_t)runs * (size_t)n, sizeof(long long));
  int order[32]; unsigned seed = 0x9e3779b9u;
  for (int k = 0; k < n; k++) order[k] = k;
  struct timespec idle = { idle_us / 1000000, (idle_us % 1000000) * 1000 };
  for (int r = 0; r < warmup + runs; r++) {
    shuffle(order, n, &seed);
    for (int k = 0; k < n; k++) {
      int v = order[k];
      if (idle_us > 0) nanosleep(&idle, NULL);
      long long t0 = now_ns();
      int rc = argv[6 + v][0] == 't' ? http_call(fds[v], http, hlen) : unix_call(argv[6 + v] + 2, frame, flen);
      long long t = now_ns() - t0;
      if (rc != 0) { fprintf(stderr, "floorclient: call to %s failed\n", argv[6 + v]); return 3; }
      if (r >= warmup) samples[(size_t)v * (size_t)runs + (size_t)(r - warmup)] = t;
    }
  }
  for (int k = 0; k < n; k++)
    for (int r = 0; r < runs; r++) printf("%d %lld\n", k, samples[(size_t)k * (size_t)runs + (size_t)r]);
  return 0;
}
"#;

/// A target of the C client.
#[derive(Debug, Clone)]
pub(crate) enum Target {
    /// A fresh AF_UNIX connection per request.
    Unix(PathBuf),
    /// One keep-alive loopback HTTP connection.
    Http(u16),
}

/// The compiled client and the request bytes it sends.
#[derive(Debug)]
pub(crate) struct FloorClient {
    exe: PathBuf,
    frame: PathBuf,
    http: PathBuf,
    pub(crate) build: String,
    _dir: tempfile::TempDir,
}

impl FloorClient {
    /// Compiles the client; `frame` and `http` are the exact bytes of one
    /// request on each door (the bench's own clients send the same).
    pub(crate) fn build(frame: &[u8], http: &[u8]) -> anyhow::Result<FloorClient> {
        let dir = tempfile::tempdir().context("creating the C client's directory")?;
        let exe = crate::native::compile(dir.path(), "floorclient", FLOORCLIENT_C, &["-O2"])?;
        let (frame_path, http_path) = (dir.path().join("frame.bin"), dir.path().join("http.bin"));
        std::fs::write(&frame_path, frame).context("writing the request frame")?;
        std::fs::write(&http_path, http).context("writing the HTTP request")?;
        Ok(FloorClient {
            exe,
            frame: frame_path,
            http: http_path,
            build: "cc -O2 -o floorclient floorclient.c".to_owned(),
            _dir: dir,
        })
    }

    /// `runs` measured rounds after `warmup`, `idle` before each call;
    /// appends each target's times to its series in `samples`.
    pub(crate) fn run(
        &self,
        targets: &[Target],
        (runs, warmup, idle): (usize, usize, Duration),
        samples: &mut [Vec<Duration>],
    ) -> anyhow::Result<()> {
        let mut command = Command::new(&self.exe);
        command
            .arg(runs.to_string())
            .arg(warmup.to_string())
            .arg(idle.as_micros().to_string())
            .arg(&self.frame)
            .arg(&self.http);
        for target in targets {
            command.arg(match target {
                Target::Unix(path) => format!("u:{}", path.display()),
                Target::Http(port) => format!("t:{port}"),
            });
        }
        let output = command.output().context("running the C client")?;
        if !output.status.success() {
            bail!(
                "the C client failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            );
        }
        for (index, time) in
            crate::crosscheck::parse(&String::from_utf8_lossy(&output.stdout), targets.len())?
        {
            if let Some(series) = samples.get_mut(index) {
                series.push(time);
            }
        }
        Ok(())
    }
}
