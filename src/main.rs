//! The `benchlint` binary: parse the arguments, run, exit 0 (clean), 1 (findings at error
//! level) or 2 (the tool could not do its job).

use std::process::ExitCode;

/// mimalloc instead of the system allocator: a run makes millions of small, short-lived
/// allocations across threads, and measured on the bench corpora it takes 8 to 9% fewer
/// instructions than glibc's (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ExitCode::from(benchlint::cli::main())
}
