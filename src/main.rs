//! The `benchlint` binary: parse the arguments, run, exit 0 (clean), 1 (findings at error
//! level) or 2 (the tool could not do its job).

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(benchlint::cli::main())
}
