//! The per-user rate derived from a recorded median TPOT (DESIGN.md conventions): a level that
//! records `tpot_ms.p50` and no per-user summary gets `per_user_tok_s.median = 1000 / tpot_ms.p50`
//! with provenance "derived". vLLM, `SGLang` and `GuideLLM` files record the median TPOT and
//! no per-request rate; a request's own decode rate is the reciprocal of its TPOT, and the
//! reciprocal of a median is the median of the reciprocals, so the figure is the median
//! per-user rate the file implies. L003 and `capacity` accept it like a recorded one; findings
//! about it point at the TPOT it came from.
//!
//! Nothing is derived where the level records a per-user mean or median, per-request per-user
//! samples (R017 would then compare two different derivations), or a TPOT that is not a
//! positive finite number.

use serde_json::{Map, Value};

use crate::model::{Level, Provenance, ProvenanceMap};

/// What the derived rate is taken from, as provenance and messages say it.
const FROM_TPOT: &str = "1000 / the median time per output token (`tpot_ms.p50`)";

/// Fills `per_user_tok_s.median` of every level of `value` that records a median TPOT and no
/// per-user summary, recording each as derived.
pub fn derive_per_user(value: &mut Value, provenance: &mut ProvenanceMap) {
    let Some(levels) = value.get_mut("levels").and_then(Value::as_array_mut) else {
        return;
    };
    for (i, level) in levels.iter_mut().enumerate() {
        let Some(obj) = level.as_object_mut() else {
            continue;
        };
        let present = |key: &str, sub: &str| {
            obj.get(key)
                .and_then(|o| o.get(sub))
                .is_some_and(|v| !v.is_null())
        };
        let recorded = present("per_user_tok_s", "mean")
            || present("per_user_tok_s", "median")
            || present("samples", "per_user_tok_s");
        let tpot = obj
            .get("tpot_ms")
            .and_then(|t| t.get("p50"))
            .and_then(Value::as_f64);
        let Some(rate) = rate_from(recorded, tpot) else {
            continue;
        };
        let per_user = obj
            .entry("per_user_tok_s")
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(per_user) = per_user.as_object_mut() else {
            continue;
        };
        per_user.insert("median".into(), Value::from(rate));
        record(provenance, i);
    }
}

/// [`derive_per_user`] on levels read straight into the typed model (schema-valid, so a
/// recorded figure is a number, never `null`): the same rates, the same provenance.
pub fn derive_per_user_typed(levels: &mut [Level], provenance: &mut ProvenanceMap) {
    for (i, level) in levels.iter_mut().enumerate() {
        let per_user = level.per_user_tok_s.as_ref();
        let recorded = per_user.is_some_and(|p| p.mean.is_some() || p.median.is_some())
            || level
                .samples
                .as_ref()
                .is_some_and(|s| s.per_user_tok_s.is_some());
        let tpot = level.tpot_ms.as_ref().and_then(|t| t.p50);
        let Some(rate) = rate_from(recorded, tpot) else {
            continue;
        };
        level.per_user_tok_s.get_or_insert_default().median = Some(rate);
        record(provenance, i);
    }
}

/// The per-user rate a level's median TPOT gives, when it records no per-user figure of its
/// own and the TPOT is a positive finite number.
fn rate_from(recorded: bool, tpot: Option<f64>) -> Option<f64> {
    if recorded {
        return None;
    }
    let tpot = tpot.filter(|t| t.is_finite() && *t > 0.0)?;
    Some(1000.0 / tpot).filter(|r| r.is_finite())
}

fn record(provenance: &mut ProvenanceMap, i: usize) {
    provenance.insert(
        format!("/levels/{i}/per_user_tok_s/median"),
        Provenance::Derived {
            from: FROM_TPOT.to_string(),
            pointer: format!("/levels/{i}/tpot_ms/p50"),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_tpot_gives_the_median_per_user_rate() {
        let mut v = serde_json::json!({ "levels": [
            { "concurrency": 1, "tpot_ms": { "p50": 13.686_303_201_518_745 } },
            { "concurrency": 2, "tpot_ms": { "p50": 20.0 }, "per_user_tok_s": { "median": 40.0 } },
            { "concurrency": 4, "tpot_ms": { "p50": 0.0 } },
            { "concurrency": 8, "tpot_ms": { "p50": 25.0 }, "per_user_tok_s": { "p10": 30.0 } }
        ] });
        let mut p = ProvenanceMap::default();
        derive_per_user(&mut v, &mut p);
        let median = |i: usize| v["levels"][i]["per_user_tok_s"]["median"].as_f64();
        assert!((median(0).unwrap() - 73.0658).abs() < 1e-3);
        assert_eq!(median(1), Some(40.0), "a recorded median is kept");
        assert_eq!(median(2), None, "a zero TPOT gives no rate");
        assert_eq!(median(3), Some(40.0));
        assert_eq!(v["levels"][3]["per_user_tok_s"]["p10"], 30.0);
        assert!(p.is_derived("/levels/0/per_user_tok_s/median"));
        assert!(!p.is_derived("/levels/1/per_user_tok_s/median"));
    }
}
