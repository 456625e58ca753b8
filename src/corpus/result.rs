//! One result, once recognised: bounded, sidecars and the run folder merged, settings derived,
//! read as the typed model, its rules run, and kept lean for the corpus-wide rules.

use serde::Deserialize as _;
use serde_json::Value;

use crate::diagnostic::{Finding, Location};
use crate::model::{Level, ProvenanceMap, RESULT_SCHEMA, ResultDoc};
use crate::rules::{self, Check, Emit, Emitter, ResultCtx, RuleMeta};
use crate::serve_command::ServeSettings;

use super::lean::drop_per_result_detail;
use super::{
    Entry, FileOutcome, LoadedResult, Options, Origin, artifacts, beside, bounds, catch_panic,
    checklist, count_past_cap, derive, finding_at, internal_error, parse, per_user, run_folder,
    sidecar, translate, translate_keyed,
};
#[cfg(test)]
use crate::guard;

pub(super) fn finish_result(
    entry: &Entry,
    origin: Origin,
    (mut value, samples, mut levels): (Value, Vec<crate::json::SampleArray>, Option<Vec<Level>>),
    mut provenance: ProvenanceMap,
    (sides, folder): (&[(String, Value)], &beside::Folder<'_>),
    options: &Options,
    out: &mut FileOutcome,
) {
    // `levels`: a canonical result's levels read straight into the typed model, `value`
    // holding one `null` for each (`crate::json::TypedLevels`).
    if let Some(had) = bounds::bound_levels(&mut value, options.thresholds.max_levels) {
        if let Some(levels) = levels.as_mut() {
            levels.truncate(options.thresholds.max_levels);
        }
        out.findings.push(bounds::levels_finding(
            translate(&origin, &provenance, "/levels"),
            had,
            options.thresholds.max_levels,
        ));
    }
    for (side_path, side_value) in sides {
        let conflicts = sidecar::merge(&mut value, side_value, side_path, &mut provenance);
        for c in conflicts {
            let from = Location::new(side_path.clone(), c.pointer.clone());
            let said = format!("the sidecar `{side_path}` says");
            out.findings.push(run_folder::conflict_finding(
                &origin,
                &provenance,
                &c,
                &said,
                from,
            ));
        }
    }
    // What the run folder kept: the launch command, then the engine's own log.
    run_folder::merge(
        folder,
        &origin,
        &mut value,
        &mut provenance,
        &mut out.findings,
    );
    let command = value.pointer("/engine/serve_command").cloned();
    let serve: Option<ServeSettings> = checklist::serve_settings(&value);
    let verbatim = matches!(
        value
            .pointer("/engine/serve_command_source")
            .and_then(Value::as_str),
        Some("process" | "container-inspect" | "launch-command")
    );
    if let (Some(s), true) = (&serve, verbatim) {
        derive::derive_from_command(
            &mut value,
            s,
            command.as_ref().is_some_and(Value::is_array),
            &mut provenance,
        );
    }
    derive::derive_version_from_image(&mut value, &mut provenance);
    match levels.as_mut() {
        Some(levels) => per_user::derive_per_user_typed(levels, &mut provenance),
        None => per_user::derive_per_user(&mut value, &mut provenance),
    }
    if levels.is_none() {
        drop_unkeyed_levels(&origin, &mut value, &mut provenance, out);
    }
    // The `null`s standing for typed levels are out of the way while the rest is read.
    let standing = levels
        .is_some()
        .then(|| {
            value
                .get_mut("levels")
                .map(|l| std::mem::replace(l, Value::Array(Vec::new())))
        })
        .flatten();
    // Read from a borrow: cloning a document with thousands of samples costs more than
    // checking it.
    let typed = ResultDoc::deserialize(&value).or_else(|_| {
        // JSON Schema counts `32.0` as an integer; the typed model wants `32`.
        let mut whole = value.clone();
        whole_numbers_as_integers(&mut whole);
        ResultDoc::deserialize(&whole)
    });
    if let (Some(standing), Some(slot)) = (standing, value.get_mut("levels")) {
        *slot = standing;
    }
    // Where the arrays left in the text lie, for a caller that writes the JSON out.
    let apart: Vec<crate::json::SampleSpan> = if options.lean {
        Vec::new()
    } else {
        samples.iter().map(crate::json::SampleSpan::from).collect()
    };
    let mut doc: ResultDoc = match typed {
        Ok(mut d) => {
            if let Some(levels) = levels {
                d.levels = levels.into();
            }
            parse::fill_samples(&mut d, samples);
            d
        }
        Err(e) => {
            out.findings.push(finding_at(
                &rules::e003_schema_violation::RULE,
                translate(&origin, &provenance, ""),
                format!("the result could not be read as `{RESULT_SCHEMA}`: {e}"),
                None,
            ));
            return;
        }
    };
    // The schema asks every level for a concurrency or a request rate; an adapter that found
    // neither in the file (a corrupted or absent load) must not have one invented.
    if let Some(i) = doc
        .levels
        .iter()
        .position(|l| l.concurrency.is_none() && l.request_rate.is_none())
    {
        out.findings.push(finding_at(
            &rules::e003_schema_violation::RULE,
            translate(&origin, &provenance, &format!("/levels/{i}")),
            format!(
                "the result could not be read as `{RESULT_SCHEMA}`: level {i} records neither a concurrency nor a \
                 request rate (a request count is neither)"
            ),
            None,
        ));
        return;
    }
    let states = artifacts::check(&doc, entry.path(), &entry.root);
    out.artifact_refs
        .extend(artifacts::referenced(&doc, entry.path()));
    // Where a value absent from a harness's file goes instead (the help of its finding).
    let sidecar = checklist::sidecar_place(origin.path.raw(), sides);
    let ctx = ResultCtx {
        result: &doc,
        value: &value,
        provenance: &provenance,
        serve: serve.as_ref(),
        artifacts: &states,
        thresholds: &options.thresholds,
    };
    for rule in rules::RULES {
        if let (Check::Result(check), true) = (rule.check, options.selection.runs(rule.meta.code)) {
            let mut emits = Vec::new();
            if let Err(message) = catch_panic(|| {
                #[cfg(test)]
                guard::injected(origin.path.raw(), rule.meta.code);
                check(&ctx, &mut Emitter::new(rule.meta, &mut emits));
            }) {
                let what = format!("rule {} ({})", rule.meta.code, rule.meta.name);
                out.internal.push(internal_error(
                    &what,
                    &format!("`{}`", origin.path.raw()),
                    &message,
                ));
                continue;
            }
            // Past the file's cap (the findings it keeps fill it), every finding made now is
            // dropped at the next cap and counted there: where one follows (a document of a
            // JSON Lines file but its last), it is counted here as that cap counts it, without
            // the words, help and places no one will read. A long JSON Lines file makes
            // hundreds of thousands of them.
            let full = out.past_cap;
            for mut e in emits {
                if full {
                    let (loc, _) =
                        translate_keyed(&origin, &provenance, std::mem::take(&mut e.pointer));
                    let (severity, pre_rule) = emit_severity(&e, doc.measured_date());
                    count_past_cap(
                        (e.rule.code, severity, pre_rule),
                        (loc.path.raw(), e.corpus),
                        &options.selection,
                        &mut out.omitted,
                    );
                    continue;
                }
                if e.absent.is_some() && !origin.is_canonical() {
                    e.help = Some(checklist::harness_help(
                        e.help.take(),
                        &e.pointer,
                        origin.format,
                        origin.path.raw(),
                        (&sidecar.0, sidecar.1),
                    ));
                    if let Some(a) = e.absent.as_mut() {
                        a.sidecar = Some(checklist::harness_note(
                            origin.format,
                            (&sidecar.0, sidecar.1),
                        ));
                    }
                }
                let (loc, key) =
                    translate_keyed(&origin, &provenance, std::mem::take(&mut e.pointer));
                let related = std::mem::take(&mut e.related)
                    .into_iter()
                    .map(|r| {
                        if r.path.is_empty() {
                            translate(&origin, &provenance, r.pointer.raw())
                        } else {
                            r
                        }
                    })
                    .collect();
                let mut finding = emit_to_finding(e, loc, related, doc.measured_date());
                finding.key = key;
                out.push_finding(finding, options);
            }
        }
    }
    out.lighten_past_cap(options);
    let checklist = options.checklist.as_ref().map(|items| {
        crate::audit::checklist::states_of(
            (&doc, &value, &provenance),
            origin.path.raw(),
            items,
            &options.thresholds,
            &|path, code| options.selection.runs_on(path, code),
        )
        .into_boxed_slice()
    });
    if options.lean {
        drop_per_result_detail(&mut doc);
        if options.put_away {
            provenance = crate::model::ProvenanceMap::default();
        } else {
            options.shared.share_result(&mut doc, &mut provenance);
        }
        value = Value::Null;
    }
    out.results.push(LoadedResult {
        origin,
        doc,
        value: crate::model::loaded::Canonical::with_samples_apart(value, apart),
        provenance,
        checklist,
    });
}

/// Whether a canonical level records the load it ran at (a concurrency or a request rate).
fn keyed(level: &Value) -> bool {
    ["concurrency", "request_rate"]
        .iter()
        .any(|k| level.get(*k).is_some_and(|v| !v.is_null()))
}

/// A bad record spoils only itself: a level an adapter read without the load it ran at (one
/// stage of a ladder whose rate went missing, one row of a sweep) is reported where it came
/// from (E003) and left out, and the result is read with its other levels. The schema asks
/// every level for a load, and none is invented. When no level records one the result is not
/// read at all ([`finish_result`]).
fn drop_unkeyed_levels(
    origin: &Origin,
    value: &mut Value,
    provenance: &mut crate::model::ProvenanceMap,
    out: &mut FileOutcome,
) {
    let Some(list) = value.get_mut("levels").and_then(Value::as_array_mut) else {
        return;
    };
    let keep: Vec<bool> = list.iter().map(keyed).collect();
    let kept = keep.iter().filter(|k| **k).count();
    if kept == 0 || kept == keep.len() {
        return;
    }
    for (i, _) in keep.iter().enumerate().filter(|(_, k)| !**k) {
        let at = translate(origin, provenance, &format!("/levels/{i}"));
        if at.path != origin.path {
            out.left_out.push(at.path.raw().to_string());
        }
        out.findings.push(finding_at(
            &rules::e003_schema_violation::RULE,
            at,
            format!(
                "level {i} records neither a concurrency nor a request rate (a request count is \
                 neither): it is left out, and the result is read with its other {}",
                crate::numbers::plural(kept, "level", "levels")
            ),
            None,
        ));
    }
    let mut flags = keep.iter();
    list.retain(|_| flags.next().copied().unwrap_or(true));
    provenance.retain_levels(&keep);
}

/// The severity of a rule's report, and whether it was measured before the rule was adopted
/// (then labelled, not failed: an info).
fn emit_severity(e: &Emit, measured: Option<&str>) -> (crate::diagnostic::Severity, bool) {
    match (e.rule.since, measured) {
        (Some(since), Some(date)) if date < since => (crate::diagnostic::Severity::Info, true),
        _ => (e.severity.unwrap_or(e.rule.severity), false),
    }
}

/// Turns a rule's report into a finding, applying the rule's adoption date.
pub fn emit_to_finding(
    e: Emit,
    primary: Location,
    related: Vec<Location>,
    measured: Option<&str>,
) -> Finding {
    let rule: &'static RuleMeta = e.rule;
    let (severity, pre_rule) = emit_severity(&e, measured);
    let mut message = e.message;
    if let (true, Some(since), Some(date)) = (pre_rule, rule.since, measured) {
        message.push_text(crate::text!(
            " [measured {}, before this rule was adopted on {}: labelled, not failed]",
            date,
            crate::text::Own(since)
        ));
    }
    Finding {
        rule,
        severity,
        pre_rule,
        primary,
        related,
        message,
        label: e.label,
        help: e.help,
        absent: e.absent.map(Box::new),
        key: None,
        placed: None,
        corpus: e.corpus,
    }
}

/// Rewrites every whole-number float (`32.0`) as an integer, in place.
pub(super) fn whole_numbers_as_integers(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if n.is_f64() => {
                if let Some(f) = n.as_f64() {
                    #[expect(
                        clippy::cast_possible_truncation,
                        reason = "checked whole and in range"
                    )]
                    if f.fract() == 0.0 && f.abs() < 9.0e15 {
                        *v = Value::from(f as i64);
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PowerKind;

    #[test]
    fn a_kept_result_keeps_what_the_corpus_rules_read_and_packs_its_levels() {
        let mut doc: ResultDoc = serde_json::from_value(serde_json::json!({
            "schema": "benchlint/result/v1",
            "id": "r1",
            "measured_at": "2026-01-01T00:00:00Z",
            "outcome": "ok",
            "levels": [{"concurrency": 8, "duration_s": 60.5,
                        "samples": {"ttft_s": [0.1, 0.2]}}],
            "artifacts": {
                "power_trace": {"path": "r1.power.csv", "kind": "wall"},
                "quality_gate": {"path": "r1.gate.csv", "passed": true, "score": 0.96}
            },
            "notes": "free text no corpus rule reads"
        }))
        .unwrap();
        drop_per_result_detail(&mut doc);
        assert!(doc.levels.is_packed());
        let level = doc.levels.first().unwrap();
        assert_eq!((level.concurrency, level.duration_s), (Some(8), Some(60.5)));
        assert!(level.samples.is_none());
        assert_eq!((doc.id.as_str(), doc.notes.as_deref()), ("r1", None));
        assert!(doc.schema.is_empty());
        let artifacts = doc.artifacts.as_ref().unwrap();
        let trace = artifacts.power_trace.as_ref().unwrap();
        assert_eq!(
            (trace.path.as_deref(), trace.kind),
            (None, Some(PowerKind::Wall))
        );
        let gate = artifacts.quality_gate.as_ref().unwrap();
        assert_eq!((gate.path.as_deref(), gate.passed), (None, Some(true)));
    }
}
