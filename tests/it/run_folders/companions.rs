//! Files beside a result that are never trusted: a symbolic link out of the corpus is never
//! consulted, and hostile companions never hang or break the run.

use std::path::Path;

use super::{FIXTURES, check};

#[test]
fn a_symlink_out_of_the_corpus_is_never_consulted() {
    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(
            outside.path().join("server.log"),
            "(APIServer pid=1) INFO non-default args: {'tensor_parallel_size': 8}\n\
             (EngineCore pid=2) INFO Initializing a V1 LLM engine (v9.9.9) with config: tensor_parallel_size=8\n",
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        std::fs::create_dir(&run).unwrap();
        std::fs::copy(
            Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"),
            run.join("result.json"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path().join("server.log"), run.join("server.log"))
            .unwrap();
        let checked = check(&run);
        let r = &checked.corpus.results[0];
        assert!(r.value.pointer("/engine/version").is_none());
        assert!(r.value.pointer("/engine/tensor_parallel_size").is_none());
    }
}

#[test]
fn hostile_companions_never_hang_or_break_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    std::fs::copy(
        Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"),
        run.join("result.json"),
    )
    .unwrap();
    // A folder named like a log, binary noise, a log line far past the line bound that holds
    // the marker, a command file that is not a command.
    std::fs::create_dir(run.join("server.log")).unwrap();
    let mut noise: Vec<u8> = (0..200_000u32).map(|i| (i * 7919 % 251) as u8).collect();
    noise.extend_from_slice(b"\nnon-default args: {'tensor_parallel_size': \n");
    std::fs::write(run.join("a_server.log"), &noise).unwrap();
    let long = format!(
        "server_args=ServerArgs(tp_size=8, {})\n",
        "x=1, ".repeat(400_000)
    );
    std::fs::write(run.join("b_server.log"), long).unwrap();
    std::fs::write(
        run.join("x_command.txt"),
        "\u{0}\u{1}not a command at all '\"\\",
    )
    .unwrap();
    #[cfg(unix)]
    {
        let fifo = run.join("vllm_command.txt");
        let ok = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok || !fifo.exists());
    }
    let checked = check(&run);
    assert_eq!(checked.corpus.results.len(), 1);
    assert!(checked.corpus.internal_errors.is_empty());
    let r = &checked.corpus.results[0];
    // Nothing was believed: the long line was skipped whole, the noise names no engine.
    assert!(r.value.pointer("/engine/tensor_parallel_size").is_none());
    assert!(r.value.pointer("/engine/serve_command").is_none());
}
