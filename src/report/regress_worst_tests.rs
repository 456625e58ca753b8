//! The worst-first lists of the regression reports, gathered as cells pass
//! ([`super::regress_common::Worst`]), against sorting every cell.

use super::regress_common::{Badness, Worst};
use crate::regress::Verdict;
use crate::seeded::below;

#[test]
fn the_worst_gathered_as_cells_pass_are_the_first_of_all_sorted() {
    let mut state = 41;
    for case in 0..400 {
        let n = below(&mut state, 80);
        let keys: Vec<(Badness, String)> = (0..n)
            .map(|place| {
                let verdict = Verdict::Inconclusive;
                let size = i64::try_from(below(&mut state, 7)).unwrap_or(0) - 3;
                let key = (
                    u8::try_from(below(&mut state, 2)).unwrap_or(0),
                    verdict,
                    size,
                    place,
                );
                (key, "x".repeat(1 + below(&mut state, 30)))
            })
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        // By count.
        let keep = below(&mut state, 12);
        let mut counted = Worst::counted(keep);
        for (k, line) in &keys {
            counted.offer(*k, || line.clone());
        }
        assert_eq!(counted.offered(), n);
        let want: Vec<String> = sorted.iter().take(keep).map(|(_, l)| l.clone()).collect();
        assert_eq!(counted.into_lines(), want, "case {case}");
        // By size: the fewest first lines that reach the bytes, so that any text made of the
        // lines in order and cut at those bytes is the same.
        let bytes = 1 + below(&mut state, 400);
        let mut sized = Worst::sized(bytes);
        let mut made = 0;
        for (k, line) in &keys {
            sized.offer(*k, || {
                made += 1;
                line.clone()
            });
        }
        let got = sized.into_lines();
        let mut want = Vec::new();
        let mut total = 0;
        for (_, l) in &sorted {
            if total >= bytes {
                break;
            }
            total += l.len();
            want.push(l.clone());
        }
        assert_eq!(got, want, "case {case}");
        assert!(made <= n);
    }
}
