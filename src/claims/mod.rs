//! Published claims (`benchlint/claims/v1`) checked against the runs behind them: the figures
//! and ratios a team published, each pointing at result ids, resolved against the corpus,
//! compared on a matched basis, recomputed, and given a verdict (seed 004: "decide which
//! stand, which must be restated on a matched basis, which are unresolved, and which are
//! retracted").
//!
//! * [`Claim`], [`SideSpec`]: the typed claim, read from a [`LoadedClaims`] document.
//! * [`resolve_side`]: a side's results (ids → loaded results), the level it is taken at (the
//!   named `concurrency` or `request_rate`, else the peak: the level with the highest mean aggregate), the metric
//!   there for all nine metrics ([`Metric`]; `replicas` multiplies the engine throughputs),
//!   and its launch means (the launch is the unit of replication).
//! * [`compare_sides`]: every mismatch between two sides (C001–C008, C012), the noise floor
//!   (static or from same-vs-same controls) and the A/B verdict (C009–C011). Shared by the
//!   claims rules, `benchlint audit` and `benchlint compare`.
//! * [`analyse`]: each claim with its findings (the C rules report them), and its
//!   restatement on a matched service level when the published basis is not one.
//! * [`audit()`]: the verdict of every claim, every configuration's ladder and capacity, and the
//!   losing runs (the verdict logic is documented in [`audit`](mod@audit)).
//! * [`capacity`](capacity::capacity): the service-level capacity of a ladder.

mod analysis;
pub mod audit;
pub mod capacity;
mod compare;
mod metric;
mod side;
mod words;

pub use analysis::{
    ClaimAnalysis, ClaimFinding, ClaimFindings, ClaimRef, RESTATABLE, Restatement, analyse,
    basis_words, claim_findings, emit_findings, matched_words, rule_help, side_arithmetic,
};
pub use audit::audit;
pub use compare::{
    CompareOptions, Comparison, Control, Mismatch, NoiseFloor, PlatformModel, Runs, StatFinding,
    compare_sides, noise_floor, platform_model,
};
pub use metric::Metric;
pub use side::{
    ResolvedSide, SidePoint, id_index, num, pct, pct_abs, peak_level, resolve_at, resolve_side,
    streams,
};

#[doc(no_inline)]
pub use crate::model::claim::{Basis, Claim, ClaimKind, SideSpec};
#[doc(no_inline)]
pub use crate::model::loaded::LoadedClaims;
