//! C programs compiled in the run with the system's `cc`: a static no-op
//! (the cheapest process a static binary can be, the shim's true floor)
//! and an independent `posix_spawn` timing loop written without any of
//! the bench's Rust code, to check section 1's figures against.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};

/// `int main(void) { return 0; }`, linked statically.
const NOOP_C: &str = "int main(void) { return 0; }\n";

/// The independent loop: `spawnloop RUNS WARMUP PAYLOAD -- [VAR=value...]
/// PROGRAM ARGS... -- ...`. Each round spawns every command once, in a new
/// shuffled order; stdin is the payload file, stdout a pipe read to EOF,
/// stderr /dev/null. Prints one line per measured run: the command's index
/// and the time in nanoseconds (the bench takes the medians, over several
/// calls interleaved with its own loop).
const SPAWNLOOP_C: &str = r#"#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
extern char **environ;
/*SHUFFLE*/
typedef struct { char **argv; char **envp; } cmd_t;
static long long now_ns(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage: spawnloop RUNS WARMUP PAYLOAD -- CMD...\n"); return 2; }
  int runs = atoi(argv[1]), warmup = atoi(argv[2]);
  const char *payload = argv[3];
  int nenv = 0; while (environ[nenv]) nenv++;
  cmd_t cmds[32]; int n = 0;
  for (int i = 4; i < argc; i++) {
    if (strcmp(argv[i], "--") != 0) continue;
    argv[i] = NULL;
    if (i + 1 >= argc || n == 32) continue;
    int j = i + 1, extra = 0;
    while (j < argc && strchr(argv[j], '=') && strcmp(argv[j], "--")) { j++; extra++; }
    char **envp = calloc((size_t)(nenv + extra + 1), sizeof(char *));
    for (int k = 0; k < extra; k++) envp[k] = argv[i + 1 + k];
    for (int k = 0; k < nenv; k++) envp[extra + k] = environ[k];
    cmds[n].argv = &argv[j]; cmds[n].envp = envp; n++;
  }
  int in = open(payload, O_RDONLY | O_CLOEXEC);
  int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (in < 0 || devnull < 0 || n == 0) { perror("spawnloop: setup"); return 2; }
  long long *samples = calloc((size_t)runs * (size_t)n, sizeof(long long));
  char buf[65536];
  int order[32]; unsigned seed = 0x9e3779b9u;
  for (int k = 0; k < n; k++) order[k] = k;
  for (int r = 0; r < warmup + runs; r++) {
    shuffle(order, n, &seed);
    for (int k = 0; k < n; k++) {
      int v = order[k];
      int p[2];
      if (pipe2(p, O_CLOEXEC) != 0) { perror("spawnloop: pipe"); return 2; }
      lseek(in, 0, SEEK_SET);
      posix_spawn_file_actions_t fa;
      posix_spawn_file_actions_init(&fa);
      posix_spawn_file_actions_adddup2(&fa, in, 0);
      posix_spawn_file_actions_adddup2(&fa, p[1], 1);
      posix_spawn_file_actions_adddup2(&fa, devnull, 2);
      pid_t pid; int status;
      long long t0 = now_ns();
      if (posix_spawn(&pid, cmds[v].argv[0], &fa, NULL, cmds[v].argv, cmds[v].envp) != 0) {
        perror("spawnloop: posix_spawn"); return 2;
      }
      close(p[1]);
      while (read(p[0], buf, sizeof buf) > 0) {}
      waitpid(pid, &status, 0);
      long long t = now_ns() - t0;
      close(p[0]);
      posix_spawn_file_actions_destroy(&fa);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "spawnloop: %s exited %d\n", cmds[v].argv[0], status); return 3;
      }
      if (r >= warmup) samples[(size_t)v * (size_t)runs + (size_t)(r - warmup)] = t;
    }
  }
  for (int k = 0; k < n; k++) {
    for (int r = 0; r < runs; r++) printf("%d %lld\n", k, samples[(size_t)k * (size_t)runs + (size_t)r]);
  }
  return 0;
}
"#;

/// The C loops' one shuffle, spliced in for `/*SHUFFLE*/`: a new order
/// every round (Fisher-Yates over a fixed-seed LCG, as `Shuffle` in Rust),
/// so no command always follows the same one and none inherits a fixed
/// predecessor's aftermath.
pub(crate) const SHUFFLE_C: &str = "static void shuffle(int *order, int n, unsigned *seed) {
  for (int k = n - 1; k > 0; k--) {
    *seed = *seed * 1103515245u + 12345u;
    int j = (int)((*seed >> 8) % (unsigned)(k + 1));
    int t = order[k]; order[k] = order[j]; order[j] = t;
  }
}";

/// The compiled programs and the commands that built them.
#[derive(Debug)]
pub(crate) struct Native {
    pub(crate) noop: PathBuf,
    pub(crate) spawnloop: PathBuf,
    pub(crate) cc_version: String,
    pub(crate) noop_build: String,
    _dir: tempfile::TempDir,
}

impl Native {
    /// Compiles both programs into a fresh directory, installing a C
    /// compiler and static glibc with apt-get first when `cc` is missing.
    pub(crate) fn build() -> anyhow::Result<Native> {
        let dir = tempfile::tempdir().context("creating the C build directory")?;
        let noop = compile(dir.path(), "noop", NOOP_C, &["-static", "-O2"])?;
        let spawnloop = compile(dir.path(), "spawnloop", SPAWNLOOP_C, &["-O2"])?;
        let output = Command::new("cc")
            .arg("--version")
            .output()
            .context("running cc --version")?;
        let cc_version = String::from_utf8_lossy(&output.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_owned();
        Ok(Native {
            noop,
            spawnloop,
            cc_version,
            noop_build: "cc -static -O2 -o noop noop.c".to_owned(),
            _dir: dir,
        })
    }
}

pub(crate) fn compile(
    dir: &Path,
    name: &str,
    source: &str,
    flags: &[&str],
) -> anyhow::Result<PathBuf> {
    ensure_cc()?;
    let c = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&c, source.replace("/*SHUFFLE*/", SHUFFLE_C))
        .with_context(|| format!("writing {}", c.display()))?;
    let output = Command::new("cc")
        .args(flags)
        .arg("-o")
        .arg(&exe)
        .arg(&c)
        .output()
        .context("running cc")?;
    if !output.status.success() {
        bail!(
            "cc {flags:?} {name}.c failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(exe)
}

/// Installs gcc and the static C library when `cc` is not on PATH (every
/// C program the bench compiles goes through [`compile`]).
fn ensure_cc() -> anyhow::Result<()> {
    if Command::new("cc").arg("--version").output().is_ok() {
        return Ok(());
    }
    crate::baselines::apt_install(
        &["gcc", "libc6-dev"],
        "the C no-op and the spawn loop need cc",
    )
}
