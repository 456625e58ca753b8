//! The [`Builder`] that fills one canonical result and records, for each value, the pointer in
//! the source document it came from.

use serde_json::{Map, Value};

use super::read::{count, flag, number, rate, scaled, text};
use super::{UNDATED, at, result_id};
use crate::adapters::{Mapped, Source};
use crate::model::{Provenance, ProvenanceMap, RESULT_SCHEMA};

/// Fills one canonical result and its provenance.
pub(crate) struct Builder<'d> {
    doc: &'d Value,
    value: Value,
    provenance: ProvenanceMap,
}

impl<'d> Builder<'d> {
    /// A result read from the object at `base` in `doc` (`""` for the whole document).
    pub(crate) fn new(doc: &'d Value, source: &Source<'_>, base: &str) -> Self {
        let mut value = Map::new();
        value.insert("schema".into(), RESULT_SCHEMA.into());
        value.insert("id".into(), result_id(source, base).into());
        value.insert("measured_at".into(), UNDATED.into());
        value.insert("outcome".into(), "ok".into());
        let mut provenance = ProvenanceMap::default();
        provenance.insert(
            "",
            Provenance::Recorded {
                pointer: base.to_string(),
            },
        );
        Builder {
            doc,
            value: Value::Object(value),
            provenance,
        }
    }

