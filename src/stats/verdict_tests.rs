//! The A/B verdict rule by rule (R1 to R5) against values computed with mpmath, and the noise
//! floor from same-vs-same controls.

use super::*;

fn close(got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol, "got {got}, want {want} ± {tol}");
}

const FLOOR: f64 = STATIC_NOISE_FLOOR_THROUGHPUT;

#[test]
fn r1_difference() {
    // B is ~10% faster and each side's three launches agree within ~1%.
    // mpmath on the logs: effect 0.1008408, CI (0.08359185, 0.11836432), ν 3.7423996.
    let r = ab_verdict(&[100.0, 101.0, 99.5], &[110.0, 111.0, 109.8], FLOOR).unwrap();
    assert_eq!(r.verdict, Verdict::Difference);
    assert!(!r.equivalence_shown);
    close(r.effect_rel, 0.100_840_8, 1e-6);
    let (lo, hi) = r.ci_rel.unwrap();
    close(lo, 0.083_591_85, 1e-6);
    close(hi, 0.118_364_32, 1e-6);
    close(r.log_welch.as_ref().unwrap().df, 3.742_399_6, 1e-6);
    assert_eq!((r.launches_a, r.launches_b), (3, 3));
    assert_eq!(r.b_is_better(Direction::HigherIsBetter), Some(true));
    assert_eq!(r.b_is_better(Direction::LowerIsBetter), Some(false));
}

#[test]
fn r1_difference_downwards() {
    let r = ab_verdict(&[110.0, 111.0, 109.8], &[100.0, 101.0, 99.5], FLOOR).unwrap();
    assert_eq!(r.verdict, Verdict::Difference);
    assert!(r.effect_rel < -FLOOR);
    assert_eq!(r.b_is_better(Direction::LowerIsBetter), Some(true));
}

#[test]
fn r2_tie_with_equivalence_shown() {
    // Four launches per side within ±0.2%: effect 0.000125, CI (−0.0019653, 0.0022199),
    // well inside ±2% (mpmath).
    let r = ab_verdict(
        &[100.0, 100.2, 99.9, 100.1],
        &[100.1, 100.0, 100.2, 99.95],
        FLOOR,
    )
    .unwrap();
    assert_eq!(r.verdict, Verdict::TieWithinNoise);
    assert!(r.equivalence_shown);
    let (lo, hi) = r.ci_rel.unwrap();
    close(lo, -0.001_965_28, 1e-7);
    close(hi, 0.002_219_87, 1e-7);
    assert_eq!(r.b_is_better(Direction::HigherIsBetter), None);
}

#[test]
fn r3_tie_without_equivalence() {
    // Two launches per side: ν ≈ 1, t ≈ 12.7, so the CI is far wider than ±2% although the
    // point effect (+0.1%) is inside it.
    let r = ab_verdict(&[100.0, 103.0], &[101.5, 101.6], FLOOR).unwrap();
    assert_eq!(r.verdict, Verdict::TieWithinNoise);
    assert!(!r.equivalence_shown);
    let (lo, hi) = r.ci_rel.unwrap();
    assert!(lo < -FLOOR && hi > FLOOR);
    assert!(r.effect_rel.abs() <= FLOOR);
}

#[test]
fn r3_tie_with_single_launches() {
    // One launch each, +1% < 2%: a tie (trusted per policy), no interval.
    let r = ab_verdict(&[100.0], &[101.0], FLOOR).unwrap();
    assert_eq!(r.verdict, Verdict::TieWithinNoise);
    assert!(!r.equivalence_shown);
    assert_eq!(r.ci_rel, None);
    close(r.effect_rel, 0.01, 1e-12);
}

#[test]
fn r4_single_launch() {
    // A has one launch and the effect (+10.5%) exceeds the floor.
    let r = ab_verdict(&[100.0], &[110.0, 111.0], FLOOR).unwrap();
    assert_eq!(r.verdict, Verdict::SingleLaunch);
    assert_eq!(r.ci_rel, None);
    assert_eq!(r.log_welch, None);
    assert_eq!((r.launches_a, r.launches_b), (1, 2));
    assert_eq!(r.b_is_better(Direction::HigherIsBetter), None);
}

