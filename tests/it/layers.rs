//! The layers of `src/`, bottom to top, and the test that holds the code to them: no `crate::`
//! path in shipped code climbs to a higher layer, and no two modules of one layer import each
//! other unless the circle is named here with its reason. This table is the single source;
//! `docs/architecture.md` holds a copy that a test keeps equal to it.

mod check;

use std::path::{Path, PathBuf};

use check::{Circle, Layer};

/// Bottom to top. A module is a top-level module of `src/lib.rs`, or `module::child` where a
/// module is split across layers.
const LAYERS: &[Layer] = &[
    Layer {
        name: "base",
        modules: &[
            "swar",
            "numbers",
            "stats",
            "serve_command",
            "server_log",
            "seeded",
        ],
        owns: "eight-bytes-at-a-time search, number formatting, statistics, the serve command parser, server log facts, the tests' seeded generator",
    },
    Layer {
        name: "model",
        modules: &["model"],
        owns: "the canonical typed result document (serde structs, packed levels, provenance map)",
    },
    Layer {
        name: "json",
        modules: &["json", "yaml", "schema", "thresholds"],
        owns: "the tolerant JSON reader (levels read straight into the model), pointers and spans, YAML, the bundled schemas, named thresholds",
    },
    Layer {
        name: "text",
        modules: &["text", "secrets"],
        owns: "text as printed (paths, messages, hidden characters, JSON writers) and secret masking",
    },
    Layer {
        name: "io",
        modules: &["io"],
        owns: "bounded reads of files, I/O errors in words, the files beside a document (`io::beside`), what a run puts away in a temporary file until it needs it (`io::spool`, records sorted on disk in `io::sorted`)",
    },
    Layer {
        name: "diagnostic",
        modules: &["diagnostic", "guard"],
        owns: "findings, locations, severities, rule metadata (`RuleMeta`); a panic contained as an internal error",
    },
    Layer {
        name: "loaded",
        modules: &["model::loaded", "model::translate", "model::sidecar"],
        owns: "a result as loaded (document, origin, provenance), results put away in a temporary file and read back (`model::loaded::spool`), the corpus it belongs to, canonical pointer → file location, sidecar merging",
    },
    Layer {
        name: "adapters",
        modules: &["adapters"],
        owns: "one module per harness format, reading it into the canonical model",
    },
    Layer {
        name: "positions",
        modules: &["positions"],
        owns: "where a finding sits in its file (line, column, span)",
    },
    Layer {
        name: "rules",
        modules: &[
            "rules",
            "rules::support",
            "claims",
            "replication",
            "fingerprint",
            "copies",
            "cards",
            "audit",
            "regress",
        ],
        owns: "one file per rule and the registry, helpers rules share (`rules::support`), configurations and runs, claims analysis, the audit's report types, regression cells and verdicts",
    },
    Layer {
        name: "config",
        modules: &["config"],
        owns: "`benchlint.toml`: rule selection (checked against the registry), severities, thresholds, glob sidecars",
    },
    Layer {
        name: "corpus",
        modules: &["corpus"],
        owns: "discovery and loading: reading, recognising, sidecars, derivation, and the per-document and per-result rules run while a file's text is in memory",
    },
    Layer {
        name: "engine",
        modules: &["engine", "skeleton", "capture", "baseline", "output"],
        owns: "a whole check (load, corpus-wide rules, sort, count; `check`'s results put away on disk as they are read and each corpus-wide rule called on the part it reads, read back; the findings known at its end held in sorted runs on disk), import skeletons, run capture, baselines, output files written safely",
    },
    Layer {
        name: "report",
        modules: &["report"],
        owns: "reporters: pure functions from findings to bytes, one file per format",
    },
    Layer {
        name: "cli",
        modules: &["cli"],
        owns: "one file per command: arguments, inputs, dispatch, exit codes",
    },
];