    /// The source document.
    pub(crate) fn doc(&self) -> &'d Value {
        self.doc
    }

    /// Whether the canonical value at `canonical` has been filled.
    pub(crate) fn has(&self, canonical: &str) -> bool {
        self.value.pointer(canonical).is_some()
    }

    /// The canonical value filled at `canonical`, if any.
    pub(crate) fn value(&self, canonical: &str) -> Option<&Value> {
        self.value.pointer(canonical)
    }

    /// Sets the canonical value at `canonical` (objects and `levels/0` made as needed),
    /// recorded at `src` in the source document.
    pub(crate) fn put(&mut self, canonical: &str, value: impl Into<Value>, src: &str) {
        let tokens = crate::json::pointer_tokens(canonical);
        let Some((last, parents)) = tokens.split_last() else {
            return;
        };
        let mut cur = &mut self.value;
        for (i, t) in parents.iter().enumerate() {
            let next_is_index = tokens[i + 1].parse::<usize>().is_ok();
            let fresh = || {
                if next_is_index {
                    Value::Array(Vec::new())
                } else {
                    Value::Object(Map::new())
                }
            };
            cur = match cur {
                Value::Object(m) => m.entry(t.clone()).or_insert_with(fresh),
                Value::Array(a) => {
                    let Ok(i) = t.parse::<usize>() else { return };
                    while a.len() <= i {
                        a.push(fresh());
                    }
                    &mut a[i]
                }
                _ => return,
            };
        }
        match cur {
            Value::Object(m) => {
                m.insert(last.clone(), value.into());
            }
            Value::Array(a) => {
                let Ok(i) = last.parse::<usize>() else { return };
                while a.len() <= i {
                    a.push(Value::Object(Map::new()));
                }
                a[i] = value.into();
            }
            _ => return,
        }
        self.provenance.insert(
            canonical,
            Provenance::Recorded {
                pointer: src.to_string(),
            },
        );
    }

    /// Sets the canonical value at `canonical`, which came from `provenance` (another file of
    /// the run, a server log) rather than from this document.
    pub(crate) fn put_from(
        &mut self,
        canonical: &str,
        value: impl Into<Value>,
        provenance: Provenance,
    ) {
        self.put(canonical, value, "");
        self.provenance.insert(canonical, provenance);
    }

    /// Makes level 0 of `level` (a result mapped from one level file of a ladder) level `index`
    /// of this result, with its provenance: recorded here when `beside` is `None`, else
    /// recorded in the file `beside` (another file of the same run).
    pub(crate) fn adopt_level(&mut self, index: usize, level: &Mapped, beside: Option<&str>) {
        let Some(value) = level.value.pointer("/levels/0") else {
            return;
        };
        let at = format!("/levels/{index}");
        let place = |pointer: &str| match beside {
            None => Provenance::Recorded {
                pointer: pointer.to_string(),
            },
            Some(path) => Provenance::Beside {
                path: path.to_string(),
                pointer: pointer.to_string(),
            },
        };
        let base = match level.provenance.get("").as_deref() {
            Some(Provenance::Recorded { pointer }) => pointer.clone(),
            _ => String::new(),
        };
        self.put_from(&at, value.clone(), place(&base));
        for (canonical, p) in level.provenance.iter() {
            let Some(rest) = canonical
                .strip_prefix("/levels/0")
                .filter(|r| r.is_empty() || r.starts_with('/'))
            else {
                continue;
            };
            let moved = match &*p {
                Provenance::Recorded { pointer } => place(pointer),
                // A value derived from another value of the level follows it.
                Provenance::Derived { from, pointer } => Provenance::Derived {
                    from: from.clone(),
                    pointer: pointer
                        .strip_prefix("/levels/0/")
                        .map_or_else(|| pointer.clone(), |r| format!("{at}/{r}")),
                },
                other => other.clone(),
            };
            self.provenance.insert(format!("{at}{rest}"), moved);
        }
    }

    /// The median per-user rate of level `index` derived from its median TPOT (1000 / p50 ms,
    /// DESIGN.md conventions), with provenance "derived", when the level records a TPOT but no
    /// per-user rate.
    pub(crate) fn per_user_from_tpot(&mut self, index: usize) {
        let tpot = format!("/levels/{index}/tpot_ms/p50");
        let median = format!("/levels/{index}/per_user_tok_s/median");
        if self.has(&median) {
            return;
        }
        let Some(ms) = self
            .value
            .pointer(&tpot)
            .and_then(Value::as_f64)
            .filter(|ms| *ms > 0.0 && ms.is_finite())
        else {
            return;
        };
        self.put(&median, 1000.0 / ms, "");
        self.provenance.insert(
            median,
            Provenance::Derived {
                from: "1000 / the median TPOT".into(),
                pointer: tpot,
            },
        );
    }

    /// Sets a value the format implies without writing it (a harness that always does the same
    /// thing), with provenance "derived" and `why` as what it was derived from: the harness
    /// itself, not a value in the file. A finding about it lands on the object the result was
    /// read from, as for any value that has no key of its own.
    pub(crate) fn implied(&mut self, canonical: &str, value: impl Into<Value>, why: &str) {
        self.put(canonical, value, "");
        self.provenance.insert(
            canonical,
            Provenance::Derived {
                from: why.to_string(),
                pointer: String::new(),
            },
        );
    }

    /// Sets a value computed from recorded ones, with provenance "derived": `from` says how,
    /// `src` what it rests on, where a finding about it lands: the harness's own key, or the
    /// canonical pointer of a value already filled (`/levels/0/requests` for the outcome
    /// `failed` of a run whose every request errored: not a label the author gave, so R007
    /// still reports its zero levels, DESIGN.md conventions).
    pub(crate) fn derived(
        &mut self,
        canonical: &str,
        value: impl Into<Value>,
        from: &str,
        src: &str,
    ) {
        self.put(canonical, value, src);
        self.provenance.insert(
            canonical,
            Provenance::Derived {
                from: from.to_string(),
                pointer: src.to_string(),
            },
        );
    }

    /// Copies the number at `src`, times `scale`, to `canonical`; false when `src` holds no
    /// non-negative finite number.
    pub(crate) fn real(&mut self, canonical: &str, src: &str, scale: f64) -> bool {
        match at(self.doc, src).and_then(number).filter(|f| *f >= 0.0) {
            Some(f) => {
                self.put(canonical, scaled(f, scale), src);
                true
            }
            None => false,
        }
    }

    /// Copies the count at `src` to `canonical` when it is at least `min`.
    pub(crate) fn whole(&mut self, canonical: &str, src: &str, min: u64) -> bool {
        match at(self.doc, src).and_then(count).filter(|n| *n >= min) {
            Some(n) => {
                self.put(canonical, n, src);
                true
            }
            None => false,
        }
    }

    /// Copies the text at `src` to `canonical`.
    pub(crate) fn string(&mut self, canonical: &str, src: &str) -> bool {
        match at(self.doc, src).and_then(text) {
            Some(s) => {
                self.put(canonical, s, src);
                true
            }
            None => false,
        }
    }

    /// Copies the boolean at `src` to `canonical`.
    pub(crate) fn boolean(&mut self, canonical: &str, src: &str) -> bool {
        match at(self.doc, src).and_then(flag) {
            Some(b) => {
                self.put(canonical, b, src);
                true
            }
            None => false,
        }
    }

    /// Copies the first of `srcs` that holds a number (see [`Builder::real`]).
    pub(crate) fn first(&mut self, canonical: &str, srcs: &[String], scale: f64) -> bool {
        srcs.iter().any(|s| self.real(canonical, s, scale))
    }

    /// Per-request values: the numbers of the array at `src` whose index `keep` allows, times
    /// `scale`, as `canonical` (left out when none is a non-negative number).
    pub(crate) fn samples(&mut self, canonical: &str, src: &str, keep: &[bool], scale: f64) {
        let Some(items) = at(self.doc, src).and_then(Value::as_array) else {
            return;
        };
        let values: Vec<Value> = items
            .iter()
            .enumerate()
            .filter(|(i, _)| keep.get(*i).copied().unwrap_or(true))
            .filter_map(|(_, v)| number(v).filter(|f| *f >= 0.0))
            .map(|f| Value::from(scaled(f, scale)))
            .collect();
        if !values.is_empty() {
            self.put(canonical, values, src);
        }
    }

    /// Keys level 0 by its load from the harness's request rate (`rate_src`) and concurrency cap
    /// (`cap_src`), as the module doc says: a finite rate is an open-loop level
    /// (`request_rate`, the cap as `max_concurrency`); an unbounded rate with a cap keeps the
    /// cap's streams in flight, so it is a closed-loop level at that `concurrency` (the rate and
    /// the cap are recorded beside it); an unbounded rate without a cap is `request_rate: "inf"`;
    /// a cap alone is the concurrency. A rate the harness names by a word (`SGLang`'s
    /// `"trace"`) goes to `workload.sampling.request_rate`. A request count is never used.
    /// Returns whether the level got a key.
    pub(crate) fn load(&mut self, rate_src: &str, cap_src: &str) -> bool {
        let rate = at(self.doc, rate_src).and_then(rate);
        let cap = at(self.doc, cap_src).and_then(count).filter(|c| *c >= 1);
        match rate {
            Some(Value::Number(r)) if r.as_f64().is_some_and(|r| r > 0.0) => {
                self.put("/levels/0/request_rate", r, rate_src);
                if let Some(c) = cap {
                    self.put("/levels/0/max_concurrency", c, cap_src);
                }
                true
            }
            Some(Value::String(s)) if s == "inf" => {
                self.put("/levels/0/request_rate", "inf", rate_src);
                if let Some(c) = cap {
                    self.put("/levels/0/max_concurrency", c, cap_src);
                    self.put("/levels/0/concurrency", c, cap_src);
                }
                true
            }
            other => {
                if let Some(word @ Value::String(_)) = other {
                    self.put("/workload/sampling/request_rate", word, rate_src);
                }
                if let Some(c) = cap {
                    self.put("/levels/0/concurrency", c, cap_src);
                }
                cap.is_some()
            }
        }
    }

    /// Sets `measured_at` from the file's date.
    pub(crate) fn measured_at(&mut self, rfc3339: String, src: &str) {
        self.put("/measured_at", rfc3339, src);
    }

    /// The finished result. A level whose concurrency the file does not give (a corrupted
    /// count) keeps no invented one: the loader then reports the result as unreadable (E003)
    /// at the object it was read from.
    pub(crate) fn finish(mut self) -> Mapped {
        if let Value::Object(m) = &mut self.value {
            m.entry("levels")
                .or_insert_with(|| Value::Array(Vec::new()));
        }
        Mapped {
            value: self.value,
            provenance: self.provenance,
        }
    }
}
