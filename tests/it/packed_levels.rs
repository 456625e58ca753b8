//! The levels a `check` keeps for the corpus-wide rules are packed: loaded lean, every result's
//! levels read back exactly as the whole load reads them (samples aside, which lean drops), and
//! written byte for byte the same. On our own corpora always, and on the real files of
//! `../shared/realworld` when present.

use std::path::{Path, PathBuf};

use benchlint::corpus::{self, Options};
use benchlint::model::{Level, Levels};

/// Each level as `Debug` writes it: every field, each f64 as the shortest text of its bits.
fn exact<'a>(
    levels: impl IntoIterator<Item = impl std::ops::Deref<Target = Level> + 'a>,
) -> Vec<String> {
    levels
        .into_iter()
        .map(|l| {
            let mut l = l.clone();
            l.samples = None;
            format!("{l:?}")
        })
        .collect()
}

/// Loads `dir` whole and lean and compares the levels of every result; returns how many
/// levels were compared.
fn compare(dir: &Path) -> usize {
    let paths = [dir.to_path_buf()];
    let whole = corpus::load(&paths, &Options::default());
    let lean = corpus::load(
        &paths,
        &Options {
            lean: true,
            ..Options::default()
        },
    );
    assert_eq!(whole.results.len(), lean.results.len(), "{}", dir.display());
    let mut levels = 0;
    for (w, l) in whole.results.iter().zip(&lean.results) {
        let at = w.origin.path.raw();
        assert_eq!(at, l.origin.path.raw());
        assert!(
            !w.doc.levels.is_packed(),
            "{at}: whole loads keep whole levels"
        );
        assert!(l.doc.levels.is_packed(), "{at}: lean loads pack");
        assert_eq!(
            exact(l.doc.levels.iter()),
            exact(w.doc.levels.iter()),
            "{at}"
        );
        // Written as import writes a result: byte for byte, whichever the form.
        let mut stripped: Vec<Level> = w.doc.levels.clone().into_vec();
        for s in &mut stripped {
            s.samples = None;
        }
        assert_eq!(
            serde_json::to_string(&l.doc.levels).unwrap(),
            serde_json::to_string(&Levels::from(stripped)).unwrap(),
            "{at}"
        );
        // And packing the whole levels, samples and all, gives them back as they were.
        let mut packed = w.doc.levels.clone();
        packed.pack();
        assert_eq!(packed, w.doc.levels, "{at}");
        assert_eq!(
            serde_json::to_string(&packed).unwrap(),
            serde_json::to_string(&w.doc.levels).unwrap(),
            "{at}"
        );
        levels += w.doc.levels.len();
    }
    levels
}

#[test]
fn our_corpora_keep_every_level_exactly_when_packed() {
    let mut levels = 0;
    for dir in ["testdata/clean", "testdata/corpora", "testdata/adapters"] {
        levels += compare(&PathBuf::from(dir));
    }
    assert!(levels > 100, "only {levels} levels compared");
}

#[test]
fn the_real_files_keep_every_level_exactly_when_packed() {
    let dir = Path::new("../shared/realworld");
    if !dir.exists() {
        println!("skipping: {} not found", dir.display());
        return;
    }
    let levels = compare(dir);
    println!("{levels} levels of the real files compared");
    // 46 levels when this was written, over every harness format the folder holds.
    assert!(levels >= 40, "only {levels} levels compared");
}
