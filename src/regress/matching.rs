//! Configurations matched across BASE and HEAD (and the control): each side's configurations
//! are grouped by fingerprint on its own (so that a HEAD file identical to a BASE file is a
//! HEAD run, not a copy of one), after the varied fields are taken out ([`super::vary`]);
//! equal fingerprints are one configuration measured on both sides.
//!
//! A configuration left on one side is paired with the nearest one left on the other (same
//! model and engine name, fewest differing fingerprint fields): the pair is NOT COMPARABLE,
//! with the mismatch as `crate::claims::compare_sides` reports it (C001–C008) and, for a
//! field no C rule covers (the device model, the harness, labels, the workload's name), the
//! field that differs. A configuration with no counterpart is MISSING; an unidentified result
//! (model, engine, device, precision or workload not recorded) is NOT COMPARABLE, since it
//! cannot be matched to anything.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{Options, Side, vary};
use crate::claims::{CompareOptions, Metric, Runs, compare_sides, resolve_side};
use crate::fingerprint::Fingerprint;
use crate::model::loaded::LoadedResult;
use crate::replication::configurations;

/// The sides, neutralised and side by side.
pub struct Matched {
    /// Every result of every side (BASE, then HEAD, then the control), with the varied fields
    /// taken out and ids prefixed by their side, so that ids never collide across sides.
    pub results: Vec<LoadedResult>,
    /// The side of each result.
    pub side_of: Vec<Side>,
    /// The engine version each result records (before it was taken out).
    pub versions: Vec<Option<String>>,
    /// Configurations, in fingerprint order.
    pub groups: Vec<Group>,
}

/// One configuration across the sides.
pub struct Group {
    /// The fingerprint (BASE's when it has one).
    pub fingerprint: Fingerprint,
    /// Members per side, indices into [`Matched::results`].
    pub base: Vec<usize>,
    /// HEAD's members.
    pub head: Vec<usize>,
    /// The control's members.
    pub control: Vec<usize>,
    /// Why BASE's and HEAD's members are not one configuration (empty: they are): the C-code
    /// when a rule names the mismatch, and the message.
    pub mismatches: Vec<(Option<&'static str>, String)>,
}

/// A group's members and mismatches while the sides are pooled, before its fingerprint is
/// moved in.
#[derive(Default)]
struct Pooled {
    base: Vec<usize>,
    head: Vec<usize>,
    control: Vec<usize>,
    mismatches: Vec<(Option<&'static str>, String)>,
}

/// The C rule that covers a fingerprint field compare_sides does not report in this mode
/// (sequence caps are only checked at peaks, device counts only at one total).
fn code_of(field: &str) -> Option<&'static str> {
    match field {
        "model.precision" | "model.kernel" => Some("C001"),
        f if f.starts_with("engine.speculative") => Some("C002"),
        "engine.enforce_eager" => Some("C003"),
        "engine.max_num_seqs" => Some("C004"),
        "platform.nodes" | "platform.devices_per_node" => Some("C005"),
        f if f.starts_with("workload.prompt_tokens") || f == "workload.max_output_tokens" => {
            Some("C007")
        }
        "engine.kv_cache_dtype" | "engine.enable_prefix_caching" => Some("C008"),
        _ => None,
    }
}

fn fields(print: &Fingerprint) -> Map<String, Value> {
    serde_json::from_str::<Map<String, Value>>(&print.canonical()).unwrap_or_default()
}

/// The fields whose values differ (or are on one side only), sorted.
fn differing(a: &Map<String, Value>, b: &Map<String, Value>) -> Vec<String> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect()
}

