//! Inline SVG charts of the audit page: no script, no external reference, fixed decimals, so
//! the same report gives the same bytes.
//!
//! - [`ladder_chart`]: one configuration's ladder as a curve, aggregate throughput (y) against
//!   the per-user rate (x), each level a point labelled with its load (streams, or `N/s`), 95% intervals as
//!   whiskers in both directions, and the service-level floor as a vertical line (seed 004: "a
//!   single number is the wrong output and a curve is the right one").
//! - [`ratio_chart`]: a ratio claim as published beside its restated value, or a hatched
//!   "retracted" (or "unresolved") slot when the audit gives no value.

use std::fmt::Write as _;

use super::audit_text::{claim_value, fixed};
use crate::audit::{ClaimOutcome, ConfigLadder, Estimate, Verdict};
use crate::model::LevelKey;

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

/// Escapes text for SVG/HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate with one decimal.
fn n(v: f64) -> String {
    format!("{v:.1}")
}

#[allow(clippy::cast_precision_loss)]
fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * CHAR_W
}

/// A linear axis from 0 to a round top, mapped onto pixels `p0` (at 0) to `p1` (at top).
struct Axis {
    step: f64,
    count: u32,
    p0: f64,
    p1: f64,
}

impl Axis {
    /// Ticks at 1, 2, 2.5 or 5 times a power of ten, five to ten of them, the top at or
    /// above `max`.
    fn new(max: f64, p0: f64, p1: f64) -> Axis {
        let max = if max.is_finite() && max > 0.0 {
            max
        } else {
            1.0
        };
        let raw = max / 6.0;
        let mag = 10f64.powf(raw.log10().floor());
        let m = match raw / mag {
            x if x <= 1.0 => 1.0,
            x if x <= 2.0 => 2.0,
            x if x <= 2.5 => 2.5,
            x if x <= 5.0 => 5.0,
            _ => 10.0,
        };
        let step = m * mag;
        let mut count = 1;
        while f64::from(count) * step < max * (1.0 - 1e-9) && count < 100 {
            count += 1;
        }
        Axis {
            step,
            count,
            p0,
            p1,
        }
    }

    fn top(&self) -> f64 {
        f64::from(self.count) * self.step
    }

    fn at(&self, v: f64) -> f64 {
        self.p0 + v / self.top() * (self.p1 - self.p0)
    }

    fn ticks(&self) -> impl Iterator<Item = f64> + '_ {
        (0..=self.count).map(|i| f64::from(i) * self.step)
    }

    /// Decimals that show every tick exactly: 0 for whole steps, 1 for 0.5, 2 for 0.25, ...
    fn decimals(&self) -> usize {
        (0..6)
            .find(|d| {
                let scaled = self.step * 10f64.powi(*d);
                (scaled - scaled.round()).abs() < 1e-6 * scaled.max(1.0)
            })
            .map_or(6, |d| usize::try_from(d).unwrap_or(6))
    }
}

/// A box on the canvas, for placing labels where they overlap nothing.
#[derive(Debug, Clone, Copy)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    fn overlap(&self, o: &Rect) -> f64 {
        let w = (self.x + self.w).min(o.x + o.w) - self.x.max(o.x);
        let h = (self.y + self.h).min(o.y + o.h) - self.y.max(o.y);
        if w > 0.0 && h > 0.0 { w * h } else { 0.0 }
    }

    fn inside(&self, o: &Rect) -> bool {
        self.x >= o.x
            && self.y >= o.y
            && self.x + self.w <= o.x + o.w
            && self.y + self.h <= o.y + o.h
    }
}

