//! The ladder chart of one configuration: aggregate throughput against the per-user rate, one
//! point per level, intervals as whiskers, and the service-level floor.

use std::fmt::Write as _;

use super::canvas::{Axis, Rect, axes, label_at, place, svg_open};
use super::{BLUE, FONT, GREEN, GREY, ORANGE, R, RED, escape, n, text_width};
use crate::audit::{ConfigLadder, Estimate};
use crate::model::LevelKey;

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
        let text = format!("floor {}", crate::report::audit_text::floor_text(f));
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
