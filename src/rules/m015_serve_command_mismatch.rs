//! `serve-command-mismatch` (M015): a recorded setting that the serve command contradicts.

use serde_json::Value;

use crate::model::{Provenance, ServeCommand};
use crate::serve_command::{Found, ServeSettings};

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// Every engine setting the file records (speculation and its budget, eager mode, KV cache
    /// dtype, sequence cap, model length, batched-token cap, prefix caching, parallel sizes)
    /// against the same setting in the recorded serve command, parsed as vLLM
    /// (`vllm serve`, `python -m vllm.entrypoints.openai.api_server`), SGLang
    /// (`python -m sglang.launch_server`) or TensorRT-LLM (`trtllm-serve`) would read it. Only
    /// flags the command names are compared: an omitted flag is the engine default, which is
    /// not a value.
    ///
    /// ## Why is this bad?
    /// Seed 004: two unrecorded settings, a speculative budget and an eager flag, "push in
    /// opposite directions ... We do not know the net, which means we do not know the ratio."
    /// A file whose recorded settings disagree with its own command line states two
    /// configurations at once; at most one of them was measured.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "enforce_eager": false,
    ///   "serve_command": ["vllm", "serve", "m", "--enforce-eager"] } }
    /// ```
    ///
    /// ## What to do instead
    /// Record the settings from the same captured command (`benchlint capture`), or correct
    /// whichever of the two is wrong.
    pub static RULE = {
        code: "M015",
        name: "serve-command-mismatch",
        severity: Error,
        scope: Result,
        source: "seeds/004 (GB10 vs GB300 unrecorded settings)",
        summary: "a recorded setting disagrees with the serve command",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let Some(serve) = ctx.serve else {
        return;
    };
    let compare = |out: &mut Emitter<'_>,
                   pointer: &str,
                   flag: &str,
                   found: Option<(Value, usize)>| {
        let Some((command_value, arg_index)) = found else {
            return;
        };
        // A value the file itself does not record (absent, or derived from this very command)
        // cannot contradict the command.
        let Some(recorded) = ctx.get(pointer) else {
            return;
        };
        if matches!(
            ctx.provenance.get(pointer).as_deref(),
            Some(Provenance::Derived { .. })
        ) {
            return;
        }
        if same(recorded, &command_value) {
            return;
        }
        let field = pointer[1..].replace('/', ".");
        let e = out.emit(
            pointer,
            format!(
                "`{field}` is recorded as {} but the serve command says {} ({flag})",
                show(recorded),
                show(&command_value)
            ),
        );
        e.label(format!("the command says {}", show(&command_value)));
        e.help("record the settings from the captured command, or correct the one that is wrong");
        if matches!(
            ctx.result
                .engine
                .as_ref()
                .and_then(|en| en.serve_command.as_ref()),
            Some(ServeCommand::Argv(_))
        ) {
            e.related(crate::diagnostic::Location::new(
                String::new(),
                format!("/engine/serve_command/{arg_index}"),
            ));
        }
    };
    for (pointer, flag, found) in comparisons(serve) {
        compare(out, pointer, flag, found);
    }
}

fn num<T: Copy + Into<u64>>(f: Option<&Found<T>>) -> Option<(Value, usize)> {
    f.map(|f| (Value::from(f.value.into()), f.arg_index))
}

/// A canonical pointer, the flag that sets it, and what the command says (value, argument).
type Comparison = (&'static str, &'static str, Option<(Value, usize)>);

fn comparisons(s: &ServeSettings) -> Vec<Comparison> {
    let text = |f: Option<&Found<String>>| f.map(|f| (Value::from(f.value.clone()), f.arg_index));
    let flag = |f: Option<&Found<bool>>| f.map(|f| (Value::from(f.value), f.arg_index));
    let spec = s.speculative.as_ref();
    vec![
        (
            "/engine/speculative/enabled",
            "speculative flags",
            spec.map(|f| (Value::from(f.value.enabled), f.arg_index)),
        ),
        (
            "/engine/speculative/num_speculative_tokens",
            "speculative budget",
            spec.and_then(|f| {
                f.value
                    .num_speculative_tokens
                    .map(|n| (Value::from(n), f.arg_index))
            }),
        ),
        (
            "/engine/enforce_eager",
            "--enforce-eager / --disable-cuda-graph",
            flag(s.enforce_eager.as_ref()),
        ),
        (
            "/engine/kv_cache_dtype",
            "--kv-cache-dtype",
            text(s.kv_cache_dtype.as_ref()),
        ),
        (
            "/engine/max_num_seqs",
            "--max-num-seqs",
            num(s.max_num_seqs.as_ref()),
        ),
        (
            "/engine/max_model_len",
            "--max-model-len",
            num(s.max_model_len.as_ref()),
        ),
        (
            "/engine/max_num_batched_tokens",
            "--max-num-batched-tokens",
            num(s.max_num_batched_tokens.as_ref()),
        ),
        (
            "/engine/enable_prefix_caching",
            "prefix caching flag",
            flag(s.enable_prefix_caching.as_ref()),
        ),
        (
            "/engine/tensor_parallel_size",
            "--tensor-parallel-size",
            num(s.tensor_parallel_size.as_ref()),
        ),
        (
            "/engine/pipeline_parallel_size",
            "--pipeline-parallel-size",
            num(s.pipeline_parallel_size.as_ref()),
        ),
        (
            "/engine/expert_parallel_size",
            "expert parallel size",
            num(s.expert_parallel_size.as_ref()),
        ),
        (
            "/engine/data_parallel_size",
            "--data-parallel-size",
            num(s.data_parallel_size.as_ref()),
        ),
    ]
}

fn same(recorded: &Value, command: &Value) -> bool {
    match (recorded, command) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::String(a), Value::String(b)) => a.eq_ignore_ascii_case(b),
        (a, b) => a == b,
    }
}

fn show(v: &Value) -> String {
    match v {
        // A secret passed in a flag's place is named, never shown.
        Value::String(s) if crate::secrets::classify(None, s).is_some() => {
            "a secret (not shown)".to_string()
        }
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}