/// Places a label of width `width` near (`px`, `py`): the first candidate position (right,
/// above, left, below, then the diagonals) that stays inside `bounds` and overlaps no obstacle,
/// else the one that overlaps least. The chosen box becomes an obstacle.
fn place(px: f64, py: f64, width: f64, bounds: &Rect, obstacles: &mut Vec<Rect>) -> Rect {
    let height = FONT + 1.0;
    let gap = R + 3.0;
    let candidates = [
        (px + gap, py - height / 2.0),
        (px - width / 2.0, py - gap - height),
        (px - gap - width, py - height / 2.0),
        (px - width / 2.0, py + gap),
        (px + gap - 2.0, py - gap - height + 2.0),
        (px + gap - 2.0, py + gap - 2.0),
        (px - gap - width + 2.0, py - gap - height + 2.0),
        (px - gap - width + 2.0, py + gap - 2.0),
    ];
    let mut best: Option<(f64, Rect)> = None;
    for (cx, cy) in candidates {
        let candidate = Rect {
            x: cx,
            y: cy,
            w: width,
            h: height,
        };
        if !candidate.inside(bounds) {
            continue;
        }
        let cost: f64 = obstacles.iter().map(|o| candidate.overlap(o)).sum();
        if best.is_none_or(|(least, _)| cost < least) {
            best = Some((cost, candidate));
        }
        if cost == 0.0 {
            break;
        }
    }
    let fallback = Rect {
        x: px + gap,
        y: py - height / 2.0,
        w: width,
        h: height,
    };
    let chosen = best.map_or(fallback, |(_, r)| r);
    obstacles.push(chosen);
    chosen
}

/// A label at a placed box, with a white halo so it stays legible over lines.
fn label_at(out: &mut String, r: &Rect, text: &str, attrs: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" class="halo"{attrs}>{}</text>"#,
        n(r.x),
        n(r.y + r.h - 2.5),
        escape(text)
    );
}

/// Gridlines, ticks and tick labels of both axes, and the axis titles.
/// Without an x axis (a bar chart), only the baseline is drawn along the bottom.
fn axes(
    out: &mut String,
    x: Option<&Axis>,
    y: &Axis,
    plot: &Rect,
    x_title: &str,
    y_title: &str,
    suffix: &str,
) {
    let bottom = plot.y + plot.h;
    for t in y.ticks() {
        let py = y.at(t);
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{py}" x2="{}" y2="{py}" stroke="{GRID}" stroke-width="1"/><text x="{}" y="{}" text-anchor="end">{}{suffix}</text>"#,
            n(plot.x),
            n(plot.x + plot.w),
            n(plot.x - 6.0),
            n(y.at(t) + 4.0),
            fixed(t, y.decimals()),
            py = n(py),
        );
    }
    let x_ticks = x
        .map(|x| {
            x.ticks()
                .map(|t| (t, x.at(t), x.decimals()))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    for (t, px, decimals) in x_ticks {
        let px = n(px);
        let _ = writeln!(
            out,
            r#"<line x1="{px}" y1="{}" x2="{px}" y2="{}" stroke="{GRID}" stroke-width="1"/><text x="{px}" y="{}" text-anchor="middle">{}</text>"#,
            n(plot.y),
            n(bottom + 4.0),
            n(bottom + 16.0),
            fixed(t, decimals),
        );
    }
    let _ = writeln!(
        out,
        r#"<path d="M{} {}V{}H{}" fill="none" stroke="{GREY}" stroke-width="1"/>"#,
        n(plot.x),
        n(plot.y),
        n(bottom),
        n(plot.x + plot.w)
    );
    if !x_title.is_empty() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle" class="title">{}</text>"#,
            n(plot.x + plot.w / 2.0),
            n(bottom + 36.0),
            escape(x_title)
        );
    }
    let cy = plot.y + plot.h / 2.0;
    let _ = writeln!(
        out,
        r#"<text x="14" y="{}" text-anchor="middle" class="title" transform="rotate(-90 14 {})">{}</text>"#,
        n(cy),
        n(cy),
        escape(y_title)
    );
}

fn svg_open(out: &mut String, w: f64, h: f64, title: &str, class: &str) {
    let _ = writeln!(
        out,
        r#"<svg class="{class}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{t}" font-size="{FONT}"><title>{t}</title>"#,
        t = escape(title)
    );
}

