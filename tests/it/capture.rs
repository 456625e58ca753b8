//! `benchlint capture` against a live process started by the test: a Python module laid out
//! as vLLM's API server (it only sleeps), started with vLLM's argv and environment.

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_benchlint"))
}

struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn capture_reads_argv_and_environment_of_a_live_process_and_redacts_secrets() {
    if !cfg!(target_os = "linux") {
        println!("skipping: capture --pid reads /proc, Linux only");
        return;
    }
    // The interpreter itself, not a shim that execs it later (pyenv).
    let Ok(found) = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
    else {
        println!("skipping: python3 is not installed");
        return;
    };
    let python = String::from_utf8_lossy(&found.stdout).trim().to_string();
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("vllm/entrypoints/openai");
    std::fs::create_dir_all(&module).unwrap();
    for p in ["vllm", "vllm/entrypoints", "vllm/entrypoints/openai"] {
        std::fs::write(dir.path().join(p).join("__init__.py"), "").unwrap();
    }
    std::fs::write(
        module.join("api_server.py"),
        "import time\ntime.sleep(60)\n",
    )
    .unwrap();
    let secret = "sk-live-Zx81Kq2mW9pL4rT7vB3nC6yD0fG5hJ";
    let child = Command::new(&python)
        .args([
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            "Qwen/Qwen3-8B",
            "--enforce-eager",
        ])
        .args([
            "--max-num-seqs",
            "32",
            "--kv-cache-dtype",
            "fp8",
            "--speculative-config",
            r#"{"method":"eagle","num_speculative_tokens":4}"#,
        ])
        .args(["--api-key", secret])
        .env("PYTHONPATH", dir.path())
        .env("NCCL_IB_HCA", "mlx5_0,mlx5_1")
        .env("VLLM_ATTENTION_BACKEND", "FLASHINFER")
        .env("VLLM_API_KEY", secret)
        .env("HF_TOKEN", "hf_abcdefghijklmnopqrstuvwxyz0123456789")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let child = Killed(child);
    // Wait (bounded) until the process shows the module on its command line.
    let cmdline = format!("/proc/{}/cmdline", child.0.id());
    for _ in 0..50 {
        if std::fs::read(&cmdline).is_ok_and(|c| c.windows(4).any(|w| w == b"vllm")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = bin()
        .args(["capture", "--pid", &child.0.id().to_string()])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains(secret), "the secret leaked:\n{text}");
    assert!(!text.contains("hf_abcdefghij"), "the token leaked:\n{text}");
    let sidecar: Value = serde_json::from_str(&text).unwrap();
    let engine = &sidecar["engine"];
    assert_eq!(engine["serve_command_source"], "process");
    assert_eq!(engine["serve_command"][1], "-m");
    assert_eq!(engine["name"], "vllm");
    assert_eq!(engine["enforce_eager"], true);
    assert_eq!(engine["max_num_seqs"], 32);
    assert_eq!(engine["speculative"]["num_speculative_tokens"], 4);
    assert_eq!(engine["environment"]["VLLM_API_KEY"], "<redacted>");
    assert_eq!(
        engine["environment"]["VLLM_ATTENTION_BACKEND"],
        "FLASHINFER"
    );
    assert_eq!(
        sidecar["platform"]["fabric"]["collectives"]["NCCL_IB_HCA"],
        "mlx5_0,mlx5_1"
    );

    // Merged with a result that lacks its command, it satisfies M003 and M004 and shows no secret.
    let corpus = tempfile::tempdir().unwrap();
    let result = serde_json::json!({
        "schema": "benchlint/result/v1", "id": "captured-run", "measured_at": "2026-10-02T10:00:00Z",
        "outcome": "ok", "levels": [{"concurrency": 1, "requests": 20, "failed": 0, "duration_s": 120.0,
        "output_tokens": 5120, "throughput_tok_s": {"aggregate": 42.7}, "per_user_tok_s": {"median": 43.1}}]
    });
    std::fs::write(corpus.path().join("run.json"), result.to_string()).unwrap();
    std::fs::write(corpus.path().join("run.meta.json"), &text).unwrap();
    for format in ["json", "human", "concise"] {
        let out = bin()
            .args(["check", "--format", format])
            .arg(corpus.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let report = String::from_utf8(out.stdout).unwrap();
        assert!(
            !report.contains(secret),
            "{format} output leaked the secret"
        );
        if format == "json" {
            let v: Value = serde_json::from_str(&report).unwrap();
            let codes: Vec<&str> = v["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["code"].as_str().unwrap())
                .collect();
            assert!(
                !codes.contains(&"M003") && !codes.contains(&"M004") && !codes.contains(&"M006"),
                "{codes:?}"
            );
            assert!(!codes.contains(&"M019"), "{codes:?}");
        }
    }
}

#[test]
fn capture_of_a_process_that_exited_is_a_clear_error() {
    if !cfg!(target_os = "linux") {
        println!("skipping: Linux only");
        return;
    }
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    let out = bin()
        .args(["capture", "--pid", &pid.to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("exited") || err.contains("no command line"),
        "{err}"
    );
}
