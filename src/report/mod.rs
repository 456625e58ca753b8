//! Reporters: pure functions from findings (plus the source texts they point into) to bytes.
//! One file per format.

mod concise;
mod human;
mod json;
mod sources;

pub use concise::render as concise;
pub use human::render as human;
pub use json::render as json;
pub use sources::{Position, Prepared, prepare};