/// The levels of a ladder that have both figures, in load order (streams, then rates).
fn plotted(ladder: &ConfigLadder) -> Vec<(LevelKey, Estimate, Estimate)> {
    let mut pts: Vec<(LevelKey, Estimate, Estimate)> = ladder
        .points
        .iter()
        .filter_map(|p| Some((p.key, p.aggregate_tok_s?, p.per_user_tok_s?)))
        .filter(|(_, a, u)| {
            [a.value, a.low, a.high, u.value, u.low, u.high]
                .iter()
                .all(|v| v.is_finite())
        })
        .collect();
    pts.sort_by_key(|p| p.0);
    pts
}

/// The ladder chart of one configuration.
pub fn ladder_chart(ladder: &ConfigLadder, floor: f64) -> String {
    const W: f64 = 760.0;
    const H: f64 = 420.0;
    let plot = Rect {
        x: 74.0,
        y: 16.0,
        w: W - 74.0 - 22.0,
        h: H - 16.0 - 58.0,
    };
    let bottom = plot.y + plot.h;
    let pts = plotted(ladder);
    let mut out = String::new();
    let title = format!(
        "Ladder of {}: aggregate throughput against per-user rate",
        ladder.label.line()
    );
    svg_open(&mut out, W, H, &title, "chart ladder");
    let floor = if floor.is_finite() && floor > 0.0 {
        Some(floor)
    } else {
        None
    };
    let x_max = pts
        .iter()
        .map(|p| p.2.high.max(p.2.value))
        .fold(floor.unwrap_or(0.0), f64::max)
        * 1.06;
    let y_max = pts
        .iter()
        .map(|p| p.1.high.max(p.1.value))
        .fold(0.0, f64::max)
        * 1.06;
    let x = Axis::new(x_max, plot.x, plot.x + plot.w);
    let y = Axis::new(y_max, bottom, plot.y);
    axes(
        &mut out,
        Some(&x),
        &y,
        &plot,
        "per-user rate (tok/s per user)",
        "aggregate throughput (tok/s)",
        "",
    );
    if pts.is_empty() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle" class="title">no level has both an aggregate and a per-user rate</text>"#,
            n(plot.x + plot.w / 2.0),
            n(plot.y + plot.h / 2.0)
        );
    }
    let centres: Vec<(f64, f64)> = pts
        .iter()
        .map(|(_, a, u)| (x.at(u.value), y.at(a.value)))
        .collect();
    // Everything a label must keep clear of: the curve (sampled every 3 px), the whiskers
    // that are drawn (where the interval is wider than the point), the points.
    let mut obstacles: Vec<Rect> = Vec::new();
    for pair in centres.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        let steps = ((to.0 - from.0).hypot(to.1 - from.1) / 3.0).ceil().max(1.0);
        let mut step = 0.0;
        while step <= steps {
            let along = step / steps;
            let (px, py) = (
                from.0 + (to.0 - from.0) * along,
                from.1 + (to.1 - from.1) * along,
            );
            obstacles.push(Rect {
                x: px - 1.5,
                y: py - 1.5,
                w: 3.0,
                h: 3.0,
            });
            step += 1.0;
        }
    }
    let mut whiskers = String::new();
    for ((_, a, u), (cx, cy)) in pts.iter().zip(&centres) {
        // An interval that runs below zero (a t interval over two launches can) stops at the
        // axis, without a cap there: the whisker goes on past what the chart shows.
        let (x0, x1) = (x.at(u.low.max(0.0)), x.at(u.high));
        if x1 - x0 > 2.0 * R {
            let low_cap = if u.low >= 0.0 {
                format!("M{} {}V{}", n(x0), n(cy - 4.0), n(cy + 4.0))
            } else {
                String::new()
            };
            let _ = writeln!(
                whiskers,
                r#"<path d="M{x0} {cy}H{x1}{low_cap}M{x1} {a}V{b}" stroke="{GREY}" stroke-width="1.2" fill="none"/>"#,
                x0 = n(x0),
                x1 = n(x1),
                cy = n(*cy),
                a = n(cy - 4.0),
                b = n(cy + 4.0)
            );
            obstacles.push(Rect {
                x: x0 - 2.0,
                y: cy - 5.0,
                w: x1 - x0 + 4.0,
                h: 10.0,
            });
        }
        let (y0, y1) = (y.at(a.low.max(0.0)), y.at(a.high));
        if y0 - y1 > 2.0 * R {
            let low_cap = if a.low >= 0.0 {
                format!("M{} {}H{}", n(cx - 4.0), n(y0), n(cx + 4.0))
            } else {
                String::new()
            };
            let _ = writeln!(
                whiskers,
                r#"<path d="M{cx} {y0}V{y1}{low_cap}M{a} {y1}H{b}" stroke="{GREY}" stroke-width="1.2" fill="none"/>"#,
                cx = n(*cx),
                y0 = n(y0),
                y1 = n(y1),
                a = n(cx - 4.0),
                b = n(cx + 4.0)
            );
            obstacles.push(Rect {
                x: cx - 5.0,
                y: y1 - 2.0,
                w: 10.0,
                h: y0 - y1 + 4.0,
            });
        }
    }
    for (cx, cy) in &centres {
        obstacles.push(Rect {
            x: cx - R - 4.0,
            y: cy - R - 4.0,
            w: 2.0 * R + 8.0,
            h: 2.0 * R + 8.0,
        });
    }
    // The floor: a dashed vertical line with its label running along it, on whichever side
    // and end of the line the curve leaves free.
    if let Some(f) = floor {
        let fx = x.at(f);
        let _ = writeln!(
            out,
            r#"<line x1="{fx}" y1="{}" x2="{fx}" y2="{}" stroke="{RED}" stroke-width="1.5" stroke-dasharray="6 4"/>"#,
            n(plot.y),
            n(bottom),
            fx = n(fx)
        );
        let text = format!("floor {}", super::audit_text::floor_text(f));
        let len = text_width(&text);
        // (baseline x, box), for text rotated -90° (reading upwards), anchored at its start
        // (bottom) or its end (top).
        let candidates = [
            (
                fx - 5.0,
                Rect {
                    x: fx - 5.0 - FONT,
                    y: bottom - 6.0 - len,
                    w: FONT + 2.0,
                    h: len,
                },
            ),
            (
                fx + 4.0 + FONT,
                Rect {
                    x: fx + 4.0,
                    y: bottom - 6.0 - len,
                    w: FONT + 2.0,
                    h: len,
                },
            ),
            (
                fx - 5.0,
                Rect {
                    x: fx - 5.0 - FONT,
                    y: plot.y + 6.0,
                    w: FONT + 2.0,
                    h: len,
                },
            ),
            (
                fx + 4.0 + FONT,
                Rect {
                    x: fx + 4.0,
                    y: plot.y + 6.0,
                    w: FONT + 2.0,
                    h: len,
                },
            ),
        ];
        let cost = |r: &Rect| obstacles.iter().map(|o| r.overlap(o)).sum::<f64>();
        let mut best = (f64::INFINITY, candidates[0]);
        for c in candidates {
            if !c.1.inside(&plot) {
                continue;
            }
            let k = cost(&c.1);
            if k < best.0 {
                best = (k, c);
            }
        }
        let (tx, r) = best.1;
        let top = (r.y - plot.y - 6.0).abs() < 1e-9;
        let (ty, anchor) = if top {
            (plot.y + 6.0, "end")
        } else {
            (bottom - 6.0, "start")
        };
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" transform="rotate(-90 {} {})" text-anchor="{anchor}" fill="{RED}" class="halo">{}</text>"#,
            n(tx),
            n(ty),
            n(tx),
            n(ty),
            escape(&text)
        );
        obstacles.push(r);
        obstacles.push(Rect {
            x: fx - 1.0,
            y: plot.y,
            w: 2.0,
            h: plot.h,
        });
    }
    // The curve, in load order.
    if centres.len() > 1 {
        let d: Vec<String> = centres
            .iter()
            .map(|(cx, cy)| format!("{},{}", n(*cx), n(*cy)))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{BLUE}" stroke-width="1.5" stroke-opacity="0.55"/>"#,
            d.join(" ")
        );
    }
    out.push_str(&whiskers);
    let capacity = ladder.capacity.as_ref();
    let cap_c = capacity.and_then(|c| c.level);
    let marginal = capacity.and_then(|c| c.marginal_interval).map(|m| m.1);
    for ((c, _, u), (cx, cy)) in pts.iter().zip(&centres) {
        let (fill, stroke) = if cap_c == Some(*c) {
            (GREEN, GREEN)
        } else if marginal == Some(*c) {
            (ORANGE, ORANGE)
        } else if floor.is_some_and(|f| u.value < f) {
            ("#ffffff", BLUE)
        } else {
            (BLUE, BLUE)
        };
        if cap_c == Some(*c) {
            let _ = writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{GREEN}" stroke-width="1.5"/>"#,
                n(*cx),
                n(*cy),
                n(R + 3.5)
            );
        }
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="{R}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
            n(*cx),
            n(*cy)
        );
    }
    // Labels last, so every point, whisker and the floor label is an obstacle for each.
    for ((c, _, _), (cx, cy)) in pts.iter().zip(&centres) {
        let text = point_label(*c);
        let r = place(*cx, *cy, text_width(&text), &plot, &mut obstacles);
        label_at(&mut out, &r, &text, r#" class="halo point""#);
    }
    out.push_str("</svg>\n");
    out
}

