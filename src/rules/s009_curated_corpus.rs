//! `curated-corpus` (S009): no losing evidence anywhere: no failed, aborted or does-not-fit
//! result, no level with failed requests, no harness verdict INVALID.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That the corpus holds at least one piece of losing evidence: a result whose `outcome`
    /// is `failed`, `aborted` or `does-not-fit`, a level that records failed requests
    /// (`failed` above 0: a run that lost part of its traffic kept its losses), or a harness
    /// verdict `invalid` (MLPerf loadgen's `Result is : INVALID`, kept beside the figures).
    /// Any one of them shows the losses were kept, so the corpus is not called curated.
    /// One info finding for the whole corpus, placed on the corpus
    /// (the path checked, or the folder the paths checked share) with no line or snippet,
    /// since no one file is at fault. An empty corpus is not judged.
    ///
    /// A lone file checked by itself gets the note too: the rule is about what the corpus as a
    /// whole can show.
    ///
    /// ## Why is this bad?
    /// Seed 004: "We publish configurations that did not work, levels that came out worse than
    /// the level below them, and models that would not load. A corpus with no failures in it has
    /// been curated, and a curated corpus cannot be used to check anything." And: "'Does not
    /// fit' is a benchmark result, and we publish it as one." Seed 000 publishes refuted
    /// hypotheses for the same reason.
    ///
    /// ## Example
    /// A corpus in which every result has `"outcome": "ok"`.
    ///
    /// ## What to do instead
    /// Keep the runs that lost in the corpus, as results with their outcome:
    /// ```json
    /// { "id": "gb10-x1-glm5-753b", "outcome": "does-not-fit", "levels": [],
    ///   "notes": "a 433 GiB checkpoint does not load on one 121.7 GiB unit" }
    /// ```
    pub static RULE = {
        code: "S009",
        name: "curated-corpus",
        severity: Info,
        scope: Group,
        source: "seeds/004 (a corpus with no failures in it has been curated)",
        summary: "no losing evidence anywhere: no failed, aborted or does-not-fit result, no level with failed requests, no verdict INVALID",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    let tally = ctx.tally;
    if tally.results == 0 || tally.any_lost {
        return;
    }
    out.emit_on_corpus(match tally.results {
        1 => "the only result of the corpus succeeded: no failed, aborted or does-not-fit \
                  result, no failed request and no invalid verdict is kept, so the corpus looks curated"
            .to_string(),
        n => format!(
            "all {n} results of the corpus succeeded: no failed, aborted or does-not-fit \
                 result, no failed request and no invalid verdict is kept, so the corpus looks curated"
        ),
    })
    .help(
        "keep the runs that lost (failed, aborted, does-not-fit) in the corpus as results with \
         their outcome; they are results, never replicates",
    );
}
