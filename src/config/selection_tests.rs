//! Selection as ruff resolves it: the precedence of select and ignore across layers, selectors
//! by code, prefix and name, and per-file globs.

use super::*;

fn sel(s: &[&str]) -> Vec<Selector> {
    s.iter().map(|x| Selector::parse(x).unwrap()).collect()
}

#[test]
fn ruff_precedence() {
    let e: Vec<&str> = RULES
        .iter()
        .map(|r| r.meta.code)
        .filter(|c| c.starts_with('E'))
        .collect();
    let layer = Layer {
        select: Some(sel(&["E"])),
        ignore: sel(&["E002"]),
        ..Layer::default()
    };
    let got = resolve(&[layer]);
    assert!(!got.contains("E002"));
    assert_eq!(got.len(), e.len() - 1);
    let layer = Layer {
        select: Some(sel(&["E002"])),
        ignore: sel(&["E"]),
        ..Layer::default()
    };
    assert_eq!(
        resolve(&[layer]).into_iter().collect::<Vec<_>>(),
        vec!["E002"]
    );
    let layer = Layer {
        select: Some(sel(&["E002"])),
        ignore: sel(&["E002"]),
        ..Layer::default()
    };
    assert!(resolve(&[layer]).is_empty(), "on a tie ignore wins");
    let config = Layer {
        ignore: sel(&["M"]),
        ..Layer::default()
    };
    let cli = Layer {
        extend_select: sel(&["M005"]),
        ..Layer::default()
    };
    let got = resolve(&[config, cli]);
    assert!(got.contains("M005") && !got.contains("M001") && got.contains("E001"));
}

#[test]
fn selectors() {
    assert_eq!(Selector::parse("ALL").unwrap(), Selector::All);
    assert_eq!(
        Selector::parse("missing-speculative-config").unwrap(),
        Selector::Prefix("M005".into())
    );
    assert!(
        Selector::parse("m005")
            .unwrap_err()
            .contains("did you mean `M005`")
    );
    assert!(Selector::parse("Z9").is_err());
}

#[test]
fn globs() {
    let p = PerFileIgnore::new("old/*.json", sel(&["M"])).unwrap();
    assert!(p.matches("old/a.json"));
    assert!(!p.matches("old/x/a.json"));
    let p = PerFileIgnore::new("*.jsonl", sel(&["M"])).unwrap();
    assert!(p.matches("deep/down/a.jsonl"));
    let p = PerFileIgnore::new("old/**", sel(&["M"])).unwrap();
    assert!(p.matches("old/x/a.json"));
}

#[test]
fn only_narrows_what_runs_and_never_widens_it() {
    let layer = Layer {
        ignore: sel(&["E003", "M"]),
        ..Layer::default()
    };
    let narrowed = Selection::new(&[layer], Vec::new(), Vec::new(), Path::new("."))
        .only(&["E001", "E002", "E003", "E004", "M005"]);
    let running: Vec<&str> = narrowed.enabled().collect();
    // E003 and M005 were ignored: `only` does not bring them back.
    assert_eq!(running, ["E001", "E002", "E004"]);
    assert!(!narrowed.runs("R006") && !narrowed.runs("S010"));
}