#[test]
fn r5_underpowered_with_launch_advice() {
    // Effect +9.7% but ±3% launch spread on two launches per side: the CI crosses 0.
    // mpmath: CV_rm = 0.0394206, margin = 0.0971662 − 0.02 = 0.0771662;
    // t_{0.975,2k−2}·√2·CV_rm/√k is 0.16961 (k = 2), 0.089365 (k = 3), 0.068207 (k = 4),
    // so 4 launches per side.
    let r = ab_verdict(&[100.0, 106.0], &[110.0, 116.0], FLOOR).unwrap();
    assert_eq!(
        r.verdict,
        Verdict::Underpowered {
            launches_needed_per_side: Some(4)
        }
    );
    let (lo, hi) = r.ci_rel.unwrap();
    assert!(lo < 0.0 && hi > FLOOR);
    close(r.effect_rel, 0.097_166_161, 1e-8);
    close(lo, -0.075_293_49, 1e-7);
    close(hi, 0.301_789_89, 1e-7);
}

#[test]
fn r5_underpowered_unreachable() {
    // 3% effect against ±40% launch spread: k would be far above 100.
    let r = ab_verdict(&[60.0, 140.0], &[62.0, 144.0], FLOOR).unwrap();
    assert_eq!(
        r.verdict,
        Verdict::Underpowered {
            launches_needed_per_side: None
        }
    );
}

#[test]
fn zero_spread_on_both_sides_uses_a_point_interval() {
    let r = ab_verdict(&[100.0, 100.0], &[110.0, 110.0], FLOOR).unwrap();
    assert_eq!(r.verdict, Verdict::Difference);
    assert_eq!(r.log_welch, None);
    let (lo, hi) = r.ci_rel.unwrap();
    close(lo, 0.1, 1e-12);
    close(hi, 0.1, 1e-12);
}

#[test]
fn floor_decides_between_tie_and_difference() {
    // The R1 vector's CI starts at 8.4% (effect 10.08%): a 10% floor turns the same data into R5, not R1.
    let r = ab_verdict(&[100.0, 101.0, 99.5], &[110.0, 111.0, 109.8], 0.10).unwrap();
    assert!(matches!(r.verdict, Verdict::Underpowered { .. }));
    // And a 12% floor covers the whole CI (upper end 11.8%): equivalence.
    let r = ab_verdict(&[100.0, 101.0, 99.5], &[110.0, 111.0, 109.8], 0.12).unwrap();
    assert_eq!(r.verdict, Verdict::TieWithinNoise);
    assert!(r.equivalence_shown);
}

#[test]
fn invalid_input_is_none() {
    assert_eq!(ab_verdict(&[], &[1.0], FLOOR), None);
    assert_eq!(ab_verdict(&[1.0], &[], FLOOR), None);
    assert_eq!(ab_verdict(&[0.0, 1.0], &[1.0], FLOOR), None);
    assert_eq!(ab_verdict(&[1.0], &[-2.0], FLOOR), None);
    assert_eq!(ab_verdict(&[1.0], &[1.0], -0.01), None);
    assert_eq!(ab_verdict(&[1.0], &[1.0], f64::NAN), None);
    assert_eq!(ab_verdict(&[f64::NAN], &[1.0], FLOOR), None);
}

#[test]
fn nan_launch_means_are_dropped() {
    let r = ab_verdict(&[100.0, f64::NAN], &[110.0, 111.0], FLOOR).unwrap();
    assert_eq!(r.launches_a, 1);
    assert_eq!(r.verdict, Verdict::SingleLaunch);
}

#[test]
fn noise_floor_from_pairs() {
    assert_eq!(noise_floor_from_controls(&[]), None);
    assert_eq!(noise_floor_from_controls(&[f64::NAN]), None);
    close(noise_floor_from_controls(&[0.03]).unwrap(), 0.03, 1e-15);
    close(
        noise_floor_from_controls(&[-0.04, 0.01]).unwrap(),
        0.04,
        1e-15,
    );
    // Σd² = 1e-4 + 4e-4 + 2.25e-4 = 7.25e-4; /6 = 1.20833e-4; √ = 0.0109924;
    // ×2.77 = 0.0304490.
    close(
        noise_floor_from_controls(&[0.01, -0.02, 0.015]).unwrap(),
        0.030_449,
        1e-6,
    );
    // NaN is dropped before counting P: two pairs left, so the max rule.
    close(
        noise_floor_from_controls(&[0.01, f64::NAN, -0.02]).unwrap(),
        0.02,
        1e-15,
    );
}

#[test]
fn effective_floor_is_the_larger() {
    close(effective_noise_floor(FLOOR, None), 0.02, 0.0);
    close(effective_noise_floor(FLOOR, Some(0.035)), 0.035, 0.0);
    close(effective_noise_floor(FLOOR, Some(0.01)), 0.02, 0.0);
    close(effective_noise_floor(FLOOR, Some(f64::NAN)), 0.02, 0.0);
}
