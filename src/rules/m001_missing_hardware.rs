//! `missing-hardware` (M001): host, hardware description, device model and count.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That the result records the host name (`platform.host`), a hardware description
    /// (`platform.description`), the accelerator model (`platform.device.model`) and how many
    /// of them took part (`platform.devices_per_node`). Each absent value is its own finding.
    ///
    /// ## Why is this bad?
    /// Seed 004's checklist starts here: "Host name and hardware description, including how
    /// many devices of which model took part." Its audit compared thirty-two streams over two,
    /// four and eight GB10 units; without the device count in the file, the per-device
    /// arithmetic that exposed the 150 → 107 → 67 decline as an artefact cannot be done.
    ///
    /// ## Example
    /// ```json
    /// { "platform": { "host": "gb10-a1" } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "platform": { "host": "gb10-a1", "description": "2x DGX Spark, 200G RoCE",
    ///   "devices_per_node": 1, "nodes": 2, "device": { "model": "NVIDIA GB10", "memory_gib": 121.7 } } }
    /// ```
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    pub static RULE = {
        code: "M001",
        name: "missing-hardware",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "host, hardware description, device model or count not recorded",
    }
}

const ITEMS: [(&str, &str, &str); 4] = [
    ("/platform/host", "the host name", "add `platform.host`"),
    (
        "/platform/description",
        "the hardware description",
        "add `platform.description` in words (boxes, cards, fabric)",
    ),
    (
        "/platform/device/model",
        "the accelerator model",
        "add `platform.device.model`, for example \"NVIDIA H200 NVL\"",
    ),
    (
        "/platform/devices_per_node",
        "how many devices took part",
        "add `platform.devices_per_node` (and `platform.nodes` for several machines)",
    ),
];

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    for (pointer, what, help) in ITEMS {
        if !ctx.has(pointer) {
            out.missing(pointer, what, help);
        }
    }
}
