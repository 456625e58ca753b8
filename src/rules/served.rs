//! Whether a level or a run served anything. DESIGN.md conventions: "A level or run that
//! completed no request gets R006/R007 and nothing that judges its measurement (warm-up,
//! window, clocks, labels, per-user rate): those rules describe figures that do not exist."
//! The rules that judge how figures were measured, counted or labelled skip such a run
//! ([`served_nothing`]) and, inside a run, such a level ([`completed_nothing`]).

use crate::model::{Level, ResultDoc};

/// Whether a level completed no request: it records 0 completed requests, or, without a
/// request count, 0 output tokens.
pub fn completed_nothing(level: &Level) -> bool {
    match level.requests {
        Some(n) => n == 0,
        None => level.output_tokens == Some(0),
    }
}

/// Whether a run served nothing: no level, or no level that completed a request.
pub fn served_nothing(result: &ResultDoc) -> bool {
    result.levels.iter().all(|l| completed_nothing(&l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_with_no_completed_request_served_nothing() {
        let level = |requests, output_tokens| Level {
            concurrency: Some(8),
            requests,
            output_tokens,
            failed: Some(8),
            ..Level::default()
        };
        assert!(completed_nothing(&level(Some(0), None)));
        assert!(completed_nothing(&level(None, Some(0))));
        assert!(!completed_nothing(&level(Some(3), Some(0))));
        assert!(
            !completed_nothing(&level(None, None)),
            "unknown is not nothing"
        );
        let mut run = ResultDoc::default();
        assert!(served_nothing(&run), "no level");
        run.levels = vec![level(Some(0), None), level(Some(2), Some(512))].into();
        assert!(!served_nothing(&run));
        run.levels.to_mut().truncate(1);
        assert!(served_nothing(&run));
    }
}
