//! `exclude`, `extend-exclude` and `.gitignore` (`--no-respect-gitignore`, `--force-exclude`).

use super::{files_read, run, scratch};

// ---------------------------------------------------------------------------------------------
// exclude, extend-exclude, .gitignore

#[test]
fn exclude_and_extend_exclude_skip_what_they_name_and_say_so() {
    let (_tmp, root) = scratch();
    let all = files_read(&root, &["--isolated", "."]);
    assert_eq!(
        all,
        ["package.json", "results/a/run.json", "results/old/run.json"],
        "{all:?}"
    );
    assert_eq!(
        files_read(&root, &["--isolated", "--exclude", "old", "."]),
        ["package.json", "results/a/run.json"]
    );
    assert_eq!(
        files_read(
            &root,
            &[
                "--isolated",
                "--extend-exclude",
                "results/old/,package.json",
                "."
            ]
        ),
        ["results/a/run.json"]
    );
    let r = run(&root, &["check", "--isolated", "--exclude", "old", "."]);
    assert!(
        r.stderr.contains("note: skipped 1 file or folder"),
        "{}",
        r.stderr
    );
    // From the config: relative to its folder; --exclude replaces its `exclude`.
    std::fs::write(
        root.join("benchlint.toml"),
        "exclude = [\"results/a\"]\nextend-exclude = [\"*.json\"]\n",
    )
    .unwrap();
    let config = ["--config", "benchlint.toml"];
    assert!(files_read(&root, &[&config[..], &["."]].concat()).is_empty());
    std::fs::write(root.join("benchlint.toml"), "exclude = [\"results/a\"]\n").unwrap();
    assert_eq!(
        files_read(&root, &[&config[..], &["."]].concat()),
        ["package.json", "results/old/run.json"]
    );
    assert_eq!(
        files_read(
            &root,
            &[&config[..], &["--exclude", "package.json", "."]].concat()
        ),
        ["results/a/run.json", "results/old/run.json"]
    );
    // A file named on the command line is read unless --force-exclude.
    assert_eq!(
        files_read(
            &root,
            &["--isolated", "--exclude", "old", "results/old/run.json"]
        ),
        ["results/old/run.json"]
    );
    assert!(
        files_read(
            &root,
            &[
                "--isolated",
                "--exclude",
                "old",
                "--force-exclude",
                "results/old/run.json"
            ]
        )
        .is_empty()
    );
}

#[test]
fn a_config_inside_the_corpus_cannot_exclude_files() {
    let (_tmp, root) = scratch();
    std::fs::write(root.join("results/benchlint.toml"), "exclude = [\"**\"]\n").unwrap();
    let r = run(&root, &["check", "--show-files", "results"]);
    assert!(r.stdout.contains("results/a/run.json"), "{}", r.stdout);
    assert!(r.stderr.contains("cannot hide files"), "{}", r.stderr);
}

#[test]
fn gitignore_is_respected_in_a_work_tree_unless_turned_off() {
    let (_tmp, root) = scratch();
    std::fs::write(root.join(".gitignore"), "package.json\n/results/old/\n").unwrap();
    // Outside a git work tree a .gitignore means nothing (as for git and ripgrep).
    assert_eq!(files_read(&root, &["--isolated", "."]).len(), 3);
    std::fs::create_dir(root.join(".git")).unwrap();
    assert_eq!(
        files_read(&root, &["--isolated", "."]),
        ["results/a/run.json"]
    );
    let r = run(&root, &["check", "--isolated", "."]);
    assert!(
        !r.stdout.contains("E004"),
        "the package.json of the repository is not read"
    );
    assert!(
        r.stderr.contains("skipped 2 files and folders"),
        "{}",
        r.stderr
    );
    assert_eq!(
        files_read(&root, &["--isolated", "--no-respect-gitignore", "."]).len(),
        3
    );
    // From a folder below, the root's .gitignore still holds; a nested one adds to it, and a
    // `!` pattern there brings a file back.
    assert_eq!(
        files_read(&root.join("results"), &["--isolated", "."]),
        ["a/run.json"]
    );
    std::fs::write(root.join("results/a/.gitignore"), "*.json\n").unwrap();
    assert!(files_read(&root, &["--isolated", "."]).is_empty());
    std::fs::write(root.join("results/a/.gitignore"), "*.json\n!run.json\n").unwrap();
    assert_eq!(
        files_read(&root, &["--isolated", "."]),
        ["results/a/run.json"]
    );
    // The config's `respect-gitignore = false`, undone by --respect-gitignore.
    std::fs::write(root.join("benchlint.toml"), "respect-gitignore = false\n").unwrap();
    assert_eq!(
        files_read(&root, &["--config", "benchlint.toml", "."]).len(),
        3
    );
    assert_eq!(
        files_read(
            &root,
            &["--config", "benchlint.toml", "--respect-gitignore", "."]
        )
        .len(),
        1
    );
    // A named file is read whatever .gitignore says, unless --force-exclude.
    assert_eq!(
        files_read(&root, &["--isolated", "package.json"]),
        ["package.json"]
    );
    assert!(files_read(&root, &["--isolated", "--force-exclude", "package.json"]).is_empty());
}
