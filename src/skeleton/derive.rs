//! What a skeleton can fill in before the team does: values benchlint can work out from what
//! the file records but does not accept as recorded on their own, each with the words that say
//! where it came from. The team checks them; `check` takes them as the sidecar's once the
//! sidecar is beside the file.
//!
//! In order of preference, for a value some results of the file lack:
//! 1. **The file's other results**: when every result that records it records the same value.
//!    A sidecar applies to every result of its file, so this is the only value it can hold
//!    without contradicting one of them (M019).
//! 2. **A serve command that is not verbatim** (`serve_command_source` typed or
//!    launcher-script): the settings it names. `check` derives nothing from such a command,
//!    since it records what someone meant to run; the team confirms it is what ran.
//! 3. **The device count** from the parallel sizes the result records: tensor × pipeline ×
//!    data parallel devices on one node (vLLM's and SGLang's layout), divided by the node
//!    count when one is recorded.
//! 4. **The precision** from a quantisation word in the model's name (`…-FP8`, `…-AWQ`,
//!    `…-MXFP4`): a name says what the checkpoint was published as, not what kernel ran.

use serde_json::Value;

use crate::corpus::checklist::serve_settings;

/// A value filled in for a pointer, and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    /// The value.
    pub value: Value,
    /// Where it came from, in words.
    pub from: String,
}

/// What the results of one file record at `pointer`.
#[derive(Debug, PartialEq)]
pub enum Recorded {
    /// None of them records it.
    Nowhere,
    /// Every one that records it records this value.
    Agreed(Value, usize),
    /// They record different values (shown, sorted, at most a few).
    Disagree(Vec<String>),
}

/// What the results of one file record at a pointer (a recorded null is no value), made a
/// result at a time, holding no result: the first value recorded, how
/// many record one, and once two differ, the few smallest of their shown forms (all a note
/// shows), so that a file's results are read one at a time.
#[derive(Debug, Default)]
pub struct Recording {
    first: Option<Value>,
    count: usize,
    /// The smallest distinct shown forms, at most [`SHOWN`], once a value differs from the
    /// first.
    shown: Option<std::collections::BTreeSet<String>>,
}

/// How many differing values a note shows.
const SHOWN: usize = 4;

impl Recording {
    /// Adds what one result records there (`None`: nothing).
    pub fn add(&mut self, value: Option<&Value>) {
        let Some(value) = value.filter(|v| !v.is_null()) else {
            return;
        };
        self.count += 1;
        let Some(first) = &self.first else {
            self.first = Some(value.clone());
            return;
        };
        // A value equal to the first shows as the first does, already counted in.
        if value == first {
            return;
        }
        let shown = self
            .shown
            .get_or_insert_with(|| std::iter::once(short(first)).collect());
        shown.insert(short(value));
        if shown.len() > SHOWN {
            shown.pop_last();
        }
    }

    /// What the results added record.
    pub fn finish(self) -> Recorded {
        match (self.first, self.shown) {
            (None, _) => Recorded::Nowhere,
            (Some(first), None) => Recorded::Agreed(first, self.count),
            (Some(_), Some(shown)) => Recorded::Disagree(shown.into_iter().collect()),
        }
    }
}

/// A value in a note: its JSON, cut at 40 characters.
pub(super) fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

/// The value every result lacking a pointer lets benchlint work out from its own record, when
/// they agree, made a result at a time: the value the results so far let benchlint work
/// out, until one lets it work out none or another.
#[derive(Debug, Default)]
pub enum Derivation {
    /// No result yet.
    #[default]
    Empty,
    /// Every result so far gives this.
    Found(Derived),
    /// One gave none, or two differ.
    Failed,
}

impl Derivation {
    /// Adds a result lacking `pointer`, whose canonical JSON is `value`.
    pub fn add(&mut self, value: &Value, pointer: &str) {
        if matches!(self, Derivation::Failed) {
            return;
        }
        *self = match (std::mem::take(self), from_result(value, pointer)) {
            (_, None) => Derivation::Failed,
            (Derivation::Found(f), Some(d)) if f.value != d.value => Derivation::Failed,
            (Derivation::Found(f), Some(_)) => Derivation::Found(f),
            (_, Some(d)) => Derivation::Found(d),
        };
    }

    /// The value derived, if every result added gave the same.
    pub fn finish(self) -> Option<Derived> {
        match self {
            Derivation::Found(d) => Some(d),
            Derivation::Empty | Derivation::Failed => None,
        }
    }
}

