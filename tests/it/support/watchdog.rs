//! Running the binary as a child under a watchdog: killed (and the test failed) when it runs
//! past its time, its peak resident memory sampled from `/proc/<pid>/status` while it runs.

#![allow(dead_code, reason = "each test file uses a part")]

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a watched run did.
#[derive(Debug)]
pub struct Run {
    /// The exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// Everything it printed on stdout.
    pub stdout: Vec<u8>,
    /// Everything it printed on stderr.
    pub stderr: Vec<u8>,
    /// The largest `VmHWM` seen (peak resident set), KiB; 0 where `/proc` is not there.
    pub peak_rss_kib: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// CPU time (user and system, every thread) of the child, read from its own
    /// `/proc/<pid>/stat` while it is a zombie, before it is reaped, so other tests' children
    /// running meanwhile in this process do not count; `None` where `/proc` is not there.
    pub cpu: Option<Duration>,
    /// The user part of `cpu`: what the child computed, without the system time the kernel
    /// charges it (a run that writes thousands of files is charged for writing back the files
    /// of the run before it, which moves its system time by seconds from run to run).
    pub user_cpu: Option<Duration>,
}

impl Run {
    /// stdout as text (lossy).
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// stderr as text (lossy).
    pub fn err(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// Fails unless the run exited 0 or 1 (findings or none) without a panic.
    pub fn assert_ran(&self, what: &str) {
        let err = self.err();
        assert!(
            !err.contains("panicked"),
            "{what}: the binary panicked:\n{err}"
        );
        assert!(
            matches!(self.code, Some(0 | 1)),
            "{what}: exit {:?}\nstderr:\n{err}",
            self.code
        );
    }
}

/// The binary under test, without colour and outside GitHub Actions.
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("RUST_BACKTRACE");
    c
}

fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The state letter and the CPU time (`utime` and `stime`, every thread) of process `pid`,
/// in clock ticks of 1/100 s, the unit Linux gives to user space.
fn cpu_ticks(pid: u32) -> Option<(char, u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; the fields after its `)` are fixed.
    let fields: Vec<&str> = stat
        .get(stat.rfind(')')? + 1..)?
        .split_whitespace()
        .collect();
    let state = fields.first()?.chars().next()?;
    // utime and stime are fields 14 and 15, that is 11 and 12 counted from field 3.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((state, utime, stime))
}

/// Runs `cmd` to its end, killing it (and failing) after `limit`.
pub fn run(mut cmd: Command, limit: Duration) -> Run {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let pid = child.id();
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    // Drain both pipes while the child runs, so a large report never blocks it.
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.read_to_end(&mut v);
        v
    });
    let mut peak = 0;
    let mut cpu_ticks_seen = None;
    let status = loop {
        if let Some(hwm) = vm_hwm_kib(pid) {
            peak = peak.max(hwm);
        }
        // Read before the wait below reaps it: once the state is `Z` the figure is final,
        // and until then the child is still running, so there is nothing to reap.
        let running = match cpu_ticks(pid) {
            Some((state, user, system)) => {
                cpu_ticks_seen = Some((user, system));
                state != 'Z'
            }
            None => false,
        };
        if !running && let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("watchdog: {cmd:?} ran longer than {limit:?} and was killed (a hang)");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let ticks = |t: u64| Duration::from_millis(t * 10);
    let cpu = cpu_ticks_seen.map(|(user, system)| ticks(user + system));
    let user_cpu = cpu_ticks_seen.map(|(user, _)| ticks(user));
    Run {
        code: status.code(),
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        peak_rss_kib: peak,
        elapsed: started.elapsed(),
        cpu,
        user_cpu,
    }
}

/// The default watchdog: a minute, far above any case here (each takes well under a second
/// or a few seconds in a debug build).
pub const LIMIT: Duration = Duration::from_secs(60);
