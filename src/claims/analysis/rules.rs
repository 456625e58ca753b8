//! What the C rules report from the analysis: the findings of one rule on every claim, and the
//! help line of each.

use super::claim_findings;
use crate::claims::compare::Runs;
use crate::replication::locate;
use crate::rules::{CorpusCtx, Emitter, RuleMeta};

/// Reports the findings of `rule` on every claim of the corpus (the check of each C rule).
pub fn emit_findings(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>, rule: &'static RuleMeta) {
    if ctx.claims.is_empty() {
        return;
    }
    let analyses = ctx.claims_analysis.get_or_init(|| {
        claim_findings(
            &Runs::of_corpus(ctx),
            ctx.claims,
            ctx.thresholds,
            ctx.thresholds.service_floor_tok_s,
            ctx.rule_runs,
        )
    });
    for a in analyses {
        for f in a.findings.iter().filter(|f| f.rule.code == rule.code) {
            let e = out.emit(f.pointer.clone(), f.message.clone());
            e.at(a.at.location(&f.pointer));
            if let Some(l) = &f.label {
                e.label(l.clone());
            }
            e.help(rule_help(rule.code));
            for (i, p) in &f.related {
                e.related(locate(ctx.results, *i, p));
            }
        }
    }
}

/// The help line of each C rule.
pub fn rule_help(code: &str) -> &'static str {
    match code {
        "C001" => {
            "compare the same precision and kernel on both sides (a matched track, in practice FP8), or label the claim `basis: deployment` and record both"
        }
        "C002" => {
            "compare speculation off against off (hardware) or each side at its recorded best (deployment), and record the speculative config on both sides"
        }
        "C003" => "run both sides in the same graph mode and record `engine.enforce_eager` on both",
        "C004" => {
            "ladder both sides to saturation under the same sequence cap, or compare at a matched per-user rate instead of at the peaks"
        }
        "C005" => {
            "hold streams per device constant, or better the per-user rate: let each side find its own stream count (`benchlint capacity --floor 20`)"
        }
        "C006" => "measure both sides at the wall (or both on the device) and say which",
        "C007" => {
            "compare the same prompt and output shape on both sides, and report prefill-heavy and decode-heavy shapes side by side"
        }
        "C008" => {
            "match the KV cache dtype, the prefix-caching setting and the engine version, or state the difference beside the figure"
        }
        "C009" => {
            "call it a tie: a difference smaller than what a configuration shows against itself is not a finding"
        }
        "C010" => {
            "measure each side over at least two engine launches (three is better) before claiming a difference"
        }
        "C011" => {
            "call it a tie, or measure more launches per side until the interval clears the noise floor"
        }
        "C012" => {
            "compare the sides at the same per-user rate: each at its highest concurrency clearing the floor (`benchlint capacity --floor 20`)"
        }
        "C013" => {
            "publish the value the runs give (mean of launch means, the launch-level interval), or point the claim at the runs it came from"
        }
        "C014" => {
            "pair every throughput run with a quality-gate result from the same endpoint (`artifacts.quality_gate`)"
        }
        "C015" => "add the results to the corpus, or correct the ids the claim points at",
        _ => "",
    }
}
