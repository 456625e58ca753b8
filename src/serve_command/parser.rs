//! The parse state of a serve command: each flag read into the settings it names, and the
//! pieces that are only combined at the end (speculative decoding from its several spellings,
//! expert parallelism from a switch or from the tensor parallel size).
use serde_json::Value;

use super::count::{Count, json_count, parse_count};
use super::flags::{self, NumField, NumStyle, StrField, Target};
use super::{EngineKind, Found, ServeSettings, Speculative, looks_like_flag};

/// Speculative settings from one source, before the sources are combined.
#[derive(Debug, Clone, Default)]
struct SpecParts {
    arg_index: usize,
    enabled: bool,
    method: Option<String>,
    tokens: Option<u64>,
    draft: Option<String>,
}

impl SpecParts {
    fn new(arg_index: usize, enabled: bool) -> Self {
        SpecParts {
            arg_index,
            enabled,
            ..SpecParts::default()
        }
    }
}

/// Parse state: the settings so far plus pieces that are combined at the end.
#[derive(Default)]
pub(super) struct Parser {
    pub(super) out: ServeSettings,
    /// vLLM `--speculative-config JSON`.
    spec_json: Option<SpecParts>,
    /// vLLM `--speculative-config.KEY VALUE`; vLLM re-emits these as one JSON argument after
    /// all others, so they replace a whole `--speculative-config`.
    spec_dotted: Option<SpecParts>,
    /// Legacy vLLM `--speculative-model` and `--num-speculative-tokens`.
    legacy_model: Option<Found<String>>,
    legacy_tokens: Option<u64>,
    /// SGLang `--speculative-*`.
    sg_algorithm: Option<Found<String>>,
    sg_draft: Option<String>,
    sg_draft_tokens: Option<u64>,
    sg_steps: Option<u64>,
    sg_topk: Option<u64>,
    /// vLLM `--[no-]enable-expert-parallel`.
    ep_switch: Option<Found<bool>>,
    /// SGLang `--enable-ep-moe`: index of the flag.
    ep_from_tp: Option<usize>,
}

impl Parser {
    /// A parser for a command whose launcher names `engine` (`None`: no launcher found).
    pub(super) fn new(engine: Option<EngineKind>) -> Self {
        Parser {
            out: ServeSettings {
                engine,
                ..ServeSettings::default()
            },
            ..Parser::default()
        }
    }

