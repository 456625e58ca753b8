//! `missing-engine-identity` (M002): engine name, version and image digest.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That the result records the engine name (`engine.name`), its version
    /// (`engine.version`) and the container image digest (`engine.image_digest`, `sha256:`
    /// and 64 hex digits). A tag such as `vllm/vllm-openai:latest` is not a digest: it names
    /// whatever the registry served that day.
    ///
    /// An `engine.image` whose tag names a version of the engine's own image
    /// (`vllm/vllm-openai-rocm:v0.21.0`, `lmsysorg/sglang:v0.5.4-rocm700`) records the version:
    /// it fills an absent `engine.version` with provenance "derived" (the tag still is not a
    /// digest). A tag without a version (`latest`, `nightly`) or a team's own image names none.
    ///
    /// ## Why is this bad?
    /// Seed 004's checklist asks for "Engine name, version and container image digest". Its
    /// audit found kernel selection differing between published wheels and source builds of
    /// the same version (NVFP4 routed through Marlin on sm_121): only the digest pins what ran.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "name": "vllm", "image_digest": "vllm/vllm-openai:v0.11.0" } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "engine": { "name": "vllm", "version": "0.11.0",
    ///   "image_digest": "sha256:4f0c…(64 hex digits)" } }
    /// ```
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    ///
    /// `benchlint capture --pid PID` (or `--container-inspect FILE`) writes a sidecar with the
    /// serve command and environment read from the running engine: the settings the command
    /// names then count as recorded.
    pub static RULE = {
        code: "M002",
        name: "missing-engine-identity",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "engine name, version or image digest not recorded",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if !ctx.has("/engine/name") {
        out.missing(
            "/engine/name",
            "the engine name",
            "add `engine.name` (vllm, sglang, tensorrt-llm, ...)",
        );
    }
    if !ctx.has("/engine/version") {
        out.missing(
            "/engine/version",
            "the engine version",
            "add `engine.version`",
        );
    }
    match ctx
        .result
        .engine
        .as_ref()
        .and_then(|e| e.image_digest.as_deref())
    {
        None => {
            out.missing(
                "/engine/image_digest",
                "the container image digest",
                "add `engine.image_digest` as `docker inspect --format '{{.Id}}'` prints it",
            );
        }
        Some(d) if !is_digest(d) => {
            out.emit(
                "/engine/image_digest",
                format!(
                    "image digest `{}` is not `sha256:` followed by 64 hex digits",
                    shorten(d)
                ),
            )
            .label("a tag or a truncated id, not a digest")
            .help("record the full digest; a tag names whatever the registry served that day");
        }
        Some(_) => {}
    }
}

/// `sha256:` and 64 lowercase or uppercase hex digits.
pub fn is_digest(s: &str) -> bool {
    s.strip_prefix("sha256:")
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn digest_shape() {
        assert!(super::is_digest(&format!("sha256:{}", "a".repeat(64))));
        assert!(!super::is_digest("vllm/vllm-openai:latest"));
        assert!(!super::is_digest(&format!("sha256:{}", "a".repeat(12))));
    }
}
