//! `decode-only-suite` (S008): no prefill-heavy shape anywhere in the corpus.

use super::{CorpusCtx, Emitter, declare_rule};
use crate::numbers::fixed;
use crate::numbers::plural;

declare_rule! {
    /// ## What it checks
    /// That at least one successful result of the corpus measured a prefill-heavy shape: a
    /// typical prompt (`workload.prompt_tokens.mean`, else the midpoint of `min` and `max`) of
    /// `prefill_heavy_min_prompt_tokens` to `prefill_heavy_max_prompt_tokens` tokens (2,000 to
    /// 4,000). One warning for the whole corpus, placed on the corpus (the path checked, or
    /// the folder the paths checked share) with no line or snippet, since no one file is at
    /// fault. A corpus with no successful result is not judged.
    ///
    /// The shape is the suite's, so a lone file checked by itself gets the warning too: the
    /// rule is about what the corpus as a whole can show.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Every ladder in the audited corpus used prompts of 39 to 42 tokens and an
    /// output cap of 256. That shape is almost pure decode, and decode is memory-bandwidth
    /// bound. Prefill, the pass that processes the prompt, is compute bound." A decode-only
    /// suite rewards memory bandwidth and hides the behaviour of retrieval and document work:
    /// the same RTX PRO 6000 engine with long prompts fell to roughly 330 tok/s with first-token
    /// latencies of 11 to 106 s. The suite reports "a prefill-heavy shape of two to four
    /// thousand unique prompt tokens with a short output" beside the decode-heavy one.
    ///
    /// ## Example
    /// A corpus whose every result has `"prompt_tokens": { "min": 39, "max": 42 }`.
    ///
    /// ## What to do instead
    /// Add a prefill-heavy workload (2,000 to 4,000 unique prompt tokens, a short output) to the
    /// suite and measure every configuration on it, with TTFT reported beside its prompt length.
    pub static RULE = {
        code: "S008",
        name: "decode-only-suite",
        severity: Warning,
        scope: Group,
        source: "seeds/004 (39 to 42 token prompts; a prefill-heavy shape of 2,000 to 4,000)",
        summary: "no prefill-heavy shape (2,000 to 4,000 prompt tokens) in the corpus",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    let (lo, hi) = (
        ctx.thresholds.prefill_heavy_min_prompt_tokens,
        ctx.thresholds.prefill_heavy_max_prompt_tokens,
    );
    let tally = ctx.tally;
    if tally.ok == 0 || tally.prefill_heavy {
        return;
    }
    let shape = format!(
        "a typical prompt of {} to {} tokens",
        fixed(lo, 0),
        fixed(hi, 0)
    );
    let seen = if tally.prompts == 0 {
        format!(
            "none of its {} records its prompt length (`workload.prompt_tokens`)",
            plural(tally.ok, "successful result", "successful results")
        )
    } else {
        let (min, max) = (tally.prompt_min, tally.prompt_max);
        let range = if (max - min).abs() < 0.5 {
            format!("{} tokens", fixed(min, 0))
        } else {
            format!("{} to {} tokens", fixed(min, 0), fixed(max, 0))
        };
        match tally.prompts {
            1 => format!(
                "the one result that records a prompt length has a typical prompt of {range}"
            ),
            n => format!(
                "the {n} results that record a prompt length have typical prompts of {range}"
            ),
        }
    };
    out.emit_on_corpus(format!(
        "no result in the corpus measures a prefill-heavy shape ({shape}): {seen}"
    ))
    .help(
        "add a prefill-heavy workload (2,000 to 4,000 unique prompt tokens, a short output) and \
         measure every configuration on it; decode-only evaluation hides what lives in prefill",
    );
}
