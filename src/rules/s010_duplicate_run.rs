//! `duplicate-run` (S010): the same run appears more than once in the corpus.

use super::{CorpusCtx, Emitter, declare_rule};
use crate::copies::copy_sets;
use crate::numbers::plural;
use crate::replication::locate;

declare_rule! {
    /// ## What it checks
    /// Every result that repeats a run the corpus already holds: the same start time
    /// (`measured_at`), the same launch and repeat index, and identical figures at every level
    /// (numbers compared as values, so `32` and `32.0` are equal). Independent runs never agree on
    /// every figure to the last digit; a copied run folder always does. Levels that record only
    /// counts are not compared (two failed runs can coincide by chance).
    ///
    /// The first copy in path order is counted; every later copy is reported here, with the
    /// counted one as related, and is left out of its configuration: it is never a second
    /// replicate, in the S rules, `summary`, `capacity` and the audit alike. Copies are found
    /// whatever else is known about the run, an unidentified one included: a copy is a defect of
    /// the corpus, not a verdict on the configuration. Losing runs are compared too.
    ///
    /// ## Why is this bad?
    /// Seed 004 asks for "the number of runs, and the coefficient of variation" beside every
    /// figure and for "at least three full ladders per configuration". A sweep folder copied
    /// into a second sweep folder turns one ladder into two: n doubles, the spread between the
    /// two copies is zero, so the coefficient of variation falls and the interval narrows
    /// around a single measurement. Two runs, 258 and 317, are "not yet resolved"; one run
    /// counted twice looks resolved.
    ///
    /// ## Example
    /// `sweep-a/run-1/result.json` and `sweep-b/run-1/result.json`, both with
    /// `"measured_at": "2025-05-30T19:47:38Z"` and 2,258.2 tok/s aggregate at 300 requests.
    ///
    /// ## What to do instead
    /// Keep one copy of each run in the corpus (link the others, or point a claim at the one
    /// copy), and repeat the measurement to get a second replicate.
    pub static RULE = {
        code: "S010",
        name: "duplicate-run",
        severity: Warning,
        scope: Group,
        source: "seeds/004 (the number of runs and the coefficient of variation beside every figure)",
        summary: "the same run appears more than once (counted once, never as two replicates)",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    for set in copy_sets(ctx.results, ctx.order) {
        let kept = &ctx.results[set.kept];
        let levels = kept.doc.levels.len();
        for &copy in &set.copies {
            // Copies of a canonical file keep its id (E006 reports that); say which copy counts.
            let which = if ctx.results[copy].doc.id == kept.doc.id {
                format!("another copy of result `{}`, in another file", kept.doc.id)
            } else {
                format!("result `{}`", kept.doc.id)
            };
            let e = out.emit_on(
                copy,
                "/measured_at",
                format!(
                    "this run repeats {which}: the same start time {} and identical figures at \
                     {}; it is counted once, as that result, never as a second replicate",
                    kept.doc.measured_at,
                    if levels == 1 {
                        "its level".to_string()
                    } else {
                        format!("all {}", plural(levels, "level", "levels"))
                    },
                ),
            );
            e.label("a copy of a run counted elsewhere");
            e.help(
                "keep one copy of each run in the corpus; repeat the measurement to get a second \
                 replicate",
            );
            e.related(locate(ctx.results, set.kept, "/measured_at"));
        }
    }
}
