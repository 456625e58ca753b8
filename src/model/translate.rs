//! Turning a canonical pointer of a result into a place in a file: the result file itself,
//! another file of the same run, the sidecar that supplied the value, the line of the server
//! log or the launch command file it was read from, or the serve command argument it was
//! derived from.

use crate::diagnostic::RuleMeta;
use crate::diagnostic::{Finding, Location};
use crate::model::{Provenance, ProvenanceMap};
use crate::text::{PathText, Text};

/// Where a result was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The file as reached from the command line, shared with every finding on the result.
    pub path: PathText,
    /// Byte offset of the document in the file.
    pub doc_start: usize,
    /// `canonical`, `claims`, or the adapter's name.
    pub format: &'static str,
}

impl Origin {
    /// Whether the document is written in the canonical format (pointers map one to one).
    pub fn is_canonical(&self) -> bool {
        self.format == "canonical"
    }
}

/// The file location of canonical `pointer` of a result read from `origin`.
///
/// A canonical document maps every pointer to itself unless a sidecar or a derivation supplied
/// the value. A harness document maps only the pointers its adapter recorded; anything else
/// (an absent field, typically) lands on the object the result was read from.
pub fn translate(origin: &Origin, provenance: &ProvenanceMap, pointer: &str) -> Location {
    translate_depth(origin, provenance, pointer, 0).0
}

/// [`translate_owned`], with the key of a finding at `pointer`: the canonical pointer itself
/// when no value of the file maps to it (a harness's file that lacks it, where the location is
/// the object the result was read from), so that the machine outputs, baselines and
/// fingerprints name the value the finding is about rather than the object every such finding
/// shares ([`Finding::key`]).
pub fn translate_keyed(
    origin: &Origin,
    provenance: &ProvenanceMap,
    pointer: String,
) -> (Location, Option<Box<String>>) {
    if origin.is_canonical() {
        return (translate_owned(origin, provenance, pointer), None);
    }
    let (location, nowhere) = translate_depth(origin, provenance, &pointer, 0);
    let key = (nowhere && !pointer.is_empty()).then(|| Box::new(pointer));
    (location, key)
}

/// [`translate`], taking the pointer: a canonical pointer that maps to itself (most of them)
/// becomes the location's pointer without a copy.
pub fn translate_owned(origin: &Origin, provenance: &ProvenanceMap, pointer: String) -> Location {
    if origin.is_canonical() && provenance.lookup(&pointer).is_none() {
        return Location {
            path: origin.path.clone(),
            doc_start: origin.doc_start,
            pointer: pointer.into(),
            offset: None,
        };
    }
    translate(origin, provenance, &pointer)
}

fn translate_depth(
    origin: &Origin,
    provenance: &ProvenanceMap,
    pointer: &str,
    depth: u8,
) -> (Location, bool) {
    let here = |p: String| Location {
        path: origin.path.clone(),
        doc_start: origin.doc_start,
        pointer: p.into(),
        offset: None,
    };
    // The flag: whether no value of the file maps to the pointer (it lands on the object).
    let found = |l: Location| (l, false);
    match provenance
        .lookup(pointer)
        .as_ref()
        .map(|(p, rest)| (&**p, *rest))
    {
        Some((Provenance::Recorded { pointer: src }, rest)) => {
            if origin.is_canonical() || rest.is_empty() {
                found(here(format!("{src}{rest}")))
            } else {
                // Only an object above the value is the file's: the value itself is not.
                (here(src.clone()), true)
            }
        }
        Some((
            Provenance::Sidecar { path, pointer: src } | Provenance::Beside { path, pointer: src },
            rest,
        )) => found(Location::new(path.clone(), format!("{src}{rest}"))),
        Some((Provenance::ServerLog { path, offset }, _)) => found(Location {
            path: path.clone().into(),
            doc_start: 0,
            pointer: "".into(),
            offset: Some(*offset),
        }),
        Some((Provenance::LaunchCommand { path }, _)) => found(Location {
            path: path.clone().into(),
            doc_start: 0,
            pointer: "".into(),
            offset: Some(0),
        }),
        // A derived value points at what it rests on: a canonical value with a provenance of its
        // own (followed to where that was read), or a key of the harness document itself.
        Some((Provenance::Derived { pointer: src, .. }, _)) if depth < 4 && src != pointer => {
            if origin.is_canonical() || provenance.get(src).is_some() {
                translate_depth(origin, provenance, src, depth + 1)
            } else {
                found(here(src.clone()))
            }
        }
        _ if origin.is_canonical() => found(here(pointer.to_string())),
        _ => (here(String::new()), true),
    }
}

