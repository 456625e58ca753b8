//! The `benchlint` binary: parse the arguments, run, exit 0 (clean), 1 (findings at error
//! level) or 2 (the tool could not do its job).

use std::ffi::c_long;
use std::process::ExitCode;

/// mimalloc instead of the system allocator: a run makes millions of small, short-lived
/// allocations across threads, and measured on the bench corpora it takes 8 to 9% fewer
/// instructions than glibc's (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay`, which its Rust bindings do not name: the option just
/// before `mi_option_use_numa_nodes` in `mimalloc.h` (a test holds the index to that option's
/// default).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = libmimalloc_sys::mi_option_use_numa_nodes - 1;

/// How long memory freed in whole pages is kept before it goes back to the system. mimalloc 3
/// keeps it a second, longer than most runs last, so a run's peak was every page it had ever
/// touched, freed or not (a list that grows by doubling leaves each old buffer behind). 25 ms
/// keeps what is freed and reused at once and returns the rest: peak RSS 10 to 30% lower on
/// the bench's corpora for no CPU time that runs can tell apart (BENCHMARKS.md, fifteenth
/// round).
const PURGE_DELAY_MS: c_long = 25;

fn main() -> ExitCode {
    // A delay the user sets in the environment is theirs.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: `mi_option_set` is not thread safe, and this is the first thing the program
        // does: no other thread exists yet. It stores a number; no memory is touched.
        #[expect(
            unsafe_code,
            reason = "the allocator's options are set through its C API"
        )]
        unsafe {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, PURGE_DELAY_MS);
        }
    }
    ExitCode::from(benchlint::cli::main())
}

#[cfg(test)]
mod tests {
    use super::PURGE_DELAY;

    /// The option at `PURGE_DELAY` is the purge delay: its default is mimalloc 3's delay of a
    /// second, which no option beside it has. Should the bindings or the header move, this
    /// fails rather than the binary setting another option.
    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return;
        }
        // SAFETY: reading an option; the test does not set any.
        #[expect(
            unsafe_code,
            reason = "the allocator's options are read through its C API"
        )]
        let delay = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(delay, 1000);
    }
}
