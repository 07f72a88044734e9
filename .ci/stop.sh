# Sourced: `stop_processes PID...` ends each process and waits for it.
# A gateway writes its state on the way out, so removing its directory
# right after the kill can fail ("Directory not empty"): each gets SIGTERM,
# then up to 10 s to exit, then SIGKILL.
stop_processes() {
    local pid
    for pid in "$@"; do kill "$pid" 2>/dev/null || true; done
    for pid in "$@"; do
        for _ in $(seq 1 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}