pub(super) fn from_result(r: &Value, pointer: &str) -> Option<Derived> {
    from_typed_command(r, pointer)
        .or_else(|| device_count(r, pointer))
        .or_else(|| precision_from_name(r, pointer))
}

/// A setting named in a serve command that `check` does not derive from (not verbatim).
fn from_typed_command(r: &Value, pointer: &str) -> Option<Derived> {
    let field = pointer.strip_prefix("/engine/")?;
    let source = r
        .pointer("/engine/serve_command_source")
        .and_then(Value::as_str);
    if matches!(
        source,
        Some("process" | "container-inspect" | "launch-command")
    ) {
        return None;
    }
    let serve = serve_settings(r)?;
    let mut holder = serde_json::json!({});
    let argv = r
        .pointer("/engine/serve_command")
        .is_some_and(Value::is_array);
    crate::corpus::derive_settings(&mut holder, &serve, argv);
    let value = holder.pointer(&format!("/engine/{field}"))?.clone();
    let how = source.map_or_else(
        || "with no `serve_command_source`".to_string(),
        |s| format!("`serve_command_source` \"{s}\""),
    );
    Some(Derived {
        value,
        from: format!(
            "named in the serve command the file records ({how}, so not taken as recorded): check it is what ran"
        ),
    })
}

/// `platform.devices_per_node` from the parallel sizes recorded.
fn device_count(r: &Value, pointer: &str) -> Option<Derived> {
    if pointer != "/platform/devices_per_node" {
        return None;
    }
    let size = |key: &str| {
        r.pointer(&format!("/engine/{key}_parallel_size"))
            .and_then(Value::as_u64)
    };
    let tp = size("tensor")?;
    let (pp, dp) = (size("pipeline"), size("data"));
    let assumed: Vec<&str> = [("pipeline", pp), ("data", dp)]
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(name, _)| *name)
        .collect();
    let (pp, dp) = (pp.unwrap_or(1), dp.unwrap_or(1));
    let nodes = r
        .pointer("/platform/nodes")
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .max(1);
    let total = tp.checked_mul(pp)?.checked_mul(dp)?;
    if total == 0 || total % nodes != 0 {
        return None;
    }
    let per_node = total / nodes;
    let mut basis = vec![if nodes > 1 {
        format!("over the {nodes} nodes recorded")
    } else {
        "if the run used one node".to_string()
    }];
    if !assumed.is_empty() {
        basis.push(format!(
            "with the {} parallel size taken as 1",
            assumed.join(" and ")
        ));
    }
    Some(Derived {
        value: Value::from(per_node),
        from: format!(
            "tensor × pipeline × data parallel sizes ({tp} × {pp} × {dp}) {}: check it",
            basis.join(", ")
        ),
    })
}

/// Quantisation words a model name may carry, and the precision each names.
const PRECISION_WORDS: [(&str, &str); 13] = [
    ("fp8", "fp8"),
    ("fp4", "fp4"),
    ("nvfp4", "nvfp4"),
    ("mxfp4", "mxfp4"),
    ("int8", "int8"),
    ("int4", "int4"),
    ("w8a8", "w8a8"),
    ("w4a16", "w4a16"),
    ("w8a16", "w8a16"),
    ("awq", "awq"),
    ("gptq", "gptq"),
    ("bf16", "bf16"),
    ("fp16", "fp16"),
];

/// `model.precision` from a quantisation word in the model's name.
fn precision_from_name(r: &Value, pointer: &str) -> Option<Derived> {
    if pointer != "/model/precision" {
        return None;
    }
    let name = r.pointer("/model/name")?.as_str()?;
    let last = name.rsplit('/').next().unwrap_or(name);
    let words: Vec<String> = last
        .split(['-', '_', '.', ' '])
        .map(str::to_ascii_lowercase)
        .collect();
    let found: Vec<&str> = PRECISION_WORDS
        .iter()
        .filter(|(word, _)| words.iter().any(|w| w == word))
        .map(|(_, p)| *p)
        .collect();
    // Two words (`…-FP8-KV-FP16`) leave it open.
    let [precision] = found.as_slice() else {
        return None;
    };
    Some(Derived {
        value: Value::from(*precision),
        from: format!(
            "the model's name `{last}` says {precision}; a name is what the checkpoint was published as: check it"
        ),
    })
}
