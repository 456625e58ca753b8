//! Seeded simulations of whole regression runs at the level of the pure functions (no files,
//! no binary): the false-alarm rate when HEAD is drawn from BASE's own launch distribution,
//! and the power against a 10% slowdown at a launch CV of 2% with 4 launches per side.
//! Launch summaries are log-normal around the configuration's centre (the spread between
//! engine launches is multiplicative, `research/regression.md` §3), drawn with SplitMix64 and
//! Box–Muller from a fixed seed, so every run of the suite sees the same trials.

use super::cells::blank_cell;
use super::{Cell, Launch, Options, RegressMetric, SideCell, Verdict, decide};
use crate::model::LevelKey;

/// SplitMix64 (Steele, Lea & Flood 2014).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    fn uniform(&mut self) -> f64 {
        #[expect(clippy::cast_precision_loss, reason = "53 random bits")]
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        u.max(f64::MIN_POSITIVE)
    }

    /// Standard normal (Box–Muller).
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

fn side(rng: &mut Rng, centre: f64, sd_log: f64, k: usize) -> SideCell {
    SideCell {
        launches: (0..k)
            .map(|_| Launch {
                value: centre * (sd_log * rng.normal()).exp(),
                runs: 0..0,
            })
            .collect(),
        ..SideCell::default()
    }
}

/// One run of `cells` cells (levels of one throughput metric), HEAD's centre `factor` times
/// BASE's; returns the verdicts.
fn trial(rng: &mut Rng, cells: usize, factor: f64, cv: f64, k: usize) -> Vec<Verdict> {
    let mut family: Vec<Cell> = (0..cells)
        .map(|i| {
            let mut c = blank_cell(
                0,
                LevelKey::Streams(1 << i),
                RegressMetric::AggregateTokS,
                Verdict::Inconclusive,
            );
            #[expect(clippy::cast_precision_loss, reason = "small level index")]
            let centre = 100.0 * (i + 1) as f64;
            c.base = Some(Box::new(side(rng, centre, cv, k)));
            c.head = Some(Box::new(side(rng, centre * factor, cv, k)));
            c
        })
        .collect();
    decide::decide(&mut family, &Options::default());
    family.iter().map(|c| c.verdict).collect()
}

#[test]
fn no_change_flags_at_most_about_alpha() {
    let mut rng = Rng(0x5eed_0001);
    let (trials, cells) = (1000, 12);
    let mut any_significant = 0;
    let mut regressions = 0;
    let mut significant_cells = 0;
    for _ in 0..trials {
        let v = trial(&mut rng, cells, 1.0, 0.05, 3);
        let sig = v
            .iter()
            .filter(|v| matches!(v, Verdict::Regression | Verdict::SlowerWithinT))
            .count();
        significant_cells += sig;
        regressions += v.iter().filter(|v| **v == Verdict::Regression).count();
        any_significant += usize::from(sig > 0);
    }
    #[expect(clippy::cast_precision_loss, reason = "counts below 2^52")]
    let rate = |n: usize, of: usize| n as f64 / of as f64;
    let (cell_rate, trial_rate, regression_rate) = (
        rate(significant_cells, trials * cells),
        rate(any_significant, trials),
        rate(regressions, trials * cells),
    );
    println!(
        "no change: {trials} trials × {cells} cells, CV 5%, 3 launches per side: \
         {significant_cells} cells significantly worse after BH ({cell_rate:.4}), \
         {any_significant} trials with any ({trial_rate:.4}), {regressions} REGRESSION ({regression_rate:.4})"
    );
    // BH with every null true controls the chance of any false alarm at α; 0.065 leaves two
    // binomial standard errors of the 1000 trials above α = 0.05.
    assert!(trial_rate <= 0.065, "{trial_rate}");
    assert!(cell_rate <= 0.05, "{cell_rate}");
    assert!(regression_rate <= 0.05, "{regression_rate}");
}

#[test]
fn ten_percent_slower_at_cv_two_percent_is_flagged() {
    let mut rng = Rng(0x5eed_0002);
    let (trials, cells) = (500, 4);
    let mut flagged = 0;
    for _ in 0..trials {
        flagged += trial(&mut rng, cells, 0.9, 0.02, 4)
            .iter()
            .filter(|v| **v == Verdict::Regression)
            .count();
    }
    #[expect(clippy::cast_precision_loss, reason = "counts below 2^52")]
    let power = flagged as f64 / (trials * cells) as f64;
    println!(
        "10% slower: {trials} trials × {cells} cells, CV 2%, 4 launches per side: \
         {flagged} REGRESSION ({power:.4})"
    );
    assert!(power >= 0.8, "{power}");
}

/// The verdict of BASE against HEAD seen from HEAD against BASE.
fn mirrored(v: Verdict) -> Verdict {
    match v {
        Verdict::Regression => Verdict::Improved,
        Verdict::Improved => Verdict::Regression,
        Verdict::SlowerWithinT => Verdict::FasterWithinT,
        Verdict::FasterWithinT => Verdict::SlowerWithinT,
        other => other,
    }
}

#[test]
fn variants_mirror_when_swapped_and_ignore_the_unit() {
    // Random variants of a family (factor, spread, launches per side); two invariants:
    // swapping BASE and HEAD mirrors every verdict, and multiplying both sides by one
    // constant (another unit, another model size) changes none.
    let mut rng = Rng(0x5eed_0003);
    let mut checked = 0;
    for _ in 0..300 {
        let k = 2 + usize::try_from(rng.next() % 5).unwrap();
        let factor = 0.8 + 0.4 * rng.uniform();
        let cv = 0.005 + 0.15 * rng.uniform();
        let cells: Vec<Cell> = (0..6)
            .map(|i| {
                let mut c = blank_cell(
                    0,
                    LevelKey::Streams(1 << i),
                    RegressMetric::ALL[i % RegressMetric::ALL.len()],
                    Verdict::Inconclusive,
                );
                c.base = Some(Box::new(side(&mut rng, 50.0, cv, k)));
                c.head = Some(Box::new(side(&mut rng, 50.0 * factor, cv, k)));
                c
            })
            .collect();
        let verdicts = |mut cells: Vec<Cell>| {
            decide::decide(&mut cells, &Options::default());
            cells.iter().map(|c| c.verdict).collect::<Vec<_>>()
        };
        let forward = verdicts(cells.clone());
        let swapped = verdicts(
            cells
                .iter()
                .cloned()
                .map(|mut c| {
                    std::mem::swap(&mut c.base, &mut c.head);
                    c
                })
                .collect(),
        );
        let scaled = verdicts(
            cells
                .iter()
                .cloned()
                .map(|mut c| {
                    for s in [c.base.as_deref_mut(), c.head.as_deref_mut()]
                        .into_iter()
                        .flatten()
                    {
                        for l in &mut s.launches {
                            l.value *= 1000.0;
                        }
                    }
                    c
                })
                .collect(),
        );
        let back: Vec<Verdict> = swapped.into_iter().map(mirrored).collect();
        assert_eq!(forward, back, "k {k} factor {factor} cv {cv}");
        assert_eq!(forward, scaled, "k {k} factor {factor} cv {cv}");
        checked += forward.len();
    }
    println!("mirror and unit invariants held on {checked} cells");
}
