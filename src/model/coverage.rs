//! Where one field of the publication checklist stands for a file: recorded in it, supplied by
//! another file of its run, derived, from a sidecar, present but not usable, missing, or not
//! asked. The states order themselves by how much they owe, so a file of several results
//! shows the worst.
//!
//! Plain data below the loader: the loader works out each result's states before it drops the
//! result's canonical JSON ([`crate::model::loaded::LoadedResult::checklist`]), and the audit
//! reads them back.

use serde::Serialize;

/// Where a checklist field of a file stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coverage {
    /// Written in the result file itself.
    Recorded,
    /// Written by the harness or the engine in another file of the same run (the engine's
    /// log, the launch command, an experiment's metadata).
    RunFolder,
    /// Derived by benchlint from another recorded value (a verbatim serve command).
    Derived,
    /// Supplied by a sidecar.
    Sidecar,
    /// Present, but not what the checklist asks (a tag instead of a digest, an empty command).
    Unusable,
    /// Not recorded anywhere.
    Missing,
    /// Not asked of this file (fabric on a single node, the workload of a run that never ran).
    NotApplicable,
}

impl Coverage {
    /// Every state, in the order legends list them.
    pub const ALL: [Coverage; 7] = [
        Coverage::Recorded,
        Coverage::RunFolder,
        Coverage::Derived,
        Coverage::Sidecar,
        Coverage::Unusable,
        Coverage::Missing,
        Coverage::NotApplicable,
    ];

    /// The kebab-case word used in JSON and class names.
    pub fn as_str(self) -> &'static str {
        match self {
            Coverage::Recorded => "recorded",
            Coverage::RunFolder => "run-folder",
            Coverage::Derived => "derived",
            Coverage::Sidecar => "sidecar",
            Coverage::Unusable => "unusable",
            Coverage::Missing => "missing",
            Coverage::NotApplicable => "not-applicable",
        }
    }

    /// How bad the state is when a file's results disagree: the worst is shown.
    pub fn rank(self) -> u8 {
        match self {
            Coverage::NotApplicable => 0,
            Coverage::Recorded => 1,
            Coverage::RunFolder => 2,
            Coverage::Derived => 3,
            Coverage::Sidecar => 4,
            Coverage::Unusable => 5,
            Coverage::Missing => 6,
        }
    }

    /// Whether the field is there in a usable form, whatever its source.
    pub fn is_present(self) -> bool {
        matches!(
            self,
            Coverage::Recorded | Coverage::RunFolder | Coverage::Derived | Coverage::Sidecar
        )
    }

    /// Whether the field is owed: missing or not usable.
    pub fn is_owed(self) -> bool {
        matches!(self, Coverage::Missing | Coverage::Unusable)
    }
}
