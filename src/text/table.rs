//! A table drawn line by line as its rows come, in the look of comfy-table's
//! `UTF8_FULL_CONDENSED` preset with a header (one space of padding each side, no line
//! between rows, no wrapping): the same bytes comfy-table writes, without holding every row
//! as comfy-table's cells until the end. A table with a row per configuration of a large corpus
//! held that way took kilobytes a row.
//!
//! The widths are measured in a first pass over the rows ([`Layout::measure`]); the rows are
//! then made again and drawn one at a time. A table comfy-table would wrap (a line wider than
//! it measures a column, past 65,535 columns) is not drawn here: `measure` says so, and the
//! caller draws it with comfy-table.

use unicode_width::UnicodeWidthStr;

/// The measured columns of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Each column's content width (its widest line, at least 1).
    widths: Vec<usize>,
    /// Whether each column is aligned right (header included), else left.
    right: Vec<bool>,
}

impl Layout {
    /// The layout of a table of `header` and `rows`, with the columns in `right` aligned
    /// right; `None` when a cell is wider than comfy-table lays out without wrapping.
    pub fn measure<R, C>(header: &[&str], rows: R, right: &[usize]) -> Option<Self>
    where
        R: IntoIterator<Item = C>,
        C: IntoIterator<Item = String>,
    {
        let mut widths = vec![1; header.len()];
        let mut widen = |i: usize, cell: &str| {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(
                    cell.split('\n')
                        .map(UnicodeWidthStr::width)
                        .max()
                        .unwrap_or(0),
                );
            }
        };
        for (i, cell) in header.iter().enumerate() {
            widen(i, cell);
        }
        for row in rows {
            for (i, cell) in row.into_iter().enumerate() {
                widen(i, &cell);
            }
        }
        if widths.iter().any(|&w| w > usize::from(u16::MAX)) {
            return None;
        }
        Some(Layout {
            right: (0..header.len()).map(|i| right.contains(&i)).collect(),
            widths,
        })
    }

    /// A border line: `left`, each column's width of `fill` (padding included) joined by
    /// `junction`, `right`.
    fn border(&self, [left, fill, junction, right]: [char; 4]) -> String {
        let mut line = String::new();
        line.push(left);
        for (i, w) in self.widths.iter().enumerate() {
            if i > 0 {
                line.push(junction);
            }
            line.extend(std::iter::repeat_n(fill, w + 2));
        }
        line.push(right);
        line
    }

    /// The lines of one row (several when a cell holds a line break), each cell padded and
    /// aligned, cells joined by `┆` between `│` borders.
    fn row_lines<C: AsRef<str>>(&self, cells: &[C]) -> String {
        let split: Vec<Vec<&str>> = cells
            .iter()
            .map(|c| c.as_ref().split('\n').collect())
            .collect();
        let height = split.iter().map(Vec::len).max().unwrap_or(0);
        let mut out = String::new();
        for k in 0..height {
            if k > 0 {
                out.push('\n');
            }
            out.push('│');
            for (i, w) in self.widths.iter().enumerate() {
                if i > 0 {
                    out.push('┆');
                }
                match split.get(i).and_then(|lines| lines.get(k)) {
                    Some(text) => {
                        let gap = w.saturating_sub(text.width());
                        let (before, after) = if self.right[i] { (gap, 0) } else { (0, gap) };
                        out.extend(std::iter::repeat_n(' ', 1 + before));
                        out.push_str(text);
                        out.extend(std::iter::repeat_n(' ', after + 1));
                    }
                    None => out.extend(std::iter::repeat_n(' ', w + 2)),
                }
            }
            out.push('│');
        }
        out
    }

    /// The top border, the header and the line under it, each line followed by a line feed.
    pub fn head(&self, header: &[&str]) -> String {
        format!(
            "{}\n{}\n{}\n",
            self.border(['┌', '─', '┬', '┐']),
            self.row_lines(header),
            self.border(['╞', '═', '╪', '╡'])
        )
    }

    /// One row's lines, followed by a line feed.
    pub fn row<C: AsRef<str>>(&self, cells: &[C]) -> String {
        let mut lines = self.row_lines(cells);
        lines.push('\n');
        lines
    }

    /// The bottom border, with no line feed (as comfy-table ends a table).
    pub fn foot(&self) -> String {
        self.border(['└', '─', '┴', '┘'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use comfy_table::{CellAlignment, Table, presets};

    /// Draws from [`crate::seeded`]: a fixed sequence, so a failure reproduces.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            crate::seeded::below(&mut self.0, n)
        }

        /// A cell: empty, ASCII, wide (CJK, emoji), combining marks, zero-width, a line break.
        fn cell(&mut self) -> String {
            const PIECES: [&str; 12] = [
                "",
                "a",
                "Qwen3-8B",
                "1,234.5",
                "–",
                "日本語",
                "🚀",
                "e\u{301}",
                "\u{200b}",
                "\n",
                "none: no level clears the floor",
                " ",
            ];
            (0..self.below(4))
                .map(|_| PIECES[self.below(PIECES.len())])
                .collect()
        }
    }

    fn comfy(header: &[&str], rows: &[Vec<String>], right: &[usize]) -> String {
        let mut table = Table::new();
        table.load_style(presets::UTF8_FULL_CONDENSED);
        table.force_no_tty();
        table.set_header(header.to_vec());
        for row in rows {
            table.add_row(row.clone());
        }
        for &i in right {
            if let Some(col) = table.column_mut(i) {
                col.set_cell_alignment(CellAlignment::Right);
            }
        }
        table.to_string()
    }

    fn drawn(header: &[&str], rows: &[Vec<String>], right: &[usize]) -> String {
        let layout = Layout::measure(header, rows.iter().cloned(), right).expect("narrow cells");
        let mut out = layout.head(header);
        for row in rows {
            out.push_str(&layout.row(row));
        }
        out.push_str(&layout.foot());
        out
    }

    #[test]
    fn tables_are_drawn_byte_for_byte_as_comfy_table_draws_them() {
        let mut rng = Rng(0x7ab1_e5ee_d001);
        for _ in 0..300 {
            let columns = 1 + rng.below(6);
            let header_cells: Vec<String> = (0..columns).map(|_| rng.cell()).collect();
            let header: Vec<&str> = header_cells.iter().map(String::as_str).collect();
            let rows: Vec<Vec<String>> = (0..rng.below(5))
                .map(|_| (0..columns).map(|_| rng.cell()).collect())
                .collect();
            let right: Vec<usize> = (0..columns).filter(|_| rng.below(2) == 0).collect();
            assert_eq!(
                drawn(&header, &rows, &right),
                comfy(&header, &rows, &right),
                "{header:?} {rows:?} {right:?}"
            );
        }
    }

    #[test]
    fn a_cell_too_wide_to_lay_out_unwrapped_is_left_to_comfy_table() {
        let wide = "x".repeat(usize::from(u16::MAX) + 1);
        assert!(Layout::measure(&["a"], [vec![wide]], &[]).is_none());
        assert!(Layout::measure(&["a"], [vec!["x".repeat(100)]], &[]).is_some());
    }
}
