//! `client-tokenizer-mismatch` (R022): the harness counted tokens with another model's tokenizer.

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::diagnostic::Location;
use crate::model::TokenCountSource;

declare_rule! {
    /// ## What it checks
    /// Whether `workload.tokenizer`, the tokenizer the client harness built prompts and counted
    /// tokens with, belongs to another model family than `model.name`. Each id is matched
    /// against a small table of families whose tokenizers differ: Llama 2 (`llama-2`,
    /// `llama2`, `codellama`, and `hf-internal-testing/llama-tokenizer`, the Llama 2
    /// SentencePiece tokenizer llmperf always uses), Llama 3 (`llama-3`, `llama3`), Llama 4,
    /// Mistral (`mistral`, `mixtral`, `ministral`, `codestral`, ...), Qwen (`qwen`, `qwq`),
    /// gpt-oss, DeepSeek, Gemma, Phi (`phi-3`, `phi4`, ...), Falcon, OPT, GPT-2, Granite and
    /// OLMo.
    ///
    /// The match is on the lowercased last segment of the id (the one before it when the last
    /// names no family, as in `.../Llama-3.1-8B/tokenizer`); a name counts only at the start of
    /// a word (`adopt-7b` is not OPT), and a name ending in a version digit not inside a longer
    /// number (`llama-30b` is not Llama 3). An id that names no family, or more than one, or a
    /// distilled model (`DeepSeek-R1-Distill-Qwen-32B` names its teacher but keeps the
    /// tokenizer of its Qwen base), has no family, and then nothing is reported: only a
    /// recognisable mismatch is. Equal ids, and two sizes or versions of one family, are not a
    /// mismatch.
    ///
    /// The finding sits at `workload.tokenizer` and says what the mismatch corrupts: with
    /// `workload.token_count_source` `client-tokenizer`, every output token count and every
    /// per-token figure (throughput, TPOT, the per-user rate) as well as the prompt lengths;
    /// otherwise the prompt lengths the harness measured and sized its prompts by.
    ///
    /// A run that completed no request counted no token and is skipped: R006 and R007 report
    /// it.
    ///
    /// ## Why is this bad?
    /// Tokenizers of different families cut the same text into different numbers of tokens:
    /// their vocabularies differ in size and content. A count made with the wrong one is not a
    /// count of what the model produced, so tokens per second, time per output token and the
    /// prompt length beside a TTFT are all in someone else's units. research/formats.md §0.3
    /// and §10: llmperf counts every model with `hf-internal-testing/llama-tokenizer`, and a
    /// real genai-perf summary measured `openai/gpt-oss-20b` with that same Llama tokenizer
    /// (genai-perf's old default), so its 150-token prompt and 400-token output targets, and
    /// every count it reports, are Llama tokens, not gpt-oss ones. In the AIPerf 0.13 run kept
    /// in `testdata/adapters/` (a client tokenizer that is not the server's), the client
    /// counted 1,680 output tokens where the server counted 3,072.
    ///
    /// ## Example
    /// ```json
    /// { "model": { "name": "openai/gpt-oss-20b" },
    ///   "workload": { "tokenizer": "hf-internal-testing/llama-tokenizer",
    ///                 "token_count_source": "client-tokenizer" } }
    /// ```
    ///
    /// ## What to do instead
    /// Give the harness the served model's own tokenizer (`--tokenizer`, GuideLLM's
    /// `--processor`), or count output tokens from the server's usage, and record it.
    /// ```json
    /// { "model": { "name": "openai/gpt-oss-20b" },
    ///   "workload": { "tokenizer": "openai/gpt-oss-20b",
    ///                 "token_count_source": "server-usage" } }
    /// ```
    pub static RULE = {
        code: "R022",
        name: "client-tokenizer-mismatch",
        severity: Warning,
        scope: Result,
        source: "research/formats.md §0.3, §10 (llmperf always counts with a Llama tokenizer; gpt-oss-20b measured with it)",
        summary: "the client tokenizer belongs to another model family than the model",
    }
}

/// Model families whose tokenizers differ, with the lowercase name fragments that identify
/// each. Versions that share a family name but not a tokenizer (Llama 2 and 3) are families of
/// their own; sizes and fine-tunes of one family are not told apart.
const FAMILIES: &[(&str, &[&str])] = &[
    (
        "llama-2",
        &["llama-2", "llama2", "codellama", "llama-tokenizer"],
    ),
    ("llama-3", &["llama-3", "llama3"]),
    ("llama-4", &["llama-4", "llama4"]),
    (
        "mistral",
        &[
            "mistral",
            "mixtral",
            "ministral",
            "codestral",
            "devstral",
            "magistral",
        ],
    ),
    ("qwen", &["qwen", "qwq"]),
    ("gpt-oss", &["gpt-oss"]),
    ("deepseek", &["deepseek"]),
    ("gemma", &["gemma", "codegemma", "recurrentgemma"]),
    (
        "phi",
        &[
            "phi-1", "phi-2", "phi-3", "phi-4", "phi1", "phi2", "phi3", "phi4",
        ],
    ),
    ("falcon", &["falcon"]),
    ("opt", &["opt-"]),
    ("gpt-2", &["gpt2", "gpt-2"]),
    ("granite", &["granite"]),
    ("olmo", &["olmo"]),
];