/// Circles left inside one layer, each with its reason.
const CIRCLES: &[Circle] = &[
    Circle {
        a: "text",
        b: "secrets",
        why: "every text printed is masked for secrets (`text` calls `secrets`), and the secret scanner splits words at the hidden characters `text` defines; one layer, one definition of each",
    },
    Circle {
        a: "claims",
        b: "rules",
        why: "the claim rules (C001–C015) are checked by the claims analysis, which reports under each rule's code and runs the registry's group rules for the audit; a rule's metadata lives in its own file, so the two name each other",
    },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `src/`, as (path relative to `src/`, text), in path order.
fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_import_climbs_and_no_circle_is_unnamed() {
    let problems = check::check(&sources(&root().join("src")), LAYERS, CIRCLES);
    assert!(
        problems.is_empty(),
        "{} layering problems (table in tests/it/layers.rs, docs/architecture.md):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Every top-level module of `src/lib.rs` is placed in exactly one layer.
#[test]
fn every_module_has_one_layer() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            l.strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("mod "))
                .and_then(|r| r.strip_suffix(';'))
        })
        .collect();
    assert!(declared.len() > 20, "{declared:?}");
    for m in &declared {
        let n = LAYERS.iter().filter(|l| l.modules.contains(m)).count();
        assert_eq!(n, 1, "`{m}` is in {n} layers");
    }
    for l in LAYERS {
        for m in l.modules {
            let top = m.split("::").next().unwrap();
            assert!(
                declared.contains(&top),
                "`{m}` of layer {} is not in src/lib.rs",
                l.name
            );
        }
    }
}

/// `docs/architecture.md` holds the table and the circles exactly as declared here.
#[test]
fn architecture_doc_matches_the_table() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let table = check::table(LAYERS);
    assert!(
        doc.contains(&table),
        "docs/architecture.md does not hold the layer table of tests/it/layers.rs; it should read:\n{table}"
    );
    let circles = check::circle_list(CIRCLES);
    assert!(
        doc.contains(&circles),
        "docs/architecture.md does not list the named circles; it should read:\n{circles}"
    );
}

fn tree(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(p, s)| ((*p).to_string(), (*s).to_string()))
        .collect()
}

const TOY: &[Layer] = &[
    Layer {
        name: "low",
        modules: &["a", "b"],
        owns: "",
    },
    Layer {
        name: "high",
        modules: &["c", "a::top"],
        owns: "",
    },
];

/// The checker fails on an import that climbs, naming the file, the line and both layers.
#[test]
fn checker_reports_a_climb_with_file_line_and_layers() {
    let files = tree(&[
        (
            "a/mod.rs",
            "//! a\nuse crate::b::X;\n\nfn f() { crate::c::go(); }\n",
        ),
        ("b.rs", "pub struct X;\n"),
        ("c.rs", "use crate::a::{self, deep::{Y, Z}};\n"),
    ]);
    let problems = check::check(&files, TOY, &[]);
    assert_eq!(
        problems,
        ["a/mod.rs:4: `crate::c::go` climbs from layer 1 `low` (a) to layer 2 `high` (c)"]
    );
}

/// A split module: `a::top` sits above `a`, so `a::top` may use `c` but `a` may not use `a::top`.
#[test]
fn checker_maps_a_split_module_by_two_segments() {
    let files = tree(&[
        ("a/top.rs", "use crate::c::Thing;\nuse crate::a::low;\n"),
        ("a/mod.rs", "pub use crate::a::top::Thing;\n"),
        ("c.rs", ""),
    ]);
    let problems = check::check(&files, TOY, &[]);
    assert_eq!(
        problems,
        ["a/mod.rs:1: `crate::a::top` climbs from layer 1 `low` (a) to layer 2 `high` (a::top)"]
    );
}

/// Two modules of one layer that import each other fail unless the circle is named.
#[test]
fn checker_reports_a_circle_inside_a_layer_unless_named() {
    let files = tree(&[
        ("a.rs", "use crate::b::{X};\n"),
        ("b.rs", "\n\nfn g() -> crate::a::Y { todo!() }\n"),
    ]);
    let problems = check::check(&files, TOY, &[]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0]
            .starts_with("a.rs:1: `a` and `b` of layer `low` import each other (b → a at b.rs:3)"),
        "{}",
        problems[0]
    );
    let named = [Circle {
        a: "b",
        b: "a",
        why: "",
    }];
    assert!(check::check(&files, TOY, &named).is_empty());
}

