//! What every adapter needs: reading numbers the way harnesses write them (numbers, numeric
//! strings, `NaN` / `Infinity` read by the tolerant parser as strings), timestamps, result ids,
//! and a builder that fills a canonical document and records, for each value, the pointer in
//! the source document it came from (so a finding lands on the harness's own key).
//!
//! Conventions shared by all adapters (each module says how it applies them):
//!
//! - **id**: `<path>#<doc_index>`, plus `/<pointer>` when the result is a part of the document
//!   (`run.json#0/benchmarks/3`). Appending documents to a file (vLLM `--append-result`,
//!   `SGLang`'s JSON Lines) keeps the earlier ids; the path is the one given on the command line,
//!   without a leading `./`.
//! - **`measured_at`**: the file's own date (converted to RFC 3339); a naive local time is read
//!   as UTC (the file does not say its offset). A format that records no date gets
//!   [`UNDATED`], the epoch, which `ResultDoc::measured_date` reads as "no date": rules with
//!   an adoption date then apply strictly (an undated file cannot show it predates a rule).
//! - **load**: a level is keyed by its concurrency (closed loop: the cap on streams in flight
//!   the harness was given, also when every request was released at once under that cap) or
//!   by its request rate (open loop: `request_rate`, a number or `"inf"`, with the cap as
//!   `max_concurrency`); [`Builder::load`] applies this. A request count (`num_prompts`,
//!   `completed`) is never a concurrency: an open-loop level without a cap has none. A rate
//!   the harness names by a word (`"trace"`) is kept in `workload.sampling.request_rate`.
//! - **outcome**: `ok`, unless the file says otherwise (a harness's own cancelled flag) or
//!   every request of the run failed; that `failed` is benchlint's conclusion from the counts,
//!   recorded with provenance "derived" ([`Builder::derived`]): it is not a label the author
//!   gave, so R007 still reports the zero levels (DESIGN.md conventions). A throughput or
//!   latency the harness writes as `0.0` for a level with no completed request is not mapped:
//!   it is not a measurement.
//! - **labels**: free-form labels a harness records (vLLM's `--metadata` pairs and `--label`,
//!   `GuideLLM`'s scenario labels, `AIPerf`'s scenario) go to `labels` ([`labels`]), which the
//!   configuration fingerprint includes.
//! - A value the format does not record is left out, never a placeholder; numbers that are
//!   negative, `NaN` or infinite are left out too (formats.md §0.1, §0.9).

use serde_json::{Map, Value};

use super::{Mapped, Source};
use crate::json::escape_pointer_token;
use crate::model::{Provenance, ProvenanceMap, RESULT_SCHEMA};

/// What a derived outcome `failed` is concluded from, as provenance and messages say it.
pub(crate) const NONE_COMPLETED: &str = "the counts: no request completed and some failed";

/// `measured_at` of a format that records no date (`SGLang`, genai-perf): the epoch.
pub(crate) const UNDATED: &str = "1970-01-01T00:00:00Z";

/// The source pointer `base` extended by `tokens` (each escaped).
pub(crate) fn ptr(base: &str, tokens: &[&str]) -> String {
    let mut out = base.to_string();
    for t in tokens {
        out.push('/');
        out.push_str(&escape_pointer_token(t));
    }
    out
}

/// The value at `pointer`, unless it is absent or null.
pub(crate) fn at<'v>(doc: &'v Value, pointer: &str) -> Option<&'v Value> {
    doc.pointer(pointer).filter(|v| !v.is_null())
}

/// A finite number, from a JSON number or a numeric string (llmperf writes `"550"`);
/// `NaN` and infinities (bare or as strings) are not numbers here.
pub(crate) fn number(v: &Value) -> Option<f64> {
    let f = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    f.is_finite().then_some(f)
}

/// A non-negative whole number (`66.0` counts; `66.5` does not).
pub(crate) fn count(v: &Value) -> Option<u64> {
    if let Some(u) = v.as_u64() {
        return Some(u);
    }
    let f = number(v)?;
    if !(f >= 0.0 && f.fract() == 0.0 && f < 9.0e15) {
        return None;
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "checked whole, non-negative and in range"
    )]
    let n = f as u64;
    Some(n)
}

