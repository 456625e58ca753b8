//! Inline SVG charts of the audit page: no script, no external reference, fixed decimals, so
//! the same report gives the same bytes.
//!
//! - [`ladder_chart`]: one configuration's ladder as a curve, aggregate throughput (y) against
//!   the per-user rate (x), each level a point labelled with its load (streams, or `N/s`), 95% intervals as
//!   whiskers in both directions, and the service-level floor as a vertical line (seed 004: "a
//!   single number is the wrong output and a curve is the right one").
//! - [`ratio_chart`]: a ratio claim as published beside its restated value, or a hatched
//!   "retracted" (or "unresolved") slot when the audit gives no value.

mod canvas;
mod ladder;
mod ratio;

pub use ladder::{ladder_chart, unplotted};
pub use ratio::ratio_chart;

/// Font size of chart text, pixels.
const FONT: f64 = 11.0;
/// Average advance of one character at [`FONT`] in a sans-serif face (digits are narrower;
/// this errs on the wide side so that label boxes do not underestimate).
const CHAR_W: f64 = 6.4;
/// Radius of a level's point.
const R: f64 = 4.5;

const BLUE: &str = "#0969da";
const GREEN: &str = "#1a7f37";
const ORANGE: &str = "#bc4c00";
const RED: &str = "#cf222e";
const GREY: &str = "#57606a";
const GRID: &str = "#d0d7de";

/// Escapes text for SVG/HTML content and attribute values, control characters as spaces.
pub fn escape(s: &str) -> String {
    if s.chars().any(char::is_control) {
        let spaced: String = s
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        crate::text::html_escape(&spaced)
    } else {
        crate::text::html_escape(s)
    }
}

/// A coordinate with one decimal.
fn n(v: f64) -> String {
    format!("{v:.1}")
}

#[allow(clippy::cast_precision_loss)]
fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * CHAR_W
}

#[cfg(test)]
mod tests;