/// A finding of a loader-level rule at `location`.
pub fn finding_at(
    rule: &'static RuleMeta,
    location: Location,
    message: impl Into<Text>,
    help: Option<Text>,
) -> Finding {
    Finding {
        rule,
        severity: rule.severity,
        pre_rule: false,
        primary: location,
        related: Vec::new(),
        message: message.into(),
        label: None,
        help,
        absent: None,
        key: None,
        placed: None,
        corpus: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(format: &'static str) -> Origin {
        Origin {
            path: "a.json".into(),
            doc_start: 7,
            format,
        }
    }

    #[test]
    fn a_derived_value_lands_on_what_it_rests_on() {
        let mut p = ProvenanceMap::default();
        p.insert(
            "/levels/0/requests",
            Provenance::Recorded {
                pointer: "/completed".into(),
            },
        );
        // The outcome concluded from the counts: a canonical value with a provenance of its own.
        p.insert(
            "/outcome",
            Provenance::Derived {
                from: "the counts".into(),
                pointer: "/levels/0/requests".into(),
            },
        );
        // A duration computed from a key of the harness document itself.
        p.insert(
            "/levels/0/duration_s",
            Provenance::Derived {
                from: "(queries - 1) / rate".into(),
                pointer: "/result_completed_samples_per_sec".into(),
            },
        );
        let vllm = origin("vllm");
        assert_eq!(translate(&vllm, &p, "/outcome").pointer, "/completed");
        assert_eq!(
            translate(&vllm, &p, "/levels/0/duration_s").pointer,
            "/result_completed_samples_per_sec"
        );
    }

    /// `engine.max_num_seqs` recorded in the sidecar `a.meta.json`.
    fn max_num_seqs_from_a_sidecar() -> ProvenanceMap {
        let mut p = ProvenanceMap::default();
        p.insert(
            "/engine/max_num_seqs",
            Provenance::Sidecar {
                path: "a.meta.json".into(),
                pointer: "/engine/max_num_seqs".into(),
            },
        );
        p
    }

    #[test]
    fn a_pointer_taken_lands_where_a_pointer_borrowed_does() {
        let p = max_num_seqs_from_a_sidecar();
        for format in ["canonical", "vllm"] {
            for pointer in ["/engine/max_num_seqs", "/levels/0/ttft_s", ""] {
                let o = origin(format);
                assert_eq!(
                    translate_owned(&o, &p, pointer.to_string()),
                    translate(&o, &p, pointer)
                );
            }
        }
    }

    #[test]
    fn canonical_pointers_map_to_themselves() {
        let loc = translate(
            &origin("canonical"),
            &ProvenanceMap::default(),
            "/engine/enforce_eager",
        );
        assert_eq!(loc.pointer, "/engine/enforce_eager");
        assert_eq!(loc.doc_start, 7);
    }

    #[test]
    fn adapter_pointers_map_through_provenance_or_land_on_the_result_object() {
        let mut p = ProvenanceMap::default();
        p.insert(
            "",
            Provenance::Recorded {
                pointer: "/benchmarks/2".into(),
            },
        );
        p.insert(
            "/levels/0/ttft_s/p50",
            Provenance::Recorded {
                pointer: "/benchmarks/2/metrics/ttft/median".into(),
            },
        );
        assert_eq!(
            translate(&origin("guidellm"), &p, "/levels/0/ttft_s/p50").pointer,
            "/benchmarks/2/metrics/ttft/median"
        );
        assert_eq!(
            translate(&origin("guidellm"), &p, "/engine/speculative").pointer,
            "/benchmarks/2"
        );
    }

    #[test]
    fn sidecar_values_point_into_the_sidecar_and_derived_ones_at_the_argument() {
        let mut p = max_num_seqs_from_a_sidecar();
        p.insert(
            "/engine/enforce_eager",
            Provenance::Derived {
                from: "argument 4".into(),
                pointer: "/engine/serve_command/4".into(),
            },
        );
        let s = translate(&origin("canonical"), &p, "/engine/max_num_seqs");
        assert_eq!((s.path.raw(), s.doc_start), ("a.meta.json", 0));
        assert_eq!(
            translate(&origin("canonical"), &p, "/engine/enforce_eager").pointer,
            "/engine/serve_command/4"
        );
    }

    #[test]
    fn a_value_the_file_has_no_key_for_keeps_its_canonical_pointer_as_key() {
        let mut p = ProvenanceMap::default();
        p.insert(
            "",
            Provenance::Recorded {
                pointer: "/benchmarks/2".into(),
            },
        );
        p.insert(
            "/levels/0/ttft_s/p50",
            Provenance::Recorded {
                pointer: "/benchmarks/2/metrics/ttft/median".into(),
            },
        );
        p.insert(
            "/engine/enforce_eager",
            Provenance::LaunchCommand {
                path: "launch.txt".into(),
            },
        );
        let keyed = |format, pointer: &str| translate_keyed(&origin(format), &p, pointer.into());
        // Shown on the object above it, named by itself.
        let (at, key) = keyed("guidellm", "/workload/warmup_excluded");
        assert_eq!(at.pointer, "/benchmarks/2");
        assert_eq!(
            key.as_deref().map(String::as_str),
            Some("/workload/warmup_excluded")
        );
        // A value the file holds, or one read from another file, is named by where it is.
        for pointer in ["/levels/0/ttft_s/p50", "/engine/enforce_eager", ""] {
            let (at, key) = keyed("guidellm", pointer);
            assert_eq!(key, None, "{pointer}");
            assert_eq!(at, translate(&origin("guidellm"), &p, pointer), "{pointer}");
        }
        // A canonical file holds every pointer itself.
        assert_eq!(keyed("canonical", "/workload/warmup_excluded").1, None);
    }
}