/// A point's label: its streams (`32`), or its request rate (`10/s`, `inf/s`).
fn point_label(key: LevelKey) -> String {
    match key {
        LevelKey::Rate(_) => format!("{}/s", key.value_text()),
        _ => key.value_text(),
    }
}

/// The levels of a ladder that the chart cannot show (an aggregate or a per-user rate is
/// missing), in load order.
pub fn unplotted(ladder: &ConfigLadder) -> Vec<LevelKey> {
    let shown: Vec<LevelKey> = plotted(ladder).iter().map(|p| p.0).collect();
    ladder
        .points
        .iter()
        .map(|p| p.key)
        .filter(|c| !shown.contains(c))
        .collect()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Ticks are round and the top covers the maximum.
    #[test]
    fn axis_ticks_are_round() {
        let a = Axis::new(563.0, 0.0, 100.0);
        assert!((a.step - 100.0).abs() < 1e-9);
        assert!((a.top() - 600.0).abs() < 1e-9);
        assert_eq!(a.decimals(), 0);
        let b = Axis::new(2.53, 0.0, 100.0);
        assert!((b.step - 0.5).abs() < 1e-9);
        assert!((b.top() - 3.0).abs() < 1e-9);
        assert_eq!(b.decimals(), 1);
        let c = Axis::new(f64::NAN, 0.0, 100.0);
        assert!((c.top() - 1.0).abs() < 1e-9);
    }

    /// A label goes where nothing is, and never twice onto the same spot.
    #[test]
    fn labels_avoid_each_other() {
        let bounds = Rect {
            x: 0.0,
            y: 0.0,
            w: 200.0,
            h: 200.0,
        };
        let mut obstacles = vec![];
        let a = place(100.0, 100.0, 20.0, &bounds, &mut obstacles);
        let b = place(100.0, 100.0, 20.0, &bounds, &mut obstacles);
        assert!(a.overlap(&b) == 0.0);
    }

    /// Escaping covers markup and quotes.
    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
