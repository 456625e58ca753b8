use super::*;

fn parse_str(text: &str) -> Result<Config, Box<ConfigError>> {
    parse(text, Path::new("benchlint.toml"))
}

#[test]
fn a_full_config() {
    let c = parse_str(
        r#"select = ["E", "M"]
ignore = ["M014"]
[severity]
"M014" = "error"
"R" = "warning"
[thresholds]
min_window_s = 60
[per-file-ignores]
"old/**" = ["M"]
[[sidecar]]
files = "old/**"
values = { engine = { name = "vllm" } }
"#,
    )
    .unwrap();
    assert!((c.thresholds.unwrap().min_window_s - 60.0).abs() < 1e-9);
    assert_eq!(c.severity.len(), 2);
    assert_eq!(c.sidecars[0].value["engine"]["name"], "vllm");
    assert_eq!(c.sidecars[0].display, "benchlint.toml#sidecar-1");
}

#[test]
fn mistakes_point_at_line_and_column() {
    let e = parse_str("select = [\"E\"]\nselec = [\"M\"]\n").unwrap_err();
    assert_eq!(e.line_column(), Some((2, 1)), "{e:?}");
    assert!(e.message.contains("selec"), "{}", e.message);
    let e = parse_str("ignore = [\"E\", \"Q123\"]\n").unwrap_err();
    assert_eq!(e.line_column(), Some((1, 16)), "{e:?}");
    let e = parse_str("[thresholds]\nmin_window_s = \"long\"\n").unwrap_err();
    assert_eq!(e.line_column().map(|x| x.0), Some(2), "{e:?}");
    let e = parse_str("[thresholds]\nmin_windows = 3\n").unwrap_err();
    assert_eq!(e.line_column().map(|x| x.0), Some(2), "{e:?}");
    let e = parse_str("[severity]\n\"M099x\" = \"error\"\n").unwrap_err();
    assert_eq!(e.line_column(), Some((2, 1)), "{e:?}");
    let e = parse_str("[severity]\nM005 = \"fatal\"\n").unwrap_err();
    assert_eq!(e.line_column().map(|x| x.0), Some(2), "{e:?}");
    assert!(e.render(false).contains("benchlint.toml:2:"));
}
