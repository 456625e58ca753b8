//! `benchlint rule CODE` and `benchlint rules`: the rule documentation.

use std::fmt::Write;

use serde_json::json;

use super::{DocFormat, EXIT_CLEAN, Output};
use crate::rules::{RULES, RuleMeta, find_rule};

/// The rule's page as Markdown: title, metadata line, documentation.
pub fn page(meta: &RuleMeta) -> String {
    let mut s = format!("# {} ({})\n\n", meta.name, meta.code);
    let _ = write!(
        s,
        "Default severity: **{}** · Scope: {} · Source: {}",
        meta.severity.as_str(),
        meta.scope.as_str(),
        meta.source
    );
    if let Some(since) = meta.since {
        let _ = write!(
            s,
            " · Adopted: {since} (results measured earlier get a pre-rule label)"
        );
    }
    s.push_str("\n\n");
    s.push_str(meta.doc_text().trim_end());
    s.push('\n');
    s
}

fn as_json(meta: &RuleMeta) -> serde_json::Value {
    json!({
        "code": meta.code, "name": meta.name, "severity": meta.severity.as_str(),
        "scope": meta.scope.as_str(), "since": meta.since, "source": meta.source,
        "summary": meta.summary, "explanation": meta.doc_text().trim_end(),
    })
}

/// `benchlint rule CODE`.
pub fn explain(code: &str, format: DocFormat) -> Result<Output, String> {
    let rule =
        find_rule(code).ok_or_else(|| format!("no rule `{code}`; `benchlint rules` lists them"))?;
    let text = match format {
        DocFormat::Text => page(rule.meta),
        DocFormat::Json => format!("{:#}\n", as_json(rule.meta)),
    };
    Ok(Output::stdout(text.into_bytes(), EXIT_CLEAN))
}

/// `benchlint rules`.
pub fn list(format: DocFormat) -> Output {
    let text = match format {
        DocFormat::Json => format!(
            "{:#}\n",
            serde_json::Value::Array(RULES.iter().map(|r| as_json(r.meta)).collect())
        ),
        DocFormat::Text => {
            let mut table = comfy_table::Table::new();
            table
                .load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
                .set_header(vec!["code", "name", "severity", "scope", "summary"]);
            for r in RULES {
                table.add_row(vec![
                    r.meta.code,
                    r.meta.name,
                    r.meta.severity.as_str(),
                    r.meta.scope.as_str(),
                    r.meta.summary,
                ]);
            }
            format!("{table}\n")
        }
    };
    Output::stdout(text.into_bytes(), EXIT_CLEAN)
}