/// Comments, doc links, strings and test-only code are not imports; a module the table does
/// not know is a problem, never a silent pass.
#[test]
fn checker_reads_code_only_and_knows_every_module() {
    let files = tree(&[
        (
            "a.rs",
            concat!(
                "//! See [`crate::c::Doc`].\n",
                "/* crate::c::Block */\n",
                "const S: &str = \"crate::c::in_string\";\n",
                "const R: &str = r#\"crate::c::raw \"quoted\"\"#;\n",
                "fn l<'x>(c: char) -> bool { c == '\"' || c == '\\'' }\n",
                "#[cfg(test)]\nmod tests {\n    use crate::c::Test;\n    fn t() { let _ = '{'; }\n}\n",
                "#[cfg(test)]\nmod more;\n",
                "fn after() { crate::b::ok(); }\n",
            ),
        ),
        ("a/more.rs", "use crate::c::AlsoTest;\n"),
        ("b.rs", "use crate::zzz::Nowhere;\n"),
        ("c.rs", ""),
    ]);
    let problems = check::check(&files, TOY, &[]);
    assert_eq!(
        problems,
        ["b.rs:1: `crate::zzz::Nowhere` names a module in no layer"]
    );
}

/// Two files of one module that import each other fail too, by `super::` or `crate::` paths;
/// a parent and its child files share items by design and do not.
#[test]
fn checker_reports_a_circle_between_two_files_of_one_module() {
    let files = tree(&[
        ("c/mod.rs", "mod x;\nmod y;\npub use x::X;\n"),
        ("c/x.rs", "use super::y::Y;\nuse super::Shared;\n"),
        ("c/y.rs", "\npub fn f() -> crate::c::x::X { todo!() }\n"),
    ]);
    let problems = check::check(&files, TOY, &[]);
    assert_eq!(
        problems,
        [
            "c/x.rs:1: files `c::x` and `c::y` import each other (c::y → c::x at c/y.rs:2); break the circle or name it in docs/architecture.md"
        ]
    );
}

/// Every upward import between two layers of the real table is caught, in every spelling a
/// path takes (a `use`, a `use` tree, a path in an expression, `$crate::` in a macro, split
/// over lines), and the same import downward passes.
#[test]
fn checker_catches_every_climb_of_the_real_table_in_every_spelling() {
    let spellings: [fn(&str) -> String; 5] = [
        |m| format!("use crate::{m}::Item;\n"),
        |m| format!("use crate::{{\n    {m}::{{self, Item}},\n}};\n"),
        |m| format!("fn f() {{ let _ = crate::{m}::item(); }}\n"),
        |m| format!("macro_rules! m {{ () => {{ $crate::{m}::Item }}; }}\n"),
        |m| format!("fn g() -> crate::\n    {m}::Item {{ todo!() }}\n"),
    ];
    // The file of a module: `a::b` lives in `a/b.rs`, `a` in `a.rs`.
    let file = |m: &str| format!("{}.rs", m.replace("::", "/"));
    let mut checked = 0;
    for (low, l) in LAYERS.iter().enumerate() {
        for h in &LAYERS[low + 1..] {
            let (from, to) = (l.modules[0], h.modules[0]);
            for spell in &spellings {
                let up = tree(&[(&file(from), &spell(to)), (&file(to), "")]);
                let problems = check::check(&up, LAYERS, CIRCLES);
                assert!(!problems.is_empty(), "{from} → {to} passed: {}", spell(to));
                for p in &problems {
                    assert!(
                        p.contains(&format!("climbs from layer {} `{}`", low + 1, l.name))
                            && p.contains(&format!("`{}` ({to})", h.name)),
                        "{p}"
                    );
                }
                let down = tree(&[(&file(to), &spell(from)), (&file(from), "")]);
                assert_eq!(check::check(&down, LAYERS, CIRCLES), Vec::<String>::new());
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 5 * LAYERS.len() * (LAYERS.len() - 1) / 2);
}