    /// Reads the flag at `i` and returns the index of the next unread argument.
    pub(super) fn flag(&mut self, argv: &[String], i: usize) -> usize {
        let arg = argv[i].as_str();
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (arg, None),
        };
        let vllm_rules = matches!(self.out.engine, None | Some(EngineKind::Vllm));
        if vllm_rules && name.starts_with("-O") {
            // vLLM `-O3`, `-O=3`, `-O 3`: the optimisation level, recorded nowhere. The level
            // after a bare `-O` is left to the main loop, which skips it as a stray positional.
            return i + 1;
        }
        // `-cc.mode 3` is as valid as `--compilation-config.mode 3`.
        if vllm_rules && let Some((base, path)) = name.split_once('.') {
            return self.dotted(argv, i, name, base, path, inline);
        }
        let Some((target, negated)) = flags::lookup(name, self.out.engine) else {
            self.unknown(name);
            // Guess the arity: `--enable-*`, `--disable-*` and `--no-*` are switches in all
            // three engines; anything else is assumed to take the next non-flag argument.
            let body = name.trim_start_matches('-');
            let switch = ["enable", "disable", "no"].iter().any(|p| {
                body.strip_prefix(p)
                    .is_some_and(|r| r.starts_with(['-', '_']))
            });
            return match argv.get(i + 1) {
                Some(next) if inline.is_none() && !switch && !looks_like_flag(next) => i + 2,
                _ => i + 1,
            };
        };
        if !target.takes_value() {
            // argparse and click reject `--switch=value`.
            if inline.is_some() {
                self.unknown(name);
            } else {
                self.switch(target, !negated, i);
            }
            return i + 1;
        }
        let (value, next) = match (inline, argv.get(i + 1)) {
            (Some(v), _) => (Some(v), i + 1),
            (None, Some(v)) if !looks_like_flag(v) => (Some(v.as_str()), i + 2),
            (None, _) => (None, i + 1),
        };
        match value {
            Some(v) => self.value(target, name, v, i),
            None => self.unknown(name),
        }
        next
    }

    fn unknown(&mut self, name: &str) {
        self.out.unknown_flags.push(name.to_owned());
    }

    fn switch(&mut self, target: Target, on: bool, i: usize) {
        let found = |value| {
            Some(Found {
                value,
                arg_index: i,
            })
        };
        match target {
            Target::Eager(v) => self.out.enforce_eager = found(v == on),
            Target::PrefixCaching(v) => self.out.enable_prefix_caching = found(v == on),
            Target::ExpertParallelSwitch => self.ep_switch = found(on),
            Target::ExpertParallelFromTp => self.ep_from_tp = Some(i),
            _ => {}
        }
    }

    fn value(&mut self, target: Target, name: &str, v: &str, i: usize) {
        let ok = match target {
            // An empty string is no answer: report it rather than record "".
            Target::Str(_) | Target::SpecLegacyModel | Target::SpecAlgorithm if v.is_empty() => {
                false
            }
            Target::Str(field) => {
                *self.str_slot(field) = Some(Found {
                    value: v.to_owned(),
                    arg_index: i,
                });
                true
            }
            Target::Num(field, style) => match parse_count(v, style) {
                Count::Value(n) => {
                    *self.num_slot(field) = Some(Found {
                        value: n,
                        arg_index: i,
                    });
                    true
                }
                // The last flag wins, and it hands the choice back to the engine.
                Count::EngineChooses => {
                    *self.num_slot(field) = None;
                    true
                }
                Count::Invalid => false,
            },
            Target::EagerFromGraphBackend => {
                let eager = match v {
                    "disabled" => Some(true),
                    "full" | "breakable" => Some(false),
                    _ => None,
                };
                if let Some(value) = eager {
                    self.out.enforce_eager = Some(Found {
                        value,
                        arg_index: i,
                    });
                }
                eager.is_some()
            }
            Target::SpecConfig => self.spec_config(v, i),
            Target::SpecLegacyModel => {
                self.legacy_model = Some(Found {
                    value: v.to_owned(),
                    arg_index: i,
                });
                true
            }
            Target::SpecAlgorithm => {
                self.sg_algorithm = Some(Found {
                    value: v.to_ascii_lowercase(),
                    arg_index: i,
                });
                true
            }
            Target::SpecDraftModel => {
                self.sg_draft = Some(v.to_owned());
                !v.is_empty()
            }
            Target::SpecLegacyTokens
            | Target::SpecDraftTokens
            | Target::SpecSteps
            | Target::SpecTopk => {
                let n = match parse_count(v, NumStyle::Plain) {
                    Count::Value(n) => Some(n),
                    _ => None,
                };
                match target {
                    Target::SpecLegacyTokens => self.legacy_tokens = n,
                    Target::SpecDraftTokens => self.sg_draft_tokens = n,
                    Target::SpecSteps => self.sg_steps = n,
                    _ => self.sg_topk = n,
                }
                n.is_some()
            }
            _ => true,
        };
        if !ok {
            self.unknown(name);
        }
    }

    /// vLLM `--speculative-config`: JSON, or `None`/`null`/empty for off. Returns whether the
    /// value was understood; malformed JSON still records speculation as on, budget unknown.
    fn spec_config(&mut self, v: &str, i: usize) -> bool {
        let trimmed = v.trim();
        let (parts, ok) = if trimmed.is_empty() || trimmed == "None" {
            (SpecParts::new(i, false), true)
        } else {
            match serde_json::from_str::<Value>(trimmed) {
                Ok(Value::Null) => (SpecParts::new(i, false), true),
                Ok(Value::Object(map)) => {
                    let text = |key| map.get(key).and_then(Value::as_str).map(str::to_owned);
                    let parts = SpecParts {
                        method: text("method").map(|m| m.to_ascii_lowercase()),
                        tokens: map.get("num_speculative_tokens").and_then(json_count),
                        draft: text("model"),
                        ..SpecParts::new(i, true)
                    };
                    (parts, true)
                }
                _ => (SpecParts::new(i, true), false),
            }
        };
        self.spec_json = Some(parts);
        ok
    }

    /// vLLM `--ARG.KEY VALUE` (JSON arguments given key by key).
    fn dotted(
        &mut self,
        argv: &[String],
        i: usize,
        name: &str,
        base: &str,
        path: &str,
        inline: Option<&str>,
    ) -> usize {
        // vLLM takes the next argument unconditionally here, whatever it looks like.
        let (value, next) = match inline {
            Some(v) => (Some(v), i + 1),
            None => (argv.get(i + 1).map(String::as_str), i + 2),
        };
        let next = next.min(argv.len());
        let Some(value) = value else {
            self.unknown(name);
            return next;
        };
        if flags::folded_eq(base, "--speculative-config") {
            let parts = self
                .spec_dotted
                .get_or_insert_with(|| SpecParts::new(i, true));
            let raw = serde_json::from_str::<Value>(value).ok();
            let text = || match &raw {
                Some(Value::String(s)) => s.clone(),
                _ => value.to_owned(),
            };
            match path.trim_end_matches('+') {
                "method" => parts.method = Some(text().to_ascii_lowercase()),
                "model" => parts.draft = Some(text()),
                "num_speculative_tokens" => {
                    parts.tokens = match parse_count(value, NumStyle::Human) {
                        Count::Value(n) => Some(n),
                        _ => None,
                    };
                    if parts.tokens.is_none() {
                        self.unknown(name);
                    }
                }
                _ => {}
            }
        } else if flags::lookup(base, self.out.engine).is_none() {
            self.unknown(name);
        }
        next
    }

    fn str_slot(&mut self, field: StrField) -> &mut Option<Found<String>> {
        match field {
            StrField::Model => &mut self.out.model,
            StrField::Revision => &mut self.out.revision,
            StrField::Quantization => &mut self.out.quantization,
            StrField::Dtype => &mut self.out.dtype,
            StrField::KvCacheDtype => &mut self.out.kv_cache_dtype,
        }
    }

    fn num_slot(&mut self, field: NumField) -> &mut Option<Found<u64>> {
        match field {
            NumField::MaxNumSeqs => &mut self.out.max_num_seqs,
            NumField::MaxModelLen => &mut self.out.max_model_len,
            NumField::MaxNumBatchedTokens => &mut self.out.max_num_batched_tokens,
            NumField::TensorParallel => &mut self.out.tensor_parallel_size,
            NumField::PipelineParallel => &mut self.out.pipeline_parallel_size,
            NumField::ExpertParallel => &mut self.out.expert_parallel_size,
            NumField::DataParallel => &mut self.out.data_parallel_size,
        }
    }

    pub(super) fn finish(mut self) -> ServeSettings {
        let legacy = self.legacy_model.take().map(|m| {
            // Legacy vLLM spelled n-gram speculation as a pseudo-model.
            let ngram = m.value == "[ngram]";
            SpecParts {
                method: ngram.then(|| "ngram".to_owned()),
                draft: (!ngram).then_some(m.value),
                tokens: self.legacy_tokens,
                ..SpecParts::new(m.arg_index, true)
            }
        });
        let sglang = self.sg_algorithm.take().map(|a| {
            let tokens = match (self.sg_topk, self.sg_steps) {
                (Some(1), Some(steps)) => Some(steps),
                _ => self.sg_draft_tokens.and_then(|n| n.checked_sub(1)),
            };
            SpecParts {
                method: Some(a.value),
                draft: self.sg_draft.take(),
                tokens,
                ..SpecParts::new(a.arg_index, true)
            }
        });
        let spec = (self.spec_dotted.take())
            .or(self.spec_json.take())
            .or(legacy)
            .or(sglang);
        self.out.speculative = spec.map(|p| Found {
            value: Speculative {
                enabled: p.enabled,
                method: p.method,
                num_speculative_tokens: p.tokens,
                draft_model: p.draft,
            },
            arg_index: p.arg_index,
        });

        let size = |f: &Option<Found<u64>>| f.as_ref().map_or(1, |f| f.value);
        let tp = size(&self.out.tensor_parallel_size);
        let dp = size(&self.out.data_parallel_size);
        if let Some(switch) = self.ep_switch.take()
            && self.out.expert_parallel_size.is_none()
        {
            let value = if switch.value {
                tp.checked_mul(dp)
            } else {
                Some(1)
            };
            self.out.expert_parallel_size = value.map(|value| Found {
                value,
                arg_index: switch.arg_index,
            });
        }
        if let Some(arg_index) = self.ep_from_tp {
            // SGLang set ep_size = tp_size after parsing, over any explicit --ep-size.
            self.out.expert_parallel_size = Some(Found {
                value: tp,
                arg_index,
            });
        }

        self.out.unknown_flags.sort_unstable();
        self.out.unknown_flags.dedup();
        self.out
    }
}
