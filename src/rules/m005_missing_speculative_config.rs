//! `missing-speculative-config` (M005): speculative decoding configuration, or an explicit off.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That `engine.speculative.enabled` is recorded: `true` with its method and budget, or an
    /// explicit `false`. Silence is not an answer: an absent setting is the engine's default,
    /// which benchlint cannot know. A value derived from a verbatim serve command (source
    /// `process` or `container-inspect`) that names the speculative flags satisfies the item.
    ///
    /// ## Why is this bad?
    /// Seed 000: with speculation on, run-to-run spread was 12–19% against 1–3% without. Seed
    /// 004: the retracted 8.6x ratio combined "five-token speculative decoding against none"
    /// with three other mismatches, and the GB10 vs GB300 ratio could not be stated because
    /// "the speculative budget helps the GB10 side and eager mode hurts it. We do not know the
    /// net, which means we do not know the ratio."
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "name": "vllm", "max_num_seqs": 32 } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "engine": { "speculative": { "enabled": true, "method": "eagle", "num_speculative_tokens": 4 } } }
    /// ```
    /// or `{ "speculative": { "enabled": false } }`.
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    ///
    /// `benchlint capture --pid PID` (or `--container-inspect FILE`) writes a sidecar with the
    /// serve command and environment read from the running engine: the settings the command
    /// names then count as recorded.
    pub static RULE = {
        code: "M005",
        name: "missing-speculative-config",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "speculative decoding configuration not recorded",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let speculative = ctx
        .result
        .engine
        .as_ref()
        .and_then(|e| e.speculative.as_ref());
    match speculative {
        None => {
            out.missing(
                "/engine/speculative",
                "the speculative decoding configuration",
                "add `engine.speculative` with `enabled` (and its method and `num_speculative_tokens`), or `{\"enabled\": false}`",
            );
        }
        Some(s) if s.enabled.is_none() => {
            out.missing(
                "/engine/speculative/enabled",
                "whether speculative decoding was on",
                "add `engine.speculative.enabled`: true or false",
            );
        }
        Some(_) => {}
    }
}
