use super::canvas::{Axis, Rect, place};
use super::escape;

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
