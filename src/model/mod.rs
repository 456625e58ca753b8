//! The canonical result model (`benchlint/result/v1`): typed views of a result file and of the
//! provenance of every value in it.
//!
//! Every field is optional except those the schema requires, because absence is what the
//! checklist rules report. Rules read these structs; they never see the harness's own format.

mod artifacts;
pub mod claim;
mod coverage;
mod engine;
mod level;
mod levels;
mod load;
pub mod loaded;
mod packed_level;
mod packed_number;
mod platform;
mod provenance;
mod result;
pub mod sidecar;
mod small_map;
pub mod translate;
mod workload;

pub use artifacts::*;
pub use coverage::Coverage;
pub use engine::*;
pub use level::*;
pub use levels::{Iter as LevelsIter, Levels};
pub use load::{LevelKey, LoadAxis, RequestRate};
pub use platform::*;
pub use provenance::{Provenance, ProvenanceMap, ProvenancePool};
pub use result::*;
pub use small_map::SmallMap;
pub use workload::*;

/// The `schema` value of a canonical result file.
pub const RESULT_SCHEMA: &str = "benchlint/result/v1";
/// The `schema` value of a claims file.
pub const CLAIMS_SCHEMA: &str = "benchlint/claims/v1";
