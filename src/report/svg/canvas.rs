//! What both charts draw with: a linear axis with round ticks, gridlines and axis titles, the
//! SVG element itself, and labels placed where they overlap nothing.

use std::fmt::Write as _;

use super::{FONT, GREY, GRID, R, escape, n};
use crate::report::audit_text::fixed;

/// A linear axis from 0 to a round top, mapped onto pixels `p0` (at 0) to `p1` (at top).
pub(super) struct Axis {
    pub(super) step: f64,
    count: u32,
    p0: f64,
    p1: f64,
}

impl Axis {
    /// Ticks at 1, 2, 2.5 or 5 times a power of ten, five to ten of them, the top at or
    /// above `max`.
    pub(super) fn new(max: f64, p0: f64, p1: f64) -> Axis {
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

    pub(super) fn top(&self) -> f64 {
        f64::from(self.count) * self.step
    }

    pub(super) fn at(&self, v: f64) -> f64 {
        self.p0 + v / self.top() * (self.p1 - self.p0)
    }

    pub(super) fn ticks(&self) -> impl Iterator<Item = f64> + '_ {
        (0..=self.count).map(|i| f64::from(i) * self.step)
    }

    /// Decimals that show every tick exactly: 0 for whole steps, 1 for 0.5, 2 for 0.25, ...
    pub(super) fn decimals(&self) -> usize {
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
pub(super) struct Rect {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) w: f64,
    pub(super) h: f64,
}

impl Rect {
    pub(super) fn overlap(&self, o: &Rect) -> f64 {
        let w = (self.x + self.w).min(o.x + o.w) - self.x.max(o.x);
        let h = (self.y + self.h).min(o.y + o.h) - self.y.max(o.y);
        if w > 0.0 && h > 0.0 { w * h } else { 0.0 }
    }

    pub(super) fn inside(&self, o: &Rect) -> bool {
        self.x >= o.x
            && self.y >= o.y
            && self.x + self.w <= o.x + o.w
            && self.y + self.h <= o.y + o.h
    }
}

/// Places a label of width `width` near (`px`, `py`): the first candidate position (right,
/// above, left, below, then the diagonals) that stays inside `bounds` and overlaps no obstacle,
/// else the one that overlaps least. The chosen box becomes an obstacle.
pub(super) fn place(
    px: f64,
    py: f64,
    width: f64,
    bounds: &Rect,
    obstacles: &mut Vec<Rect>,
) -> Rect {
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
pub(super) fn label_at(out: &mut String, r: &Rect, text: &str, attrs: &str) {
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
pub(super) fn axes(
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

pub(super) fn svg_open(out: &mut String, w: f64, h: f64, title: &str, class: &str) {
    let _ = writeln!(
        out,
        r#"<svg class="{class}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{t}" font-size="{FONT}"><title>{t}</title>"#,
        t = escape(title)
    );
}