/// A boolean, also from the strings user metadata carries (`"true"`, `"False"`, `"1"`).
pub(crate) fn flag(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Some(true),
            "false" | "0" | "no" => Some(false),
            _ => None,
        },
        Value::Number(n) => match n.as_f64() {
            Some(1.0) => Some(true),
            Some(0.0) => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// A non-empty string (numbers written where a name belongs are taken as their text).
pub(crate) fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A request rate as the harnesses write it: a number, vLLM's `"inf"`, `SGLang`'s bare
/// `Infinity` (a string after the tolerant parser), or a word such as `SGLang`'s `"trace"`.
pub(crate) fn rate(v: &Value) -> Option<Value> {
    match v {
        Value::Number(_) => number(v).filter(|f| *f >= 0.0).map(Value::from),
        Value::String(s) => {
            let t = s.trim();
            if matches!(
                t.to_ascii_lowercase().as_str(),
                "inf" | "+inf" | "infinity" | "+infinity"
            ) {
                Some(Value::from("inf"))
            } else if let Ok(f) = t.parse::<f64>() {
                (f.is_finite() && f >= 0.0).then(|| Value::from(f))
            } else if t.is_empty() || t.eq_ignore_ascii_case("nan") {
                None
            } else {
                Some(Value::from(t))
            }
        }
        _ => None,
    }
}

/// The id of a result read from `source`, at `sub` (a pointer inside the document, or "").
pub(crate) fn result_id(source: &Source<'_>, sub: &str) -> String {
    let path = source.path.strip_prefix("./").unwrap_or(source.path);
    format!("{path}#{}{sub}", source.doc_index)
}

/// RFC 3339 (UTC, whole seconds) of a Unix time in seconds.
pub(crate) fn from_epoch_seconds(secs: f64) -> Option<String> {
    // 1990 to 2100: anything else is not a wall-clock time (a monotonic clock, a unit slip).
    if !(631_152_000.0..4_102_444_800.0).contains(&secs) {
        return None;
    }
    #[expect(clippy::cast_possible_truncation, reason = "range checked above")]
    let s = secs.floor() as i64;
    let (days, rem) = (s.div_euclid(86_400), s.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    Some(format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    ))
}

/// Year, month, day of a count of days since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// RFC 3339 of vLLM's `date` (`%Y%m%d-%H%M%S`, local time without offset, read as UTC).
pub(crate) fn from_compact_date(s: &str) -> Option<String> {
    let b = s.trim().as_bytes();
    if b.len() != 15
        || b[8] != b'-'
        || !b
            .iter()
            .enumerate()
            .all(|(i, c)| i == 8 || c.is_ascii_digit())
    {
        return None;
    }
    let t = std::str::from_utf8(b).ok()?;
    stamp(
        [
            &t[0..4],
            &t[4..6],
            &t[6..8],
            &t[9..11],
            &t[11..13],
            &t[13..15],
        ],
        "Z",
    )
}

/// RFC 3339 of an ISO 8601 date-time (`2026-01-15T06:27:34.166021`, with or without an
/// offset; without one it is read as UTC). Fractions of a second are dropped.
pub(crate) fn from_iso(s: &str) -> Option<String> {
    let t = s.trim();
    let b = t.as_bytes();
    if b.len() < 19
        || !b[..19].is_ascii()
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't' | b' ')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let mut rest = &t[19..];
    if let Some(r) = rest.strip_prefix('.') {
        rest = r.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let offset = match rest {
        "" | "Z" | "z" => "Z".to_string(),
        o if o.len() == 6
            && (o.starts_with('+') || o.starts_with('-'))
            && o.bytes().enumerate().all(|(i, c)| {
                i == 0 || (i == 3 && c == b':') || (i != 3 && c.is_ascii_digit())
            }) =>
        {
            o.to_string()
        }
        _ => return None,
    };
    stamp(
        [
            &t[0..4],
            &t[5..7],
            &t[8..10],
            &t[11..13],
            &t[14..16],
            &t[17..19],
        ],
        &offset,
    )
}

/// `YYYY-MM-DDTHH:MM:SS` + `offset` from the digit fields year, month, day, hour, minute,
/// second, when they form a plausible time.
fn stamp(fields: [&str; 6], offset: &str) -> Option<String> {
    let mut v = [0u32; 6];
    for (slot, f) in v.iter_mut().zip(fields) {
        *slot = f.parse().ok()?;
    }
    let ok = (1990..2100).contains(&v[0])
        && (1..=12).contains(&v[1])
        && (1..=31).contains(&v[2])
        && v[3] < 24
        && v[4] < 60
        && v[5] < 60;
    let [year, month, day, hour, minute, second] = fields;
    ok.then(|| format!("{year}-{month}-{day}T{hour}:{minute}:{second}{offset}"))
}

/// How a free-form metadata value is read.
#[derive(Clone, Copy)]
enum Kind {
    /// A whole number, at least 1.
    Count,
    /// A whole number, at least 0.
    Whole,
    /// A non-negative number.
    Real,
    /// A boolean (`"true"`, `"False"`, ...).
    Bool,
    /// A name.
    Name,
}

/// Free-form keys that name a canonical field unambiguously: vLLM `--metadata KEY=VALUE`
/// pairs and the serve/bench override keys of `vllm bench sweep serve` (formats.md §1.2,
/// §1.5, §0.5), llmperf's user metadata (§5). Values there are strings, hence [`Kind`].
/// Ambiguous keys (`framework`, `model`, `model_size`) are not read: `framework` is the
/// provider in the llmperf leaderboard and an engine nickname (`sgl`) elsewhere.
const KNOWN_KEYS: &[(&str, &str, Kind)] = &[
    ("max_num_seqs", "/engine/max_num_seqs", Kind::Count),
    ("max_model_len", "/engine/max_model_len", Kind::Count),
    (
        "max_num_batched_tokens",
        "/engine/max_num_batched_tokens",
        Kind::Count,
    ),
    (
        "tensor_parallel_size",
        "/engine/tensor_parallel_size",
        Kind::Count,
    ),
    ("tp", "/engine/tensor_parallel_size", Kind::Count),
    ("tp_size", "/engine/tensor_parallel_size", Kind::Count),
    (
        "pipeline_parallel_size",
        "/engine/pipeline_parallel_size",
        Kind::Count,
    ),
    ("pp", "/engine/pipeline_parallel_size", Kind::Count),
    ("pp_size", "/engine/pipeline_parallel_size", Kind::Count),
    (
        "data_parallel_size",
        "/engine/data_parallel_size",
        Kind::Count,
    ),
    ("dp", "/engine/data_parallel_size", Kind::Count),
    ("dp_size", "/engine/data_parallel_size", Kind::Count),
    ("kv_cache_dtype", "/engine/kv_cache_dtype", Kind::Name),
    ("enforce_eager", "/engine/enforce_eager", Kind::Bool),
    (
        "enable_prefix_caching",
        "/engine/enable_prefix_caching",
        Kind::Bool,
    ),
    ("engine", "/engine/name", Kind::Name),
    ("engine_version", "/engine/version", Kind::Name),
    ("quantization", "/model/precision", Kind::Name),
    ("precision", "/model/precision", Kind::Name),
    ("temperature", "/workload/temperature", Kind::Real),
    ("seed", "/workload/seed", Kind::Whole),
    ("ignore_eos", "/workload/ignore_eos", Kind::Bool),
    ("dataset_name", "/workload/dataset", Kind::Name),
    ("dataset", "/workload/dataset", Kind::Name),
    (
        "random_output_len",
        "/workload/max_output_tokens",
        Kind::Count,
    ),
    ("output_len", "/workload/max_output_tokens", Kind::Count),
    ("gpu", "/platform/description", Kind::Name),
    ("hardware", "/platform/description", Kind::Name),
];

/// Reads the [`KNOWN_KEYS`] among the keys of the object at `base` into `b` (a field already
/// filled keeps its value; `"None"` and `"null"` strings are not values).
pub(crate) fn known_keys(b: &mut Builder<'_>, base: &str) {
    let Some(obj) = at(b.doc(), base).and_then(Value::as_object) else {
        return;
    };
    for (key, v) in obj {
        let norm = key.trim().to_ascii_lowercase().replace('-', "_");
        let Some((_, canonical, kind)) = KNOWN_KEYS.iter().find(|(k, _, _)| *k == norm) else {
            continue;
        };
        if b.has(canonical)
            || v.as_str()
                .is_some_and(|s| matches!(s.trim().to_ascii_lowercase().as_str(), "none" | "null"))
        {
            continue;
        }
        let src = ptr(base, &[key]);
        let value = match kind {
            Kind::Count => count(v).filter(|n| *n >= 1).map(Value::from),
            Kind::Whole => count(v).map(Value::from),
            Kind::Real => number(v).filter(|f| *f >= 0.0).map(Value::from),
            Kind::Bool => flag(v).map(Value::from),
            Kind::Name => text(v).map(Value::from),
        };
        if let Some(value) = value {
            b.put(canonical, value, &src);
        }
    }
}

/// Copies every free-form label among the keys of the object at `base` into `labels`: a
/// non-empty string under a key that `own` does not claim for the harness (vLLM merges each
/// `--metadata KEY=VALUE` pair into its result as a string, §0.5). Labels are part of the
/// configuration fingerprint, so two deployments the user labelled apart stay apart; a pair
/// that also names a canonical field ([`known_keys`]) is kept as a label too, as written.
pub(crate) fn labels(b: &mut Builder<'_>, base: &str, own: impl Fn(&str) -> bool) {
    let Some(obj) = at(b.doc(), base).and_then(Value::as_object) else {
        return;
    };
    for (key, v) in obj {
        if own(key) || key.trim().is_empty() {
            continue;
        }
        if let Value::String(text) = v
            && !text.trim().is_empty()
        {
            let canonical = format!("/labels/{}", escape_pointer_token(key));
            b.put(&canonical, text.trim(), &ptr(base, &[key]));
        }
    }
}

/// `value × scale`, dividing by the whole reciprocal for a unit step down (ms to s is `/ 1000`,
/// which keeps `388.1` ms as `0.3881` s where `× 0.001` would give `0.38810000000000006`).
pub(crate) fn scaled(value: f64, scale: f64) -> f64 {
    if scale > 0.0 && scale < 1.0 {
        let divisor = (1.0 / scale).round();
        if (divisor * scale - 1.0).abs() < 1e-9 {
            return value / divisor;
        }
    }
    value * scale
}

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

    /// Sets the canonical value at `canonical` (objects and `levels/0` made as needed),
    /// recorded at `src` in the source document.
    pub(crate) fn put(&mut self, canonical: &str, value: impl Into<Value>, src: &str) {
        let tokens: Vec<String> = canonical
            .split('/')
            .skip(1)
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect();
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
        let base = match level.provenance.get("") {
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
            let moved = match p {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_come_from_numbers_and_numeric_strings_but_not_from_non_finite_words() {
        assert_eq!(number(&Value::from("550")), Some(550.0));
        assert_eq!(number(&Value::from(1.5)), Some(1.5));
        assert_eq!(number(&Value::from("NaN")), None);
        assert_eq!(number(&Value::from("Infinity")), None);
        assert_eq!(count(&Value::from(66.0)), Some(66));
        assert_eq!(count(&Value::from(66.5)), None);
        assert_eq!(count(&Value::from(-1)), None);
    }

    #[test]
    fn rates_keep_infinity_as_inf() {
        assert_eq!(rate(&Value::from("Infinity")), Some(Value::from("inf")));
        assert_eq!(rate(&Value::from("inf")), Some(Value::from("inf")));
        assert_eq!(rate(&Value::from(4.0)), Some(Value::from(4.0)));
        assert_eq!(rate(&Value::from("trace")), Some(Value::from("trace")));
        assert_eq!(rate(&Value::from("NaN")), None);
    }

    #[test]
    fn dates_become_rfc3339() {
        assert_eq!(
            from_compact_date("20250530-194738").as_deref(),
            Some("2025-05-30T19:47:38Z")
        );
        assert_eq!(from_compact_date("2025-05-30"), None);
        assert_eq!(
            from_iso("2026-01-15T06:27:34.166021").as_deref(),
            Some("2026-01-15T06:27:34Z")
        );
        assert_eq!(
            from_iso("2026-01-15T06:27:34+02:00").as_deref(),
            Some("2026-01-15T06:27:34+02:00")
        );
        assert_eq!(
            from_epoch_seconds(1_703_135_943.0).as_deref(),
            Some("2023-12-21T05:19:03Z")
        );
        assert_eq!(
            from_epoch_seconds(1_749_157_168.18).as_deref(),
            Some("2025-06-05T20:59:28Z")
        );
        assert_eq!(from_epoch_seconds(12.0), None);
    }

    #[test]
    fn put_makes_the_path_and_records_the_source() {
        let doc = serde_json::json!({"x": {"y": 2}});
        let source = Source {
            path: "./a.json",
            file_name: "a.json",
            doc_index: 0,
            doc_count: 1,
            folder: None,
        };
        let mut b = Builder::new(&doc, &source, "");
        assert!(b.real("/levels/0/ttft_s/p50", "/x/y", 0.001));
        b.whole("/levels/0/concurrency", "/x/y", 1);
        let m = b.finish();
        assert_eq!(m.value["id"], "a.json#0");
        assert_eq!(m.value["levels"][0]["ttft_s"]["p50"], 0.002);
        assert_eq!(
            m.provenance.get("/levels/0/ttft_s/p50"),
            Some(&Provenance::Recorded {
                pointer: "/x/y".into()
            })
        );
    }
}
