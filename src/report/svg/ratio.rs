//! The bar chart of a ratio claim: as published beside restated, or a hatched slot saying why
//! there is no value.

use std::fmt::Write as _;

use super::canvas::{Axis, Rect, axes, svg_open};
use super::{BLUE, GREEN, GREY, RED, escape, n};
use crate::audit::{ClaimOutcome, Verdict};
use crate::report::audit_text::claim_value;

/// The bar chart of a ratio claim: as published beside restated, or a hatched slot saying why
/// there is no value.
pub fn ratio_chart(claim: &ClaimOutcome) -> String {
    const W: f64 = 440.0;
    const H: f64 = 240.0;
    let plot = Rect {
        x: 58.0,
        y: 22.0,
        w: W - 58.0 - 96.0,
        h: H - 22.0 - 46.0,
    };
    let bottom = plot.y + plot.h;
    let published = claim.published_value;
    let restated = claim.restated_value.filter(|v| v.is_finite());
    let mut out = String::new();
    let title = format!(
        "Ratio claim {}: as published and as audited",
        claim.id.line()
    );
    svg_open(&mut out, W, H, &title, "chart ratio");
    let verdict_colour = if claim.verdict == Verdict::Retracted {
        RED
    } else {
        GREY
    };
    let max = [published, restated.unwrap_or(0.0), 1.0]
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max)
        * 1.15;
    let y = Axis::new(max, bottom, plot.y);
    // Only the y axis has ticks; the x axis names the two slots.
    axes(&mut out, None, &y, &plot, "", "ratio", "×");
    // Parity: a ratio of 1 is a tie.
    if y.top() >= 1.0 {
        let py = n(y.at(1.0));
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{py}" x2="{}" y2="{py}" stroke="{GREY}" stroke-width="1" stroke-dasharray="4 3"/><text x="{}" y="{}" fill="{GREY}">1.00× = tie</text>"#,
            n(plot.x),
            n(plot.x + plot.w),
            n(plot.x + plot.w + 6.0),
            n(y.at(1.0) + 4.0)
        );
    }
    let slot = plot.w / 2.0;
    let bar_w = 76.0;
    let bar = |out: &mut String, i: f64, v: f64, fill: &str| {
        let cx = plot.x + slot * (i + 0.5);
        let top = y.at(v.max(0.0));
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{}" width="{bar_w}" height="{}" fill="{fill}"/><text x="{}" y="{}" text-anchor="middle" class="value">{}</text>"#,
            n(cx - bar_w / 2.0),
            n(top),
            n(bottom - top),
            n(cx),
            n(top - 5.0),
            escape(&claim_value(claim, v))
        );
    };
    let slot_label = |out: &mut String, i: f64, text: &str| {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle" class="title">{}</text>"#,
            n(plot.x + slot * (i + 0.5)),
            n(bottom + 18.0),
            escape(text)
        );
    };
    if published.is_finite() {
        bar(&mut out, 0.0, published, GREY);
    }
    slot_label(&mut out, 0.0, "as published");
    let cx = plot.x + slot * 1.5;
    let note = |out: &mut String, text: &str, colour: &str| {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle" class="halo value" fill="{colour}">{}</text>"#,
            n(cx),
            n(plot.y + plot.h / 2.0),
            escape(text)
        );
    };
    match (restated, claim.verdict) {
        (Some(r), _) => {
            bar(&mut out, 1.0, r, BLUE);
            slot_label(&mut out, 1.0, "restated");
        }
        (None, Verdict::Upheld) => {
            note(&mut out, "upheld as published", GREEN);
            slot_label(&mut out, 1.0, "audited");
        }
        (None, Verdict::PreRule) => {
            note(&mut out, "pre-rule: labelled", GREY);
            slot_label(&mut out, 1.0, "audited");
        }
        (None, v) => {
            // No bar and no shape: a claim retracted or unresolved has no audited value, and
            // anything drawn on the value axis would be read as one (a hatched bar to the top
            // of the plot read as the largest ratio on it). The slot says so in words.
            note(
                &mut out,
                &format!("{}: no value", v.as_str()),
                verdict_colour,
            );
            slot_label(&mut out, 1.0, "audited");
        }
    }
    out.push_str("</svg>\n");
    out
}
