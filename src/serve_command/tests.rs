//! The serve command's tests, one file per engine or concern, and the helpers they share.

#[path = "tests/engines.rs"]
mod engines;
#[path = "tests/robustness.rs"]
mod robustness;
#[path = "tests/sglang_and_trtllm.rs"]
mod sglang_and_trtllm;
#[path = "tests/split.rs"]
mod split;
#[path = "tests/vllm.rs"]
mod vllm;

use super::count::{Count, parse_count};
use super::flags::NumStyle;
use super::*;

fn words(line: &str) -> Vec<String> {
    split_command_line(line)
}

fn parse_line(line: &str) -> ServeSettings {
    parse(&words(line))
}

fn at<T>(value: T, arg_index: usize) -> Found<T> {
    Found { value, arg_index }
}

fn text_at(value: &str, arg_index: usize) -> Found<String> {
    at(value.to_owned(), arg_index)
}