/// Whether `fragment` occurs in `segment` as the start of a word (at the start, or after a
/// character that is not a letter or digit) and, when it ends in a digit, not followed by
/// another digit (`llama-3` is not in `llama-30b`).
fn names(segment: &str, fragment: &str) -> bool {
    let ends_in_digit = fragment.ends_with(|c: char| c.is_ascii_digit());
    segment.match_indices(fragment).any(|(i, _)| {
        let starts_word = segment[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after = segment[i + fragment.len()..].chars().next();
        let whole_number = !ends_in_digit || after.is_none_or(|c| !c.is_ascii_digit());
        starts_word && whole_number
    })
}

/// The one family `segment` names, if exactly one.
fn family_of_segment(segment: &str) -> Option<&'static str> {
    if segment.contains("distill") {
        return None;
    }
    let mut found = FAMILIES
        .iter()
        .filter(|(_, fragments)| fragments.iter().any(|f| names(segment, f)))
        .map(|(family, _)| *family);
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The family of a model or tokenizer id: its last path segment, or the one before when the
/// last names none.
pub(crate) fn family(id: &str) -> Option<&'static str> {
    let lower = id.trim().to_lowercase();
    let segments: Vec<&str> = lower.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
    let (last, rest) = segments.split_last()?;
    if last.contains("distill") {
        return None;
    }
    family_of_segment(last).or_else(|| family_of_segment(rest.last()?))
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let Some(workload) = ctx.result.workload.as_ref() else {
        return;
    };
    let (Some(tokenizer), Some(model)) = (
        workload.tokenizer.as_deref(),
        ctx.result.model.as_ref().and_then(|m| m.name.as_deref()),
    ) else {
        return;
    };
    if tokenizer.trim().eq_ignore_ascii_case(model.trim()) {
        return;
    }
    let (Some(tok_family), Some(model_family)) = (family(tokenizer), family(model)) else {
        return;
    };
    if tok_family == model_family {
        return;
    }
    let corrupted = match workload.token_count_source {
        Some(TokenCountSource::ClientTokenizer) => {
            "output tokens were counted with it (`token_count_source` client-tokenizer), so every \
             output count and per-token figure (throughput, TPOT, per-user rate) is in its units, \
             and so are the prompt lengths"
        }
        Some(TokenCountSource::ServerUsage) => {
            "output counts came from the server's usage, but the prompt lengths the harness \
             measured and sized its prompts by are in its units, not the model's"
        }
        Some(TokenCountSource::StreamChunks) => {
            "output counts came from stream chunks, but the prompt lengths the harness measured \
             and sized its prompts by are in its units, not the model's"
        }
        None => {
            "the prompt lengths the harness measured are in its units, not the model's, and so \
             are the output counts if the client counted them (`token_count_source` not recorded)"
        }
    };
    out.emit(
        "/workload/tokenizer",
        format!(
            "the client tokenizer `{tokenizer}` is a {tok_family} tokenizer, but the model \
             `{model}` is a {model_family} model: {corrupted}"
        ),
    )
    .label(format!(
        "a {tok_family} tokenizer for a {model_family} model"
    ))
    .help(
        "give the harness the served model's own tokenizer (`--tokenizer`, GuideLLM `--processor`) \
         or count output tokens from the server's usage, then re-run",
    )
    .related(Location::new(String::new(), "/model/name".to_string()));
}

#[cfg(test)]
mod tests {
    use super::family;

    #[test]
    fn families_come_from_the_last_segment() {
        assert_eq!(
            family("hf-internal-testing/llama-tokenizer"),
            Some("llama-2")
        );
        assert_eq!(family("meta-llama/Llama-2-7b-chat-hf"), Some("llama-2"));
        assert_eq!(family("meta.llama2-70b-chat-v1"), Some("llama-2"));
        assert_eq!(
            family("meta-llama/Meta-Llama-3.1-8B-Instruct"),
            Some("llama-3")
        );
        assert_eq!(family("meta-llama/Llama-3.2-3B-Instruct"), Some("llama-3"));
        assert_eq!(family("openai/gpt-oss-20b"), Some("gpt-oss"));
        assert_eq!(family("Qwen/Qwen3-30B-A3B"), Some("qwen"));
        assert_eq!(family("nvidia/Qwen3.8-Flash-Next-NVFP4"), Some("qwen"));
        assert_eq!(
            family("mistralai/Mixtral-8x7B-Instruct-v0.1"),
            Some("mistral")
        );
        assert_eq!(family("facebook/opt-125m"), Some("opt"));
        assert_eq!(family("/models/Llama-3.1-8B/tokenizer"), Some("llama-3"));
    }

    #[test]
    fn unknown_ambiguous_and_near_miss_ids_have_no_family() {
        // A Llama 1 size is not Llama 3; a name inside a word does not count.
        assert_eq!(family("huggyllama/llama-30b"), None);
        assert_eq!(family("acme/adopt-7b"), None);
        assert_eq!(family("TinyLlama/TinyLlama-1.1B-Chat-v1.0"), None);
        // A distilled model keeps the tokenizer of its base, which it may not name.
        assert_eq!(family("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B"), None);
        assert_eq!(family("deepseek-ai/DeepSeek-R1-Distill-Llama-8B"), None);
        assert_eq!(family("example_model"), None);
        assert_eq!(family("mock-llm"), None);
        assert_eq!(family(""), None);
        assert_eq!(family("/"), None);
    }
}