fn shown(v: Option<&Value>) -> String {
    match v {
        None => "not recorded".into(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// Reads the sides into one [`Matched`], moving their results into it (a copy of each side
/// held beside it doubled what the run holds).
pub fn match_sides(
    base: Vec<LoadedResult>,
    head: Vec<LoadedResult>,
    control: Option<Vec<LoadedResult>>,
    options: &Options,
) -> Matched {
    let mut varied: Vec<String> = vary::DEFAULT_VARIED
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    varied.extend(options.varied.iter().cloned());
    // Sized once: grown by doubling, the list of every result held up to twice its size.
    let total = base.len() + head.len() + control.as_ref().map_or(0, Vec::len);
    let mut results = Vec::with_capacity(total);
    let mut side_of = Vec::with_capacity(total);
    let mut versions = Vec::with_capacity(total);
    let mut neutraliser = vary::Neutraliser::new(&varied);
    // Pooled fingerprints across the sides; unpooled ones stand alone.
    // Each fingerprint is held once, as the key, and moved into its group at the end.
    let mut by_print: BTreeMap<Fingerprint, Pooled> = BTreeMap::new();
    let sides: [(Side, Option<Vec<LoadedResult>>); 3] = [
        (Side::Base, Some(base)),
        (Side::Head, Some(head)),
        (Side::Control, control),
    ];
    for (side, own) in sides {
        let Some(mut own) = own else { continue };
        let offset = results.len();
        for r in &mut own {
            versions.push(r.doc.engine.as_ref().and_then(|e| e.version.clone()));
            neutraliser.neutralise(&mut r.doc);
            r.doc.id = format!("{}:{}", side.name(), r.doc.id);
            side_of.push(side);
        }
        let configs = configurations(&own);
        results.extend(own);
        // Each side's configurations go into the pool as they are made, their fingerprints
        // moved: a side's list held beside the pool held every fingerprint twice.
        for c in configs {
            let members: Vec<usize> = c.members.iter().map(|m| m + offset).collect();
            let identified = c.is_identified();
            let unidentified = c.unidentified;
            let g = by_print.entry(c.fingerprint).or_default();
            match side {
                Side::Base => g.base = members,
                Side::Head => g.head = members,
                Side::Control => g.control = members,
            }
            // Unidentified on each side it is on: said once.
            if !identified && g.mismatches.is_empty() {
                g.mismatches.push((
                    None,
                    format!(
                        "not identified ({} not recorded), so it cannot be matched to a configuration of the other side",
                        unidentified.join(", ")
                    ),
                ));
            }
        }
    }
    let mut groups: Vec<Group> = by_print
        .into_iter()
        .map(|(fingerprint, g)| Group {
            fingerprint,
            base: g.base,
            head: g.head,
            control: g.control,
            mismatches: g.mismatches,
        })
        .collect();
    pair_leftovers(&mut groups, &results, &options.thresholds);
    Matched {
        results,
        side_of,
        versions,
        groups,
    }
}

/// Candidates a configuration left on BASE is compared with (those of its model and engine,
/// in fingerprint order): past this many, the nearest among the first ones is taken, so that
/// a corpus of thousands of unmatched configurations stays linear in their number.
const MAX_CANDIDATES: usize = 256;

/// A configuration left on HEAD: its group and its fingerprint's fields.
type Candidate = (usize, Map<String, Value>);

/// Pairs each identified configuration left on BASE with the nearest left on HEAD.
fn pair_leftovers(
    groups: &mut Vec<Group>,
    results: &[LoadedResult],
    thresholds: &crate::thresholds::Thresholds,
) {
    let lone = |g: &Group, base: bool| {
        g.mismatches.is_empty()
            && g.fingerprint.is_pooled()
            && if base {
                !g.base.is_empty() && g.head.is_empty()
            } else {
                g.base.is_empty() && !g.head.is_empty()
            }
    };
    let base_left: Vec<usize> = (0..groups.len())
        .filter(|&i| lone(&groups[i], true))
        .collect();
    let head_left: Vec<usize> = (0..groups.len())
        .filter(|&i| lone(&groups[i], false))
        .collect();
    if base_left.is_empty() || head_left.is_empty() {
        return;
    }
    // Each fingerprint's fields parsed once; HEAD's bucketed by model and engine name.
    let name = |f: &Map<String, Value>, k: &str| f.get(k).map(ToString::to_string);
    let mut buckets: BTreeMap<(String, String), Vec<Candidate>> = BTreeMap::new();
    for &h in &head_left {
        let f = fields(&groups[h].fingerprint);
        if let (Some(m), Some(e)) = (name(&f, "model.name"), name(&f, "engine.name")) {
            buckets.entry((m, e)).or_default().push((h, f));
        }
    }
    let runs = Runs::new(results);
    let mut absorbed = Vec::new();
    for b in base_left {
        let fb = fields(&groups[b].fingerprint);
        let (Some(m), Some(e)) = (name(&fb, "model.name"), name(&fb, "engine.name")) else {
            continue;
        };
        let Some(bucket) = buckets.get_mut(&(m, e)) else {
            continue;
        };
        let Some((_, pos)) = bucket
            .iter()
            .take(MAX_CANDIDATES)
            .enumerate()
            .map(|(pos, (_, fh))| (differing(&fb, fh).len(), pos))
            .min()
        else {
            continue;
        };
        let (h, fh) = bucket.remove(pos);
        let head_members = std::mem::take(&mut groups[h].head);
        let mismatches = explain(
            &runs,
            results,
            (&groups[b].base, &head_members),
            (&fb, &fh),
            thresholds,
        );
        let g = &mut groups[b];
        g.head = head_members;
        g.mismatches = mismatches;
        absorbed.push(h);
    }
    absorbed.sort_unstable();
    for h in absorbed.into_iter().rev() {
        groups.remove(h);
    }
}

/// Every way BASE's members (`a`) and HEAD's (`b`) are not one configuration.
fn explain(
    runs: &Runs<'_>,
    results: &[LoadedResult],
    (a, b): (&[usize], &[usize]),
    (fa, fb): (&Map<String, Value>, &Map<String, Value>),
    thresholds: &crate::thresholds::Thresholds,
) -> Vec<(Option<&'static str>, String)> {
    let ids =
        |m: &[usize]| -> Vec<String> { m.iter().map(|&i| results[i].doc.id.clone()).collect() };
    let metric = Metric::AggregateTokS;
    let side_a = resolve_side(results, &runs.index, &ids(a), None, 1, metric);
    let side_b = resolve_side(results, &runs.index, &ids(b), None, 1, metric);
    let opts = CompareOptions {
        metric,
        basis: None,
        // The levels are matched one by one below; the settings are what this is about.
        service_level_matched: true,
        name_a: "BASE".into(),
        name_b: "HEAD".into(),
    };
    let cmp = compare_sides(runs, &side_a, &side_b, &opts, thresholds);
    let mut out: Vec<(Option<&'static str>, String)> = cmp
        .mismatches
        .iter()
        .map(|m| (Some(m.rule.code), m.message.clone()))
        .collect();
    let covered: Vec<&'static str> = out.iter().filter_map(|(c, _)| *c).collect();
    for field in differing(fa, fb) {
        let code = code_of(&field);
        if code.is_some_and(|c| covered.contains(&c)) {
            continue;
        }
        out.push((
            code,
            format!(
                "{field} is {} on HEAD against {} on BASE",
                shown(fb.get(&field)),
                shown(fa.get(&field))
            ),
        ));
    }
    out
}
