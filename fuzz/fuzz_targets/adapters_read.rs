//! Every adapter's recogniser and mapper over any JSON value, under the file names the
//! adapters look at; then the typed model over whatever they map.

#![no_main]

use benchlint::adapters::{Reading, Source, read};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 8] = [
    "result.json",
    "profile_export_aiperf.json",
    "profile_export_genai_perf.json",
    "benchmarks.json",
    "bench.jsonl",
    "vllm-0.11-qps-inf.json",
    "summary.json",
    "individual_responses.json",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(rest) else {
        return;
    };
    let name = NAMES[usize::from(pick) % NAMES.len()];
    let source = Source {
        path: name,
        file_name: name,
        doc_index: usize::from(pick >> 4),
        doc_count: usize::from(pick >> 4) + 1,
        folder: None,
    };
    if let Some((_, Reading::Results(mapped))) = read(&value, &source) {
        for m in mapped {
            let _ = serde_json::from_value::<benchlint::model::ResultDoc>(m.value);
        }
    }
});
